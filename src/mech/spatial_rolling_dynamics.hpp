// Accelerations and forces of one rigid contact in space with Coulomb friction and rolling
// resistance held closed (ClosedKind::SpatialSlip, SpatialStick with
// LagrangianMode::roll_rest_set), generic in the scalar; internal to src/mech, included by
// contact_dynamics.hpp.
//
// Rows: the normal w_N, the slip rows eta_k (2, or 3 with drilling; spatial_friction_dynamics.hpp)
// and the rolling rows rho_1, rho_2 (rho_k q' = mu_r omega_k, omega_k = (R w) . t_k the body's
// angular velocity about the tangent t_k). The slip and the rolling each have a state of their
// own: held (their rows kept at zero, their multipliers unknowns: stick, rest), or moving along
// their direction (d = gamma / |gamma|, d_R = omega / |omega|) with the force at their cone's
// edge: friction -mu lambda_N d, rolling torque over mu_r -lambda_N d_R (the rolling cone
// |f_R| <= lambda_N; mu_r is in the rows). A moving part folds into the normal's column,
//   u = w_N - mu W_T d (slip moving) - R d_R (rolling moving),
// and with H the held rows, g = H^T M^-1 w_N, v = H^T M^-1 u, G = H^T M^-1 H (SPD),
// b_N = w_N^T a + what_N, b_H = H^T a + what_H (a = M^-1 h):
//   B = w_N^T M^-1 u - g^T G^-1 v        (the coefficient of lambda_N in gddot_N, H held)
//   lambda_N = -(b_N - g^T G^-1 b_H) / B,   f_H = -G^-1 (b_H + v lambda_N)
//   qddot = a + M^-1 (u lambda_N + H f_H)
// normal_metric is B with u = w_N (positive); B / normal_metric reaches zero where the folded
// forces make the contact problem singular (Painleve), which the painleve guard watches.
// A part that the mode moves but that is at rest (within kSlipRestFraction of its terms: it has
// just stopped or is about to start) takes its direction from the forces that would hold it: the
// problem with every part at rest held, d = -f_T / |f_T|, d_R = -f_R / |f_R|. The rolling cone is
// its own: sharing the slip's (one ellipsoid) would let a ball rolling without slip carry its
// rolling torque with no tangential force, and it would skid.
#pragma once

#include <array>
#include <cmath>

#include "saltus/core/error.hpp"

