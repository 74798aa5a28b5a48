// Accelerations and contact forces of a mode holding two or more rigid contacts closed in a model
// with Coulomb friction in space (kind IndexSets; spatial_index_set_choice.cpp chooses the sets),
// generic in the scalar like index_set_dynamics.hpp; internal to src/mech.
//
// Sources: [LB] (2.9)-(2.10) (seed 001) with each frictional contact's scalar tangent replaced by
// its two slip rows (spatial_friction_dynamics.hpp; three with drilling friction). Rows R: the
// normal w_N of every closed contact, then the slip rows eta_k of every sticking contact. Force
// columns F: the same, except that a sliding contact's normal column is w_N - mu W_T d (its
// friction -mu lambda_N d, d its slip direction). Then (R^T M^-1 F) y = -(R^T a + what), qddot = a
// + M^-1 F y.
//
// Statically indeterminate contacts (a box on an edge or a face): the four corners of a face hold
// three independent normals, and their slip rows three independent in-plane motions for eight.
// Rows within 1e-8 (kinetic metric, as sticking_directions_shared) of the span of the rows before
// them (normals first) are dropped from the system: the motion is determined, the split of the
// forces is not. The split taken is the one that springs at the contacts would take (least
// complementary energy sum |lambda_i|^2 / k_i among the splits that give the same generalised
// force): lambda = D C^T (C D C^T)^-1 y with C the kept rows' coordinates of every row of its
// group (normals among normals, slip rows among slip rows) and D = diag(k_i):
//   normals: k_i = 1, equal springs (a face carries its weight evenly; the corners of an edge
//            share it as the lever rule says);
//   slip rows of sticking contacts: k_i = mu_s,i lambda_N,i, tangential springs as stiff as the
//            contact's cone is wide; where every member's force lies along one direction (a face
//            sliding to rest in translation) this is the planar rule of index_set_dynamics.hpp,
//            forces in proportion to mu_s,i lambda_N,i.
// A sliding contact's friction follows its share of the normal force: the kept normal k's force
// column is sum_i S_ik (w_N,i - mu_i W_T,i d_i), S = C^T (C C^T)^-1 (the sum of S_ik w_N,i is
// w_N,k: without sliding friction the split does not enter the motion). Each contact's lift-off and
// stick -> slip guards read its share. The split's coefficients C are taken at the double values
// (its derivatives for Jacobians come through y and D); the motion's derivatives are exact.
//
// Sliding contacts at rest (|gamma| within kSlipRestFraction of its terms) take d = -lambda_T /
// |lambda_T| of the same sets with all of them sticking, as one contact does with its own stick
// forces (spatial_friction_dynamics.hpp): slips that start together start against the forces that
// held them together.
// B (Painleve) is the normalised determinant of index_set_dynamics.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "saltus/core/error.hpp"

