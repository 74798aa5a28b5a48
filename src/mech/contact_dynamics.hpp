// Accelerations and contact forces of one mode of a LagrangianModel, generic in the scalar
// (double for values, ChunkDual for the AD Jacobians of the compiled flows, Dual for guard
// gradients and rates).
// Internal to src/mech; every buffer is fixed-capacity (DofVector/DofMatrix): no allocation.
//
// Sources: [LB] (2.3)-(2.10) (seed 001; FORMULAS.md 10.2-10.3) for one closed contact;
// FORMULAS.md 3 (compliant force f(delta, deltadot) along w_N); FORMULAS.md 11.1 (B).
//   a = M^-1 h_total,  h_total = h + sum_{active compliant j} f_j w_N,j
//   frictionless / slip s:  u = w_N - mu s w_T,  B = w_N^T M^-1 u,  b = w_N^T a + what_N,
//                            lambda_N = -b / B,  qddot = a + M^-1 u lambda_N,  lambda_T = -mu s
//                            lambda_N
//   stick:  G = W^T M^-1 W (2x2, W = [w_N w_T]),  G lambda = -(W^T a + (what_N, what_T)),
//           qddot = a + M^-1 W lambda
// w = dg/dq^T and what = qdot^T (d^2 g/dq^2) qdot come from SecondOrderJetTpl<S>: g evaluated at
// q + s e_k gives w_k in d1; at q + s qdot gives gdot in d1 and what in d2.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech::detail {

// The double value of a scalar of any instantiation (double, Dual, ChunkDual).
inline double val(double x) {
  return x;
}
template <int N>
double val(const ceres::Jet<double, N>& x) {
  return x.a;
}

// "(q_0, q_1, ...)" with 17 digits, for messages (allocates: error paths only).
std::string q_text(ConstVectorRef q);

template <class S, class V>
DofVector<S> load(const V& v, Eigen::Index from, int n) {
  DofVector<S> out(n);
  for (int i = 0; i < n; ++i) out[i] = S(v[from + i]);
  return out;
}

// x = (q, qdot) split into DofVectors of the scalar of x (double or Dual).
template <class X>
auto split_state(const X& x, int n) {
  using S = std::decay_t<decltype(x[0])>;
  return std::pair<DofVector<S>, DofVector<S>>(load<S>(x, 0, n), load<S>(x, n, n));
}

template <class S>
DofVector<double> values(const DofVector<S>& v) {
  DofVector<double> out(v.size());
  for (Eigen::Index i = 0; i < v.size(); ++i) out[i] = val(v[i]);
  return out;
}

template <class S>
S dot(const DofVector<S>& a, const DofVector<S>& b) {
  S sum(0.0);
  for (Eigen::Index i = 0; i < a.size(); ++i) sum = S(sum + a[i] * b[i]);
  return sum;
}

// M = L D L^T without pivoting (M SPD: pivots stay positive); the Jet scalars have no ordering
// for Eigen's pivoting, and this keeps one code path for both scalars.
template <class S>
class SpdFactor {
 public:
  // False when a pivot is not positive (M not SPD at this q).
  bool compute(const DofMatrix<S>& M) {
    L_ = M;
    return compute_in_place();
  }
  // The matrix compute_in_place() factors, for the caller to fill: one n x n buffer instead of
  // two (a DofMatrix of a Jet scalar zeroes all kMaxDof^2 entries when constructed).
  DofMatrix<S>& matrix() { return L_; }
  bool compute_in_place() {
    n_ = static_cast<int>(L_.rows());
    d_.resize(n_);
    for (int j = 0; j < n_; ++j) {
      S dj = L_(j, j);
      for (int k = 0; k < j; ++k) dj = S(dj - L_(j, k) * L_(j, k) * d_[k]);
      if (!(val(dj) > 0.0)) return false;
      d_[j] = dj;
      for (int i = j + 1; i < n_; ++i) {
        S lij = L_(i, j);
        for (int k = 0; k < j; ++k) lij = S(lij - L_(i, k) * L_(j, k) * d_[k]);
        L_(i, j) = S(lij / dj);
      }
    }
    return true;
  }
  // b <- M^-1 b.
  void solve_in_place(DofVector<S>& b) const {
    for (int i = 0; i < n_; ++i) {
      for (int k = 0; k < i; ++k) b[i] = S(b[i] - L_(i, k) * b[k]);
    }
    for (int i = 0; i < n_; ++i) b[i] = S(b[i] / d_[i]);
    for (int i = n_ - 1; i >= 0; --i) {
      for (int k = i + 1; k < n_; ++k) b[i] = S(b[i] - L_(k, i) * b[k]);
    }
  }
  DofVector<S> solve(DofVector<S> b) const {
    solve_in_place(b);
    return b;
  }
  // w^T M^-1 w in doubles, from the factor's values: the kinetic metric of a covector w (a
  // contact direction), in the same units whatever the units of the coordinates.
  template <class V>
  double inverse_quadratic_value(const V& w) const {
    double y[kMaxDof];
    double sum = 0.0;
    for (int i = 0; i < n_; ++i) {
      y[i] = val(w[i]);
      for (int k = 0; k < i; ++k) y[i] -= val(L_(i, k)) * y[k];
      sum += y[i] * y[i] / val(d_[i]);
    }
    return sum;
  }