namespace saltus::mech::detail {

// The most held rows besides the normal: the slip rows and the two rolling rows.
inline constexpr int kMaxHeldRows = kMaxSlipRows + 2;

// The contact problem of the header comment with the slip held or moving along d, the rolling held
// or moving along d_R; out.qdd holds a on entry. Writes qdd, lambda_N, the slip and rolling
// forces, B and normal_metric.
template <class S>
void solve_rolling_contact(const LagrangianContact& c, const SpdFactor<S>& M,
                           const Kinematics<S>& kn, const SlipKinematics<S>& kt,
                           const SlipKinematics<S>& kr, bool slip_held, bool roll_held, const S& mu,
                           const std::array<S, kMaxSlipRows>& d,
                           const std::array<S, kMaxSlipRows>& dR, const DofVector<S>& q,
                           DynamicsT<S>& out) {
  const int n = static_cast<int>(kn.w.size());
  DofVector<S> u = kn.w;
  std::array<DofVector<S>, kMaxHeldRows> H;
  std::array<S, kMaxHeldRows> what{};
  int h = 0;
  for (int r = 0; r < kt.rows; ++r) {
    if (slip_held) {
      H[h] = kt.w[r];
      what[h++] = kt.what[r];
    } else {
      for (int k = 0; k < n; ++k) u[k] = S(u[k] - mu * kt.w[r][k] * d[r]);
    }
  }
  for (int r = 0; r < kr.rows; ++r) {
    if (roll_held) {
      H[h] = kr.w[r];
      what[h++] = kr.what[r];
    } else {
      for (int k = 0; k < n; ++k) u[k] = S(u[k] - kr.w[r][k] * dR[r]);
    }
  }
  const DofVector<S> Mu = M.solve(u), Mn = M.solve(kn.w);
  std::array<DofVector<S>, kMaxHeldRows> MH;
  S B = dot(kn.w, Mu), metric = dot(kn.w, Mn), b_N = S(dot(kn.w, out.qdd) + kn.what);
  DofVector<S> g, v, b_H, Gg, Gb;
  if (h > 0) {
    SpdFactor<S> G;
    DofMatrix<S>& gm = G.matrix();
    gm.setConstant(h, h, S(0.0));
    g = v = b_H = DofVector<S>::Constant(h, S(0.0));
    for (int i = 0; i < h; ++i) MH[i] = M.solve(H[i]);
    for (int i = 0; i < h; ++i) {
      for (int j = 0; j < h; ++j) gm(i, j) = dot(H[i], MH[j]);
      g[i] = dot(H[i], Mn);
      v[i] = dot(H[i], Mu);
      b_H[i] = S(dot(H[i], out.qdd) + what[i]);
    }
    if (!G.compute_in_place()) {
      saltus::detail::throw_error(
          c.description, ": the held slip and rolling rows are dependent (H^T M^-1 H singular at ",
          "q = ", q_text(values(q)), "): the contact cannot hold them at rest together");
    }
    Gg = G.solve(g);
    Gb = G.solve(b_H);
    B = S(B - dot(Gg, v));
    metric = S(metric - dot(Gg, g));
    b_N = S(b_N - dot(Gg, b_H));
    out.lambda_N = S(-b_N / B);
    DofVector<S> rhs = DofVector<S>::Constant(h, S(0.0));
    for (int i = 0; i < h; ++i) rhs[i] = S(-(b_H[i] + v[i] * out.lambda_N));
    G.solve_in_place(rhs);
    for (int i = 0; i < h; ++i) {
      for (int k = 0; k < n; ++k) out.qdd[k] = S(out.qdd[k] + MH[i][k] * rhs[i]);
    }
    g = rhs;  // f_H from here on
  } else {
    out.lambda_N = S(-b_N / B);
  }
  for (int k = 0; k < n; ++k) out.qdd[k] = S(out.qdd[k] + Mu[k] * out.lambda_N);
  std::array<S, kMaxSlipRows> f{}, fR{};
  int next = 0;
  for (int r = 0; r < kt.rows; ++r) f[r] = slip_held ? g[next++] : S(-mu * out.lambda_N * d[r]);
  for (int r = 0; r < kr.rows; ++r) fR[r] = roll_held ? g[next++] : S(-out.lambda_N * dR[r]);
  set_slip_forces<S>(f, out);
  out.lambda_R1 = fR[0];
  out.lambda_R2 = fR[1];
  out.B = B;
  out.normal_metric = metric;
}

// The unit direction opposite a force's first `rows` entries (zero for a zero force).
template <class S>
std::array<S, kMaxSlipRows> against(const std::array<S, kMaxSlipRows>& f, int rows) {
  using std::sqrt;
  std::array<S, kMaxSlipRows> d{};
  S norm2(0.0);
  for (int k = 0; k < rows; ++k) norm2 = S(norm2 + f[k] * f[k]);
  if (!(val(norm2) > 0.0)) return d;
  const S norm = sqrt(norm2);
  for (int k = 0; k < rows; ++k) d[k] = S(-f[k] / norm);
  return d;
}

template <class S>
void spatial_rolling_dynamics(const LagrangianModel& m, const LagrangianMode& mode,
                              const SpdFactor<S>& M, const DofVector<S>& q, const DofVector<S>& qd,
                              DynamicsT<S>& out) {
  const LagrangianContact& c = m.contact(mode.closed_contact);
  Kinematics<S> kn;
  kinematics(c.gap, q, qd, kn);
  SlipKinematics<S> kt, kr;
  slip_kinematics(c, q, qd, kt);
  roll_kinematics(c, q, qd, kr);
  const bool slip_held = mode.kind == ClosedKind::SpatialStick, roll_held = mode.rolling_held();
  std::array<S, kMaxSlipRows> d{}, dR{};
  const bool slip_moves = !slip_held && direction_of_motion(kt, d);
  const bool roll_moves = !roll_held && direction_of_motion(kr, dR);
  S speed(0.0), roll_speed(0.0);
  for (int k = 0; k < kt.rows; ++k) speed = S(speed + kt.gamma[k] * d[k]);
  for (int k = 0; k < kr.rows; ++k) roll_speed = S(roll_speed + kr.gamma[k] * dR[k]);
  const S mu = c.sliding_mu(S(val(speed) > 0.0 ? speed : S(0.0)));
  if (!(val(mu) >= 0.0)) {
    saltus::detail::throw_error(c.description, ": Stribeck curve mu_k(", val(speed),
                                ") = ", val(mu),
                                "; expected a sliding coefficient >= 0 at every slip speed");
  }
  if ((!slip_held && !slip_moves) || (!roll_held && !roll_moves)) {
    // A part the mode moves is at rest: its direction from the forces that would hold it.
    DynamicsT<S> rest;
    rest.qdd = out.qdd;
    solve_rolling_contact(c, M, kn, kt, kr, !slip_moves, !roll_moves, mu, d, dR, q, rest);
    if (!slip_held && !slip_moves) d = against(slip_forces(rest), kt.rows);
    if (!roll_held && !roll_moves) dR = against<S>({rest.lambda_R1, rest.lambda_R2, S(0.0)}, 2);
  }
  solve_rolling_contact(c, M, kn, kt, kr, slip_held, roll_held, mu, d, dR, q, out);
  out.slip_speed = slip_held ? S(0.0) : speed;
  out.roll_speed = roll_held ? S(0.0) : roll_speed;
}

}  // namespace saltus::mech::detail
