// Accelerations and forces of one rigid contact with Coulomb friction in space held closed
// (ClosedKind::SpatialSlip, SpatialStick), generic in the scalar; internal to src/mech and
// included by contact_dynamics.hpp, whose mode_dynamics() calls spatial_closed_dynamics().
//
// Sources: [LB] (2.9)-(2.10) (seed 001) with the scalar tangent replaced by two tangent rows;
// FORMULAS.md 10.3 (what), 11.1 (B). The contact's slip velocity along two orthonormal tangent
// directions is gamma = W_T^T qdot, W_T = [eta_1^T eta_2^T] (n x 2, LagrangianContact::slip),
// and d/dt gamma = W_T^T qddot + what_T with what_T,k = ((d eta_k / dq) qdot) . qdot (eta_k
// along q + s qdot as a jet: d1 = (d eta_k / dq) qdot).
//   a = M^-1 h
//   stick: W = [w_N W_T] (n x 3), G = W^T M^-1 W, G lambda = -(W^T a + (what_N, what_T)),
//          qddot = a + M^-1 W lambda, lambda = (lambda_N, lambda_T1, lambda_T2)
//   slip:  d = gamma / |gamma|, u = w_N - mu W_T d, B = w_N^T M^-1 u,
//          lambda_N = -(w_N^T a + what_N) / B, qddot = a + M^-1 u lambda_N,
//          (lambda_T1, lambda_T2) = -mu lambda_N d
// The slip direction at rest: where |gamma| is within kSlipRestFraction of the terms that sum to
// it (sum_j (|eta_1,j| + |eta_2,j|) |qdot_j|: round-off of a contact that has just stopped or is
// about to start), d = -lambda_T / |lambda_T| of the stick forces. Slip starts there when the stick
// force reaches the cone's edge, and this d keeps the friction force continuous. Unlike the
// planar case, the direction cannot be part of the mode, so the flow takes it from the state.
// Drilling friction (LagrangianContact::slip_rows() == 3) adds eta_3 = l d(w . n)/dqdot as a third
// row of W_T: gamma, d and lambda_T have three entries, the same formulas hold (stick: n x 4).
#pragma once

#include <array>
#include <cmath>

#include "saltus/core/error.hpp"