 private:
  DofMatrix<S> L_;
  DofVector<S> d_;
  int n_ = 0;
};

// M(q), factored; a non-SPD matrix ends in LagrangianModel::mass_matrix's error (names q and the
// smallest eigenvalue).
template <class S>
void factor_mass(const LagrangianModel& m, const DofVector<S>& q, SpdFactor<S>& factor) {
  const int n = m.dof();
  DofMatrix<S>& M = factor.matrix();
  M = DofMatrix<S>::Constant(n, n, S(0.0));
  m.eval_mass(q, M);
  if (!factor.compute_in_place()) {
    const DofVector<double> qv = values(q);
    m.mass_matrix(qv);  // throws, naming the model, q and the smallest eigenvalue
    saltus::detail::throw_error("model '", m.name(), "': mass matrix factorisation failed");
  }
}

// f(q + s dir) as a second-order jet: v = f(q), d1 = f'(q) dir, d2 = dir^T f''(q) dir.
template <class S>
SecondOrderJetTpl<S> along(const ConfigurationFunction& f, const DofVector<S>& q,
                           const DofVector<S>& dir) {
  DofVector<SecondOrderJetTpl<S>> qj(q.size());
  for (Eigen::Index k = 0; k < q.size(); ++k) qj[k] = SecondOrderJetTpl<S>(q[k], dir[k], S(0.0));
  return f(qj);
}

// The stick guard of contact c sliding with s: p = -s gdot_T, rising when the sliding speed falls
// to the level counted as rest, kStickGuardOffset of the guard's scale (Guard::scale_offset: the
// engine subtracts it, from the run's velocity scales; a constant here would fix a unit, as
// 1e-12 (1 + |qdot|_inf) did). At p = -s gdot_T exactly, a slip entered from stick starts at
// speed 0 on its own guard and re-fires it at ~1e-13 s gaps until the step size underflows.
inline constexpr double kStickGuardOffset = 1e-12;
template <class S>
S stick_guard_value(const LagrangianContact& c, double s, const DofVector<S>& q,
                    const DofVector<S>& qd) {
  return S(-s * along(c.tangent, q, qd).d1);
}

// w = df/dq^T at q.
template <class S>
void gradient(const ConfigurationFunction& f, const DofVector<S>& q, DofVector<S>& w) {
  const Eigen::Index n = q.size();
  DofVector<SecondOrderJetTpl<S>> qj(n);
  for (Eigen::Index k = 0; k < n; ++k) qj[k] = SecondOrderJetTpl<S>(q[k], S(0.0), S(0.0));
  w.resize(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    qj[k].d1 = S(1.0);
    w[k] = f(qj).d1;
    qj[k].d1 = S(0.0);
  }
}

// Kinematics of one contact function at (q, qdot): value, rate, gradient, acceleration offset.
template <class S>
struct Kinematics {
  S g = S(0.0), gdot = S(0.0), what = S(0.0);
  DofVector<S> w;
};

template <class S>
void kinematics(const ConfigurationFunction& f, const DofVector<S>& q, const DofVector<S>& qd,
                Kinematics<S>& out) {
  const SecondOrderJetTpl<S> j = along(f, q, qd);
  out.g = j.v;
  out.gdot = j.d1;
  out.what = j.d2;
  gradient(f, q, out.w);
}

// Push-out force of compliant contact c at (q, qdot) and its gap kinematics.
template <class S>
S compliant_force(const LagrangianContact& c, const DofVector<S>& q, const DofVector<S>& qd) {
  const SecondOrderJetTpl<S> j = along(c.gap, q, qd);
  return c.compliant.force(S(-j.v), S(-j.d1));
}

// The coefficient contact c slides with at qdot: mu_k(|gdot_T|), gdot_T = w_T^T qdot
// (LagrangianContact::sliding_mu). A Stribeck curve that gives a negative or NaN coefficient at
// the run's slip speed would drive the slip instead of resisting it: an error naming the speed.
template <class S>
S sliding_mu_at(const LagrangianContact& c, const DofVector<S>& w_T, const DofVector<S>& qd) {
  if (!c.stribeck) return S(c.law.mu);
  using std::abs;
  const S speed = S(abs(dot(w_T, qd)));
  const S mu = c.sliding_mu(speed);
  if (!(val(mu) >= 0.0)) {
    saltus::detail::throw_error(c.description, ": Stribeck curve mu_k(", val(speed),
                                ") = ", val(mu),
                                "; expected a sliding coefficient >= 0 at every slip speed");
  }
  return mu;
}