namespace saltus::mech::detail {

// The coordinates, in the kept rows of one group, of every row of that group (columns `all`):
// C (kept x all), identity on the kept rows, a dropped row's by least squares in the metric M^-1.
// On the contacts' surfaces a dropped row lies in its own group's span (the normals of a face's
// corners among themselves, their slip rows among themselves); off them (an integrator's trial
// stage, a face tilted against the floor) partly in the other group's: its split is then that of
// its projection, the motion is exact either way.
inline void group_coordinates(const SpdFactor<double>& Md,
                              const std::vector<DofVector<double>>& rows,
                              const std::vector<int>& kept, const std::vector<int>& all,
                              Eigen::MatrixXd& C) {
  const int nk = static_cast<int>(kept.size()), na = static_cast<int>(all.size());
  C = Eigen::MatrixXd::Zero(nk, na);
  std::vector<DofVector<double>> M_kept;
  for (const int r : kept) M_kept.push_back(Md.solve(rows[static_cast<size_t>(r)]));
  Eigen::MatrixXd gram(nk, nk);
  for (int a = 0; a < nk; ++a) {
    for (int b = 0; b < nk; ++b) gram(a, b) = rows[static_cast<size_t>(kept[a])].dot(M_kept[b]);
  }
  const Eigen::LDLT<Eigen::MatrixXd> gram_ldlt(gram);
  for (int j = 0; j < na; ++j) {
    const auto at = std::find(kept.begin(), kept.end(), all[j]);
    if (at != kept.end()) {
      C(at - kept.begin(), j) = 1.0;
      continue;
    }
    const DofVector<double>& w = rows[static_cast<size_t>(all[j])];
    Eigen::VectorXd rhs(nk);
    for (int a = 0; a < nk; ++a) rhs[a] = w.dot(M_kept[a]);
    const Eigen::VectorXd coords = gram_ldlt.solve(rhs);
    C.col(j) = coords;
  }
}

// lambda = D C^T (C D C^T)^-1 y over one group (header comment); weights D per column of C.
template <class S, class Y>
void split_forces(const Eigen::MatrixXd& C, const std::vector<S>& weight, const Y& y,
                  std::vector<S>& lambda) {
  const int nk = static_cast<int>(C.rows()), na = static_cast<int>(C.cols());
  lambda.assign(static_cast<size_t>(na), S(0.0));
  if (nk == na) {
    for (int j = 0; j < na; ++j) {
      for (int a = 0; a < nk; ++a) {
        if (C(a, j) != 0.0) lambda[static_cast<size_t>(j)] = y[a];
      }
    }
    return;
  }
  SpdFactor<S> K;
  DofMatrix<S>& k_matrix = K.matrix();
  k_matrix.resize(nk, nk);
  for (int a = 0; a < nk; ++a) {
    for (int b = 0; b < nk; ++b) {
      S sum(0.0);
      for (int j = 0; j < na; ++j)
        sum = S(sum + C(a, j) * weight[static_cast<size_t>(j)] * C(b, j));
      k_matrix(a, b) = sum;
    }
  }
  DofVector<S> z(nk);
  for (int a = 0; a < nk; ++a) z[a] = y[a];
  if (!K.compute_in_place()) {
    saltus::detail::throw_error("the split of the forces of dependent contacts is singular");
  }
  K.solve_in_place(z);
  for (int j = 0; j < na; ++j) {
    S sum(0.0);
    for (int a = 0; a < nk; ++a) sum = S(sum + C(a, j) * z[a]);
    lambda[static_cast<size_t>(j)] = S(weight[static_cast<size_t>(j)] * sum);
  }
}

template <class S>
void spatial_index_set_dynamics(const LagrangianModel& m, const LagrangianMode& mode, const S& t,
                                const DofVector<S>& q, const DofVector<S>& qd, DynamicsT<S>& out) {
  constexpr int kMaxRows = (1 + kMaxSlipRows) * kMaxDof;
  using Columns = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDof, kMaxRows>;
  using Rows = Eigen::Matrix<S, Eigen::Dynamic, 1, 0, kMaxRows, 1>;
  const int n = m.dof();
  const int nc = m.contact_count();
  SpdFactor<S> M;
  factor_mass(m, q, M);
  DofVector<S> h;
  total_forces(m, mode.compliant_mask, t, q, qd, h);
  out.qdd = M.solve(h);  // a
  out.lambda_N = out.lambda_T = out.lambda_T2 = S(0.0);
  out.lambda_N_of = DofVector<S>::Constant(nc, S(0.0));
  out.lambda_T_of = DofVector<S>::Constant(nc, S(0.0));
  out.lambda_T2_of = DofVector<S>::Constant(nc, S(0.0));
  out.lambda_T3_of = DofVector<S>::Constant(nc, S(0.0));

  // Every row, normals first: R (n x rows), U (a normal's force per unit lambda_N: w_N, less
  // mu W_T d while sliding; a slip row's: itself), what; contact and role of each.
  Columns R(n, kMaxRows), U(n, kMaxRows);
  Rows what(kMaxRows);
  int contact_of[kMaxRows] = {}, role_of[kMaxRows] = {};  // role 0 normal, k eta_k
  DofVector<S> mu_of = DofVector<S>::Constant(nc, S(0.0));
  std::vector<std::array<S, kMaxSlipRows>> direction(static_cast<size_t>(nc));
  // Sliding contacts at rest (|gamma| within kSlipRestFraction of its terms) slide against the
  // force that would hold them: the same sets with all of them sticking, evaluated once.
  std::vector<SlipKinematics<S>> slips(static_cast<size_t>(nc));
  unsigned resting = 0;
  for_each_bit(mode.closed_set & ~mode.stick_set, [&](int i) {
    if (!m.contact(i).spatial_frictional()) return;
    SlipKinematics<S>& kt = slips[static_cast<size_t>(i)];
    slip_kinematics(m.contact(i), q, qd, kt);
    const double speed = std::sqrt(val(kt.speed2()));
    if (!(speed > kSlipRestFraction * kt.terms)) resting |= 1u << i;
  });
  DynamicsT<S> held;
  if (resting) {
    LagrangianMode holding = mode;
    holding.stick_set |= resting;
    spatial_index_set_dynamics(m, holding, t, q, qd, held);
  }
  int rows = 0;
  Kinematics<S> kn;
  for_each_bit(mode.closed_set, [&](int i) {
    const LagrangianContact& c = m.contact(i);
    kinematics(c.gap, q, qd, kn);
    R.col(rows) = kn.w;
    U.col(rows) = kn.w;
    what[rows] = kn.what;
    contact_of[rows] = i;
    role_of[rows] = 0;
    if (c.spatial_frictional() && !((mode.stick_set >> i) & 1u)) {
      const SlipKinematics<S>& kt = slips[static_cast<size_t>(i)];
      using std::sqrt;
      const S speed2 = kt.speed2();
      const double speed = std::sqrt(val(speed2));
      std::array<S, kMaxSlipRows>& d = direction[static_cast<size_t>(i)];
      if (speed > kFrozenDirectionFraction * kt.terms) {
        const S s = sqrt(speed2);
        for (int k = 0; k < kt.rows; ++k) d[k] = S(kt.gamma[k] / s);
      } else if ((resting >> i) & 1u) {
        const std::array<S, kMaxSlipRows> held_f{held.lambda_T_of[i], held.lambda_T2_of[i],
                                                 held.lambda_T3_of[i]};
        S f2(0.0);
        for (int k = 0; k < kt.rows; ++k) f2 = S(f2 + held_f[k] * held_f[k]);
        const S f = val(f2) > 0.0 ? S(sqrt(f2)) : S(1.0);
        for (int k = 0; k < kt.rows; ++k) d[k] = S(-held_f[k] / f);
      } else {  // near rest: the direction's value, without its derivative
        for (int k = 0; k < kt.rows; ++k) d[k] = S(val(kt.gamma[k]) / speed);
      }
      S along(0.0);
      for (int k = 0; k < kt.rows; ++k) along = S(along + kt.gamma[k] * d[k]);
      mu_of[i] = c.sliding_mu(S(speed > 0.0 ? along : S(0.0)));
      if (!(val(mu_of[i]) >= 0.0)) {
        saltus::detail::throw_error(c.description, ": Stribeck curve gives mu_k = ", val(mu_of[i]),
                                    "; expected a sliding coefficient >= 0 at every slip speed");
      }
      for (int k = 0; k < kt.rows; ++k) {
        for (int r = 0; r < n; ++r) U(r, rows) = S(U(r, rows) - mu_of[i] * kt.w[k][r] * d[k]);
      }
    }
    ++rows;
  });
  const int normals = rows;
  for_each_bit(mode.stick_set & mode.closed_set, [&](int i) {
    if (!m.contact(i).spatial_frictional()) return;
    SlipKinematics<S> kt;
    slip_kinematics(m.contact(i), q, qd, kt);
    for (int k = 0; k < kt.rows; ++k) {
      R.col(rows) = kt.w[static_cast<size_t>(k)];
      U.col(rows) = kt.w[static_cast<size_t>(k)];
      what[rows] = kt.what[static_cast<size_t>(k)];
      contact_of[rows] = i;
      role_of[rows] = 1 + k;
      ++rows;
    }
  });

  // Independent rows (Gram-Schmidt in the metric M^-1, double values), normals first.
  SpdFactor<double> Md;
  factor_mass(m, values(q), Md);
  std::vector<DofVector<double>> row_values, basis, basis_M;  // basis orthonormal in M^-1
  std::vector<int> kept_N, kept_T, all_N, all_T;
  for (int r = 0; r < rows; ++r) {
    const DofVector<double> w = values(DofVector<S>(R.col(r)));
    row_values.push_back(w);
    (r < normals ? all_N : all_T).push_back(r);
    DofVector<double> v = w;
    for (size_t j = 0; j < basis.size(); ++j) v -= v.dot(basis_M[j]) * basis[j];
    const DofVector<double> Mv = Md.solve(v);
    const double size2 = w.dot(Md.solve(w)), left2 = v.dot(Mv);
    if (!(left2 > 1e-16 * size2)) continue;
    const double norm = std::sqrt(left2);
    basis.push_back(v / norm);
    basis_M.push_back(Mv / norm);
    (r < normals ? kept_N : kept_T).push_back(r);
  }
  Eigen::MatrixXd C_N, C_T;
  group_coordinates(Md, row_values, kept_N, all_N, C_N);
  group_coordinates(Md, row_values, kept_T, all_T, C_T);
  // S_N = C_N^T (C_N C_N^T)^-1: the normals' split of the kept normal forces (equal springs).
  const Eigen::MatrixXd S_N =
      C_N.transpose() *
      (C_N * C_N.transpose()).ldlt().solve(Eigen::MatrixXd::Identity(C_N.rows(), C_N.rows()));

  // A y = b over the kept rows, A = R^T M^-1 F, b = -(R^T a + what); the kept normal k's force
  // column F_k = sum_i S_ik U_i.
  const int n_kept = static_cast<int>(kept_N.size() + kept_T.size());
  std::vector<int> kept = kept_N;
  kept.insert(kept.end(), kept_T.begin(), kept_T.end());
  Columns MF(n, n_kept);
  for (int c = 0; c < n_kept; ++c) {
    DofVector<S> f(n);
    if (c < static_cast<int>(kept_N.size())) {
      f = DofVector<S>::Constant(n, S(0.0));
      for (int i = 0; i < normals; ++i) {
        if (S_N(i, c) == 0.0) continue;
        for (int j = 0; j < n; ++j)
          f[j] = S(f[j] + S_N(i, c) * U(j, all_N[static_cast<size_t>(i)]));
      }
    } else {
      f = U.col(kept[static_cast<size_t>(c)]);
    }
    MF.col(c) = M.solve(f);
  }
  Rows y(n_kept);
  solve_held_rows(R, MF, what, kept.data(), n_kept, out, y);

  // Each contact's share: normals by S_N, a sliding contact's friction with it.
  for (int i = 0; i < normals; ++i) {
    S lambda(0.0);
    for (int c = 0; c < static_cast<int>(kept_N.size()); ++c) lambda = S(lambda + S_N(i, c) * y[c]);
    const int ci = contact_of[all_N[static_cast<size_t>(i)]];
    out.lambda_N_of[ci] = lambda;
    if (m.contact(ci).spatial_frictional() && !((mode.stick_set >> ci) & 1u)) {
      const std::array<S, kMaxSlipRows>& d = direction[static_cast<size_t>(ci)];
      out.lambda_T_of[ci] = S(-mu_of[ci] * lambda * d[0]);
      out.lambda_T2_of[ci] = S(-mu_of[ci] * lambda * d[1]);
      out.lambda_T3_of[ci] = S(-mu_of[ci] * lambda * d[2]);
    }
  }
  // Sticking contacts' friction: tangential springs of stiffness mu_s lambda_N, floored so that
  // C D C^T stays regular.
  std::vector<S> weight;
  double largest = 0.0;
  for (const int r : all_T) {
    const int ci = contact_of[r];
    weight.push_back(S(m.contact(ci).law.static_mu() * out.lambda_N_of[ci]));
    largest = std::max(largest, val(weight.back()));
  }
  const double floor = largest > 0.0 ? 1e-12 * largest : 1.0;
  for (S& w : weight) {
    if (!(val(w) > floor)) w = S(floor);
  }
  Rows y_T(static_cast<int>(kept_T.size()));
  for (int k = 0; k < y_T.size(); ++k) y_T[k] = y[static_cast<int>(kept_N.size()) + k];
  std::vector<S> lambda_T;
  split_forces(C_T, weight, y_T, lambda_T);
  for (size_t j = 0; j < all_T.size(); ++j) {
    const int r = all_T[j];
    DofVector<S>& slot = role_of[r] == 1   ? out.lambda_T_of
                         : role_of[r] == 2 ? out.lambda_T2_of
                                           : out.lambda_T3_of;
    slot[contact_of[r]] = lambda_T[j];
  }
}

}  // namespace saltus::mech::detail