namespace saltus::mech::detail {

// |gamma| at or below this fraction of its terms is round-off: the contact is at rest.
inline constexpr double kSlipRestFraction = 1e-13;
// Below this fraction of its terms the slip direction enters the Jacobian (ChunkDual, Dual) as a
// constant. Its derivative, (I - d d^T) / |gamma|, grows without bound as the slip stops, and
// the variational equations (sensitivities, Radau5's Newton matrix) would need steps as short as
// the time left to the stick event (step-size underflow at the event). A transverse perturbation
// of gamma decays like |gamma| as the slip stops, so freezing d over the last 1e-6 of the slip
// changes a sensitivity by about 1e-6 of itself; the values are untouched.
inline constexpr double kFrozenDirectionFraction = 1e-6;

// The most slip rows a contact has (two tangent directions, and the drilling row).
inline constexpr int kMaxSlipRows = 3;

template <class S>
struct SlipKinematics {
  int rows = 2;                                 // LagrangianContact::slip_rows()
  std::array<DofVector<S>, kMaxSlipRows> w;     // eta_k^T
  std::array<S, kMaxSlipRows> gamma{}, what{};  // 0 beyond rows
  double terms = 0.0;  // sum_j sum_k |eta_k,j| |qdot_j| (the scale of gamma's round-off)
  S speed2() const {
    S out(0.0);
    for (int k = 0; k < rows; ++k) out = S(out + gamma[k] * gamma[k]);
    return out;
  }
};

// The multipliers of a single closed contact's slip rows (lambda_T, lambda_T2, lambda_T3).
template <class S>
std::array<S, kMaxSlipRows> slip_forces(const DynamicsT<S>& d) {
  return {d.lambda_T, d.lambda_T2, d.lambda_T3};
}
template <class S>
void set_slip_forces(const std::array<S, kMaxSlipRows>& f, DynamicsT<S>& d) {
  d.lambda_T = f[0];
  d.lambda_T2 = f[1];
  d.lambda_T3 = f[2];
}

// gamma_r = rows[r](q) qd and their offsets what_r for `count` velocity rows (the slip rows, or
// the rolling rows of rolling resistance).
template <class S>
void row_kinematics(const ConstraintRow* rows, int count, const DofVector<S>& q,
                    const DofVector<S>& qd, SlipKinematics<S>& out) {
  const Eigen::Index n = q.size();
  DofVector<SecondOrderJetTpl<S>> qj(n), row;
  for (Eigen::Index k = 0; k < n; ++k) qj[k] = SecondOrderJetTpl<S>(q[k], qd[k], S(0.0));
  out.terms = 0.0;
  out.rows = count;
  for (size_t r = 0; r < kMaxSlipRows; ++r) {
    out.gamma[r] = out.what[r] = S(0.0);
    if (static_cast<int>(r) >= out.rows) continue;
    rows[r](qj, row);
    out.w[r].resize(n);
    S gamma(0.0), what(0.0);
    for (Eigen::Index k = 0; k < n; ++k) {
      out.w[r][k] = row[k].v;
      gamma = S(gamma + row[k].v * qd[k]);
      what = S(what + row[k].d1 * qd[k]);
      using std::abs;
      out.terms += abs(val(row[k].v)) * abs(val(qd[k]));
    }
    out.gamma[r] = gamma;
    out.what[r] = what;
  }
}

template <class S>
void slip_kinematics(const LagrangianContact& c, const DofVector<S>& q, const DofVector<S>& qd,
                     SlipKinematics<S>& out) {
  row_kinematics(c.slip.data(), c.slip_rows(), q, qd, out);
}

// The rolling rows' kinematics of a contact with rolling resistance (omega_k = rho_k q').
template <class S>
void roll_kinematics(const LagrangianContact& c, const DofVector<S>& q, const DofVector<S>& qd,
                     SlipKinematics<S>& out) {
  row_kinematics(c.roll.data(), 2, q, qd, out);
}

// d = gamma / |gamma| while the rows move (true); false, d untouched, at rest (|gamma| within
// kSlipRestFraction of its terms). Near rest the direction enters without its derivative (see
// kFrozenDirectionFraction).
template <class S>
bool direction_of_motion(const SlipKinematics<S>& kt, std::array<S, kMaxSlipRows>& d) {
  using std::sqrt;
  const S speed2 = kt.speed2();
  const double speed_value = sqrt(val(speed2));
  if (speed_value > kFrozenDirectionFraction * kt.terms) {
    const S speed = sqrt(speed2);
    for (int k = 0; k < kt.rows; ++k) d[k] = S(kt.gamma[k] / speed);
    return true;
  }
  if (speed_value > kSlipRestFraction * kt.terms) {
    for (int k = 0; k < kt.rows; ++k) d[k] = S(val(kt.gamma[k]) / speed_value);
    return true;
  }
  return false;
}

// Stick forces and accelerations; out.qdd holds a = M^-1 h on entry.
template <class S>
void spatial_stick(const LagrangianContact& c, const SpdFactor<S>& M, const Kinematics<S>& kn,
                   const SlipKinematics<S>& kt, const DofVector<S>& q, DynamicsT<S>& out) {
  const int n = static_cast<int>(kn.w.size()), m = 1 + kt.rows;
  std::array<DofVector<S>, 1 + kMaxSlipRows> W{kn.w, kt.w[0], kt.w[1], kt.w[2]}, MW;
  std::array<S, 1 + kMaxSlipRows> what{kn.what, kt.what[0], kt.what[1], kt.what[2]};
  for (int i = 0; i < m; ++i) MW[i] = M.solve(W[i]);
  SpdFactor<S> G;
  DofMatrix<S>& g = G.matrix();
  g.setConstant(m, m, S(0.0));  // set, not resized: GCC cannot see m >= 3 below
  DofVector<S> lambda = DofVector<S>::Constant(m, S(0.0));
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) g(i, j) = dot(W[i], MW[j]);
    lambda[i] = S(-(dot(W[i], out.qdd) + what[i]));
  }
  const S G_NN = g(0, 0);
  if (!G.compute_in_place()) {
    saltus::detail::throw_error(
        c.description, ": in the stick mode the normal and the two tangent directions are ",
        "dependent (W^T M^-1 W singular at q = ", q_text(values(q)),
        "): the contact point cannot be held at rest in every direction");
  }
  G.solve_in_place(lambda);  // [LB] (2.9), equality branch, 1 + rows rows
  for (int i = 0; i < m; ++i) {
    for (int k = 0; k < n; ++k) out.qdd[k] = S(out.qdd[k] + MW[i][k] * lambda[i]);
  }
  std::array<S, 1 + kMaxSlipRows> f{};
  for (int i = 0; i < m; ++i) f[static_cast<size_t>(i)] = lambda[i];
  out.lambda_N = f[0];
  set_slip_forces<S>({f[1], f[2], f[3]}, out);
  out.B = G_NN;
  out.normal_metric = G_NN;
  out.slip_speed = S(0.0);
}