// Slip sign of a closed kind (0 for frictionless).
inline double slip_sign(ClosedKind kind) {
  return kind == ClosedKind::SlipPositive ? 1.0 : (kind == ClosedKind::SlipNegative ? -1.0 : 0.0);
}

template <class S>
struct DynamicsT {
  DofVector<S> qdd;
  S lambda_N = S(0.0), lambda_T = S(0.0), B = S(0.0);
  // A contact in space (spatial_friction_dynamics.hpp): the tangential force along t_2 (lambda_T
  // is along t_1), w_N^T M^-1 w_N, and the slip speed gamma . d (0 while sticking).
  // With drilling friction, lambda_T3: the multiplier of the third slip row (the drilling
  // torque over l).
  S lambda_T2 = S(0.0), lambda_T3 = S(0.0), normal_metric = S(0.0), slip_speed = S(0.0);
  // With rolling resistance (spatial_rolling_dynamics.hpp): the rolling rows' multipliers and the
  // rolling speed omega . d_R (0 while the rolling is held).
  S lambda_R1 = S(0.0), lambda_R2 = S(0.0), roll_speed = S(0.0);
  // Kind IndexSets: per contact index (zero for contacts not closed); B is then the normalised
  // determinant of the closed-contact system (index_set_dynamics.hpp).
  DofVector<S> lambda_N_of, lambda_T_of;
  // Kind IndexSets with friction in space: the multipliers of slip rows 2 and 3 per contact.
  DofVector<S> lambda_T2_of, lambda_T3_of;
};

// h_total = h(t, q, qdot) + the forces of the compliant contacts active in `compliant_mask`.
template <class S>
void total_forces(const LagrangianModel& m, unsigned compliant_mask, const S& t,
                  const DofVector<S>& q, const DofVector<S>& qd, DofVector<S>& h) {
  const int n = m.dof();
  h = DofVector<S>::Constant(n, S(0.0));
  m.eval_forces(t, q, qd, h);
  const std::vector<int>& compliant = m.compliant_contacts();
  for (size_t j = 0; j < compliant.size(); ++j) {
    if (!(compliant_mask & (1u << j))) continue;
    const LagrangianContact& c = m.contact(compliant[j]);
    DofVector<S> w;
    gradient(c.gap, q, w);
    const S f = compliant_force(c, q, qd);
    for (int k = 0; k < n; ++k) h[k] = S(h[k] + f * w[k]);
  }
}

// Defined in index_set_dynamics.hpp (two or more closed contacts).
template <class S>
void index_set_dynamics(const LagrangianModel& m, const LagrangianMode& mode, const S& t,
                        const DofVector<S>& q, const DofVector<S>& qd, DynamicsT<S>& out);

// Defined in spatial_index_set_dynamics.hpp (two or more closed contacts, friction in space).
template <class S>
void spatial_index_set_dynamics(const LagrangianModel& m, const LagrangianMode& mode, const S& t,
                                const DofVector<S>& q, const DofVector<S>& qd, DynamicsT<S>& out);

// Defined in compliant_friction_dynamics.hpp: the friction of the active frictional compliant
// contacts (a mode without a closed rigid contact), added to out.qdd = M^-1 h_total, with their
// tangential forces in out.lambda_T_of (per contact index).
inline bool has_compliant_friction(const LagrangianModel& m, const LagrangianMode& mode);
template <class S>
void add_compliant_friction(const LagrangianModel& m, const LagrangianMode& mode,
                            const SpdFactor<S>& M, const DofVector<S>& q, const DofVector<S>& qd,
                            DynamicsT<S>& out);

// Defined in spatial_friction_dynamics.hpp: one contact with friction in space held closed.
template <class S>
void spatial_closed_dynamics(const LagrangianModel& m, const LagrangianMode& mode,
                             const SpdFactor<S>& M, const DofVector<S>& q, const DofVector<S>& qd,
                             DynamicsT<S>& out);

