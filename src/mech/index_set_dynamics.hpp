// Accelerations and contact forces of a mode holding two or more rigid contacts closed (kind
// IndexSets of LagrangianMode), generic in the scalar like contact_dynamics.hpp; no allocation.
//
// Source: [LB] (2.9)-(2.10) (seed 001; FORMULAS.md 10.3), the equality branch for the index sets
// of the mode: every contact of I_N keeps gddot_N = 0, every contact of I_H keeps gddot_T = 0,
// a sliding contact of I_N \ I_H carries lambda_T = -mu s lambda_N (mu = mu_k(|gdot_T|), its
// sliding coefficient). Unknowns y = (lambda_N over
// I_N, lambda_T over the sticking groups):
//   qddot = a + M^-1 F y,  F = [w_N,i - mu_i s_i w_T,i (sliding) | w_N,i ... | w_T,group ...]
//   R^T qddot + what = 0,  R = [w_N,i ... | w_T,group ...]   ->   (R^T M^-1 F) y = -(R^T a + what)
// solved by Gaussian elimination with partial pivoting (comparisons on the double value, so the
// Dual instantiation follows the same pivots).
//
// Dependent directions (FORMULAS.md 10.3 note): sticking contacts whose w_T are equal (two corners
// of one body on flat ground) make W_H^T M^-1 W_H singular; only their sum of friction forces is
// determined. They form one group with one unknown and one equation; the group's force is shared
// in proportion to mu_s,i lambda_N,i (static coefficients), the split that keeps every member
// equally far from its cone edge (any split moves the body alike; this one makes each member's
// stick -> slip guard fire exactly when the group as a whole reaches
// |sum lambda_T| = sum mu_s,i lambda_N,i).
//
// B (DynamicsT::B) is det(R^T M^-1 F) divided by the product of the L1 norms of its rows (in
// [-1, 1] by Hadamard's inequality); it is positive for frictionless and sticking sets and
// reaches zero where sliding friction makes the system singular (the multi-contact Painleve jam).
#pragma once

#include "contact_dynamics.hpp"