// qd with contact c's slip velocity set to `slip` and its rolling rows' rates to `roll` (nullptr:
// kept), gdot_N kept: qd - M^-1 W G^-1 (0, gamma - slip, omega - roll), the smallest change in the
// kinetic metric (W = [w_N eta_k^T ... rho_k^T ...], the rolling rows only with rolling
// resistance; G = W^T M^-1 W). Generic, so the resets that apply it have derivatives by AD.
template <class S>
void set_contact_rates(const LagrangianModel& m, int ci, const DofVector<S>& q, DofVector<S>& qd,
                       const std::array<double, kMaxSlipRows>* slip,
                       const std::array<double, 2>* roll) {
  const LagrangianContact& c = m.contact(ci);
  const int slips = c.slip_rows(), rows = 1 + slips + (c.has_rolling_resistance() ? 2 : 0);
  std::array<DofVector<S>, 1 + kMaxSlipRows + 2> W, MW;
  gradient(c.gap, q, W[0]);
  for (int k = 0; k < slips; ++k) c.slip[static_cast<size_t>(k)](q, W[static_cast<size_t>(k + 1)]);
  for (int k = 1 + slips; k < rows; ++k) {
    c.roll[static_cast<size_t>(k - 1 - slips)](q, W[static_cast<size_t>(k)]);
  }
  SpdFactor<S> M;
  factor_mass(m, q, M);
  for (int i = 0; i < rows; ++i) MW[i] = M.solve(W[i]);
  SpdFactor<S> G;
  DofMatrix<S>& g = G.matrix();
  g.setConstant(rows, rows, S(0.0));
  DofVector<S> y = DofVector<S>::Constant(rows, S(0.0));
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < rows; ++j) g(i, j) = dot(W[i], MW[j]);
    if (i >= 1 && i <= slips && slip != nullptr) {
      y[i] = S(dot(W[i], qd) - (*slip)[static_cast<size_t>(i - 1)]);
    } else if (i > slips && roll != nullptr) {
      y[i] = S(dot(W[i], qd) - (*roll)[static_cast<size_t>(i - 1 - slips)]);
    }
  }
  if (!G.compute_in_place()) {
    saltus::detail::throw_error(
        c.description, ": the normal, the tangent ", rows > 1 + slips ? "and the rolling " : "",
        "directions are dependent (W^T M^-1 W singular at q = ", q_text(values(q)),
        "): the slip cannot be removed");
  }
  G.solve_in_place(y);
  for (int i = 0; i < rows; ++i) {
    for (Eigen::Index k = 0; k < qd.size(); ++k) qd[k] = S(qd[k] - MW[i][k] * y[i]);
  }
}

// qd with contact c's slip velocity set to `target` (default: removed), gdot_N and the rolling
// rates (with rolling resistance) kept.
template <class S>
void remove_slip(const LagrangianModel& m, int ci, const DofVector<S>& q, DofVector<S>& qd,
                 const std::array<double, kMaxSlipRows>& target = {}) {
  set_contact_rates(m, ci, q, qd, &target, nullptr);
}