// qddot and contact forces of `mode` at (t, q, qdot).
template <class S>
void mode_dynamics(const LagrangianModel& m, const LagrangianMode& mode, const S& t,
                   const DofVector<S>& q, const DofVector<S>& qd, DynamicsT<S>& out) {
  if (mode.kind == ClosedKind::IndexSets) {
    index_set_dynamics(m, mode, t, q, qd, out);
    return;
  }
  const int n = m.dof();
  SpdFactor<S> M;
  factor_mass(m, q, M);
  DofVector<S> h;
  total_forces(m, mode.compliant_mask, t, q, qd, h);
  out.qdd = M.solve(h);  // a = M^-1 h_total
  out.lambda_N = out.lambda_T = S(0.0);
  if (mode.kind == ClosedKind::None || mode.kind == ClosedKind::PostZeno) {
    if (has_compliant_friction(m, mode)) add_compliant_friction(m, mode, M, q, qd, out);
    return;
  }

  if (mode.kind == ClosedKind::SpatialSlip || mode.kind == ClosedKind::SpatialStick) {
    spatial_closed_dynamics(m, mode, M, q, qd, out);
    return;
  }
  const LagrangianContact& c = m.contact(mode.closed_contact);
  Kinematics<S> kn;
  kinematics(c.gap, q, qd, kn);
  if (mode.kind == ClosedKind::Stick) {
    Kinematics<S> kt;
    kinematics(c.tangent, q, qd, kt);
    const DofVector<S> Mn = M.solve(kn.w), Mt = M.solve(kt.w);
    const S G_NN = dot(kn.w, Mn), G_NT = dot(kn.w, Mt), G_TN = dot(kt.w, Mn), G_TT = dot(kt.w, Mt);
    const S r_N = S(-(dot(kn.w, out.qdd) + kn.what)), r_T = S(-(dot(kt.w, out.qdd) + kt.what));
    const S det = S(G_NN * G_TT - G_NT * G_TN);
    if (!(val(det) > 1e-14 * val(G_NN) * val(G_TT))) {
      saltus::detail::throw_error(
          c.description, ": in the stick mode the normal and tangential directions are dependent ",
          "(det W^T M^-1 W = ", val(det), " at q = ", q_text(values(q)),
          "); give a tangential coordinate independent of the gap");
    }
    out.lambda_N = S((r_N * G_TT - G_NT * r_T) / det);  // [LB] (2.9), equality branch
    out.lambda_T = S((G_NN * r_T - G_TN * r_N) / det);
    for (int k = 0; k < n; ++k)
      out.qdd[k] = S(out.qdd[k] + Mn[k] * out.lambda_N + Mt[k] * out.lambda_T);
    out.B = G_NN;
    return;
  }
  const double s = slip_sign(mode.kind);
  DofVector<S> u = kn.w;
  S mu(0.0);
  if (s != 0.0) {
    DofVector<S> wt;
    gradient(c.tangent, q, wt);
    mu = sliding_mu_at(c, wt, qd);
    for (int k = 0; k < n; ++k) u[k] = S(u[k] - mu * s * wt[k]);
  }
  const DofVector<S> Mu = M.solve(u);
  out.B = dot(kn.w, Mu);                                      // FORMULAS.md 11.1
  out.lambda_N = S(-(dot(kn.w, out.qdd) + kn.what) / out.B);  // 0 = gddot_N
  out.lambda_T = S(-mu * s * out.lambda_N);
  for (int k = 0; k < n; ++k) out.qdd[k] = S(out.qdd[k] + Mu[k] * out.lambda_N);
}

// B = w_N^T M^-1 (w_N - mu s w_T) of contact i at (q, qdot), mu = mu_k(|gdot_T|) (no h, no what
// needed); with `margin`, B - margin w_N^T M^-1 w_N (the Painleve guard's, contact_tolerances.hpp
// kJamMargin).
template <class S>
S sliding_coefficient(const LagrangianModel& m, int i, const DofVector<S>& q,
                      const DofVector<S>& qd, double s, double margin = 0.0) {
  SpdFactor<S> M;
  factor_mass(m, q, M);
  const LagrangianContact& c = m.contact(i);
  DofVector<S> wn, u;
  gradient(c.gap, q, wn);
  u = wn;
  if (margin != 0.0) u *= S(1.0 - margin);  // B - margin w_N^T M^-1 w_N
  if (s != 0.0 && c.tangent) {
    DofVector<S> wt;
    gradient(c.tangent, q, wt);
    const S mu = sliding_mu_at(c, wt, qd);
    for (Eigen::Index k = 0; k < u.size(); ++k) u[k] = S(u[k] - mu * s * wt[k]);
  }
  M.solve_in_place(u);
  return dot(wn, u);
}

}  // namespace saltus::mech::detail

#include "compliant_friction_dynamics.hpp"  // NOLINT: the definitions declared above
#include "index_set_dynamics.hpp"           // NOLINT: the definition declared above
#include "spatial_friction_dynamics.hpp"    // NOLINT: the definition declared above
#include "spatial_index_set_dynamics.hpp"   // NOLINT: the definition declared above
#include "spatial_rolling_dynamics.hpp"     // NOLINT: the definition declared above