namespace saltus::mech::detail {

template <class S>
S abs_value(const S& x) {
  return val(x) < 0.0 ? S(-x) : x;
}

// Sticking contacts share one friction unknown (in the flow, the index-set choice and the
// stick / slip resets) when their tangents are equal to 1e-8 relative in the kinetic metric,
// |a - b|_{M^-1} <= 1e-8 |a|_{M^-1}. A box come to rest flat carries its angle's integration error
// (3e-10 rad in a random drop), which tilts its corners' w_T apart by that much; as two unknowns
// the sticking system is singular to 1e-10 and its forces came out NaN. Directions closer than
// 1e-8 leave the split of their friction undetermined beyond the integrator's tolerance anyway.
// The metric M^-1 weighs each coordinate by its own inertia, so the test reads the same in any
// units of length, mass or angle (a max-norm over metres and radians did not).
template <class S, class A, class B>
bool sticking_directions_shared(const SpdFactor<S>& M, const Eigen::MatrixBase<A>& a,
                                const Eigen::MatrixBase<B>& b) {
  DofVector<double> difference(a.size());
  for (int i = 0; i < a.size(); ++i) difference[i] = val(a[i]) - val(b[i]);
  return M.inverse_quadratic_value(difference) <= 1e-16 * M.inverse_quadratic_value(a);
}

// M(q) factored in doubles, for the test above where only q is at hand (resets, index-set choice).
inline SpdFactor<double> factored_mass(const LagrangianModel& m, ConstVectorRef q) {
  SpdFactor<double> M;
  factor_mass(m, load<double>(q, 0, m.dof()), M);
  return M;
}

// Bits of `set` in ascending order, as contact indices.
template <class F>
void for_each_bit(unsigned set, F f) {
  for (int i = 0; set; ++i, set >>= 1u) {
    if (set & 1u) f(i);
  }
}

// Solves the k x k system held in A (k rows, k + 1 columns: the right-hand side last) by
// Gaussian elimination with partial pivoting, comparing the double values so that the Dual
// instantiation follows the same pivots; returns det A (a zero pivot gives NaN in y: the engine
// reports it).
template <class Square, class Unknowns>
auto eliminate(Square& A, int k, Unknowns& y) {
  using S = typename Square::Scalar;
  S det(1.0);
  for (int c = 0; c < k; ++c) {
    int p = c;
    for (int r = c + 1; r < k; ++r) {
      if (std::abs(val(A(r, c))) > std::abs(val(A(p, c)))) p = r;
    }
    if (p != c) {
      A.row(p).swap(A.row(c));
      det = S(-det);
    }
    det = S(det * A(c, c));
    for (int r = c + 1; r < k; ++r) {
      const S f = S(A(r, c) / A(c, c));
      for (int j = c; j <= k; ++j) A(r, j) = S(A(r, j) - f * A(c, j));
    }
  }
  for (int r = k - 1; r >= 0; --r) {
    S sum = A(r, k);
    for (int j = r + 1; j < k; ++j) sum = S(sum - A(r, j) * y[j]);
    y[r] = S(sum / A(r, r));
  }
  return det;
}

// The held rows' system over the rows row_of[0..k) of R and what (k unknowns, the columns of
// MF = M^-1 F): (R^T M^-1 F) y = -(R^T a + what) with a = out.qdd on entry; then out.qdd = a +
// M^-1 F y and out.B = det (R^T M^-1 F) over the product of its rows' L1 norms (in [-1, 1] by
// Hadamard's inequality).
template <class Rc, class Mf, class W, class S, class Y>
void solve_held_rows(const Rc& R, const Mf& MF, const W& what, const int* row_of, int k,
                     DynamicsT<S>& out, Y& y) {
  using Square = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, 2 * kMaxDof, 2 * kMaxDof + 1>;
  const int n = static_cast<int>(out.qdd.size());
  Square A(k, k + 1);
  S scale(1.0);
  for (int r = 0; r < k; ++r) {
    const int row = row_of[r];
    S row_norm(0.0);
    for (int c = 0; c < k; ++c) {
      S sum(0.0);
      for (int j = 0; j < n; ++j) sum = S(sum + R(j, row) * MF(j, c));
      A(r, c) = sum;
      row_norm = S(row_norm + abs_value(sum));
    }
    S rhs = what[row];
    for (int j = 0; j < n; ++j) rhs = S(rhs + R(j, row) * out.qdd[j]);
    A(r, k) = S(-rhs);
    scale = S(scale * row_norm);
  }
  const S det = eliminate(A, k, y);
  out.B = val(scale) > 0.0 ? S(det / scale) : S(0.0);
  for (int c = 0; c < k; ++c) {
    for (int j = 0; j < n; ++j) out.qdd[j] = S(out.qdd[j] + MF(j, c) * y[c]);
  }
}

template <class S>
void index_set_dynamics(const LagrangianModel& m, const LagrangianMode& mode, const S& t,
                        const DofVector<S>& q, const DofVector<S>& qd, DynamicsT<S>& out) {
  constexpr int kMaxUnknowns = 2 * kMaxDof;
  using Columns = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDof, kMaxUnknowns>;
  using Unknowns = Eigen::Matrix<S, Eigen::Dynamic, 1, 0, kMaxUnknowns, 1>;
  if (m.has_spatial_friction()) {
    spatial_index_set_dynamics(m, mode, t, q, qd, out);
    return;
  }
  const int n = m.dof();
  const int nc = m.contact_count();
  SpdFactor<S> M;
  factor_mass(m, q, M);
  DofVector<S> h;
  total_forces(m, mode.compliant_mask, t, q, qd, h);
  out.qdd = M.solve(h);  // a
  out.lambda_N = out.lambda_T = S(0.0);
  out.lambda_N_of = DofVector<S>::Constant(nc, S(0.0));
  out.lambda_T_of = DofVector<S>::Constant(nc, S(0.0));

  Columns F(n, kMaxUnknowns), R(n, kMaxUnknowns);
  Unknowns what(kMaxUnknowns);
  int row_of_normal[kMaxDof] = {}, group_of[kMaxDof] = {};
  DofVector<S> sliding_mu_of = DofVector<S>::Constant(nc, S(0.0));
  int k = 0;
  Kinematics<S> kin;
  for_each_bit(mode.closed_set, [&](int i) {
    const LagrangianContact& c = m.contact(i);
    kinematics(c.gap, q, qd, kin);
    R.col(k) = kin.w;
    F.col(k) = kin.w;
    what[k] = kin.what;
    const bool sticks = (mode.stick_set >> i) & 1u;
    if (!sticks && c.frictional()) {
      const double s = (mode.slip_negative_set >> i) & 1u ? -1.0 : 1.0;
      DofVector<S> wt;
      gradient(c.tangent, q, wt);
      sliding_mu_of[i] = sliding_mu_at(c, wt, qd);
      for (int r = 0; r < n; ++r) F(r, k) = S(F(r, k) - sliding_mu_of[i] * s * wt[r]);
    }
    row_of_normal[i] = k++;
  });
  const int first_group = k;
  for_each_bit(mode.stick_set, [&](int i) {
    kinematics(m.contact(i).tangent, q, qd, kin);
    const DofVector<double> wv = values(kin.w);
    for (int g = first_group; g < k; ++g) {
      if (sticking_directions_shared(M, values(DofVector<S>(R.col(g))), wv)) {
        group_of[i] = g;
        return;
      }
    }
    R.col(k) = kin.w;
    F.col(k) = kin.w;
    what[k] = kin.what;
    group_of[i] = k++;
  });

  // A y = b with A = R^T M^-1 F, b = -(R^T a + what).
  Columns MF(n, k);
  for (int c = 0; c < k; ++c) {
    DofVector<S> col = F.col(c);
    M.solve_in_place(col);
    MF.col(c) = col;
  }
  Unknowns y(k);
  int identity[kMaxUnknowns];
  for (int r = 0; r < k; ++r) identity[r] = r;
  solve_held_rows(R, MF, what, identity, k, out, y);

  // Per-contact forces; a sticking group's force shared in proportion to mu_s,i lambda_N,i.
  Unknowns group_weight = Unknowns::Constant(k, S(0.0));
  int group_size[kMaxUnknowns] = {};
  for_each_bit(mode.closed_set, [&](int i) {
    const LagrangianContact& c = m.contact(i);
    const S lambda_N = y[row_of_normal[i]];
    out.lambda_N_of[i] = lambda_N;
    if ((mode.stick_set >> i) & 1u) {
      group_weight[group_of[i]] = S(group_weight[group_of[i]] + c.law.static_mu() * lambda_N);
      ++group_size[group_of[i]];
    } else if (c.frictional()) {
      const double s = (mode.slip_negative_set >> i) & 1u ? -1.0 : 1.0;
      out.lambda_T_of[i] = S(-sliding_mu_of[i] * s * lambda_N);
    }
  });
  for_each_bit(mode.stick_set, [&](int i) {
    const int g = group_of[i];
    const S share = val(group_weight[g]) > 0.0
                        ? S(m.contact(i).law.static_mu() * out.lambda_N_of[i] / group_weight[g])
                        : S(1.0 / group_size[g]);
    out.lambda_T_of[i] = S(y[g] * share);
  });
}

}  // namespace saltus::mech::detail