// The sliding direction d of the header comment (unit; zero when at rest with no stick force).
template <class S>
std::array<S, kMaxSlipRows> slip_direction(const LagrangianContact& c, const SpdFactor<S>& M,
                                           const Kinematics<S>& kn, const SlipKinematics<S>& kt,
                                           const DofVector<S>& q, const DofVector<S>& a) {
  using std::sqrt;
  std::array<S, kMaxSlipRows> d{};
  if (direction_of_motion(kt, d)) return d;
  DynamicsT<S> stick;
  stick.qdd = a;
  spatial_stick(c, M, kn, kt, q, stick);
  const std::array<S, kMaxSlipRows> f = slip_forces(stick);
  S force2(0.0);
  for (int k = 0; k < kt.rows; ++k) force2 = S(force2 + f[k] * f[k]);
  if (!(val(force2) > 0.0)) return d;
  const S force = sqrt(force2);
  for (int k = 0; k < kt.rows; ++k) d[k] = S(-f[k] / force);
  return d;
}

// Defined in spatial_rolling_dynamics.hpp: the same contact with rolling resistance.
template <class S>
void spatial_rolling_dynamics(const LagrangianModel& m, const LagrangianMode& mode,
                              const SpdFactor<S>& M, const DofVector<S>& q, const DofVector<S>& qd,
                              DynamicsT<S>& out);

// qddot and forces of contact `ci` held closed, sliding (SpatialSlip) or sticking (SpatialStick);
// out.qdd holds a = M^-1 h on entry.
template <class S>
void spatial_closed_dynamics(const LagrangianModel& m, const LagrangianMode& mode,
                             const SpdFactor<S>& M, const DofVector<S>& q, const DofVector<S>& qd,
                             DynamicsT<S>& out) {
  const LagrangianContact& c = m.contact(mode.closed_contact);
  if (c.has_rolling_resistance()) {
    spatial_rolling_dynamics(m, mode, M, q, qd, out);
    return;
  }
  Kinematics<S> kn;
  kinematics(c.gap, q, qd, kn);
  SlipKinematics<S> kt;
  slip_kinematics(c, q, qd, kt);
  if (mode.kind == ClosedKind::SpatialStick) {
    spatial_stick(c, M, kn, kt, q, out);
    return;
  }
  const std::array<S, kMaxSlipRows> d = slip_direction(c, M, kn, kt, q, out.qdd);
  S speed(0.0);
  for (int k = 0; k < kt.rows; ++k) speed = S(speed + kt.gamma[k] * d[k]);
  const S mu = c.sliding_mu(S(val(speed) > 0.0 ? speed : S(0.0)));
  if (!(val(mu) >= 0.0)) {
    saltus::detail::throw_error(c.description, ": Stribeck curve mu_k(", val(speed),
                                ") = ", val(mu),
                                "; expected a sliding coefficient >= 0 at every slip speed");
  }
  const int n = m.dof();
  DofVector<S> u = kn.w;
  for (int r = 0; r < kt.rows; ++r) {
    for (int k = 0; k < n; ++k) u[k] = S(u[k] - mu * kt.w[r][k] * d[r]);
  }
  const DofVector<S> Mu = M.solve(u), Mn = M.solve(kn.w);
  out.B = dot(kn.w, Mu);  // FORMULAS.md 11.1 with s w_T -> W_T d
  out.normal_metric = dot(kn.w, Mn);
  out.lambda_N = S(-(dot(kn.w, out.qdd) + kn.what) / out.B);
  out.lambda_T = S(-mu * out.lambda_N * d[0]);
  out.lambda_T2 = S(-mu * out.lambda_N * d[1]);
  out.lambda_T3 = S(-mu * out.lambda_N * d[2]);
  out.slip_speed = speed;
  for (int k = 0; k < n; ++k) out.qdd[k] = S(out.qdd[k] + Mu[k] * out.lambda_N);
}

}  // namespace saltus::mech::detail
