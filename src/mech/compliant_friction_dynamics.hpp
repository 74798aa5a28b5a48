// Coulomb friction of the active compliant contacts of a mode without a closed rigid contact,
// generic in the scalar (double for values, ChunkDual for Jacobians, Dual for guard gradients).
// Internal to src/mech; fixed-capacity buffers only (no allocation). Included by
// contact_dynamics.hpp.
//
// Sources: FORMULAS.md 3 (compliant normal force f(delta, deltadot)), [LB] (2.4)-(2.10) (seed
// 001: Coulomb's law, sliding force -mu s lambda_N, sticking force from gddot_T = 0) with the
// compliant force as the normal load, f+ = max(f, 0) [derived: a pulling compliant force carries
// no friction].
//   sliding j (s_j = +1 / -1):  F_j = -mu_j s_j f+_j                       (applied along w_T,j)
//   sticking set H:  G lambda_H = -(W_H^T a + what_H),  G = W_H^T M^-1 W_H,  W_H = [w_T,j]_{j in H}
//   with a = M^-1 (h_total + sum_sliding F_j w_T,j); qddot = a + M^-1 W_H lambda_H.
// Symbol table: F_j, lambda_H -> lambda_T_of[contact index]; f+ -> friction_load.
#pragma once

#include "contact_dynamics.hpp"

namespace saltus::mech::detail {

// The normal load of compliant contact c: f+ = max(f, 0).
template <class S>
S friction_load(const LagrangianContact& c, const DofVector<S>& q, const DofVector<S>& qd) {
  const S f = compliant_force(c, q, qd);
  return val(f) > 0.0 ? f : S(0.0);
}

// True when `mode` has an active compliant contact with friction.
inline bool has_compliant_friction(const LagrangianModel& m, const LagrangianMode& mode) {
  const std::vector<int>& compliant = m.compliant_contacts();
  for (size_t j = 0; j < compliant.size(); ++j) {
    if ((mode.compliant_mask >> j) & 1u) {
      if (m.contact(compliant[j]).compliant_frictional()) return true;
    }
  }
  return false;
}

template <class S>
void add_compliant_friction(const LagrangianModel& m, const LagrangianMode& mode,
                            const SpdFactor<S>& M, const DofVector<S>& q, const DofVector<S>& qd,
                            DynamicsT<S>& out) {
  const int n = m.dof();
  const std::vector<int>& compliant = m.compliant_contacts();
  out.lambda_T_of = DofVector<S>::Constant(m.contact_count(), S(0.0));
  DofVector<S> sliding = DofVector<S>::Constant(n, S(0.0));
  DofMatrix<S> W(n, 0);  // w_T of the sticking contacts, in compliant order
  DofVector<S> what(0);
  int stick_index[kMaxCompliantContacts] = {};
  int k = 0;
  for (size_t j = 0; j < compliant.size(); ++j) {
    const unsigned bit = 1u << j;
    const LagrangianContact& c = m.contact(compliant[j]);
    if (!(mode.compliant_mask & bit) || !c.compliant_frictional()) continue;
    Kinematics<S> kt;
    kinematics(c.tangent, q, qd, kt);
    if (mode.compliant_stick & bit) {
      W.conservativeResize(n, k + 1);
      what.conservativeResize(k + 1);
      W.col(k) = kt.w;
      what[k] = kt.what;
      stick_index[k++] = compliant[j];
      continue;
    }
    const double s = (mode.compliant_slip_negative & bit) ? -1.0 : 1.0;
    const S lambda_T = S(-c.compliant.mu * s * friction_load(c, q, qd));
    out.lambda_T_of[compliant[j]] = lambda_T;
    for (int i = 0; i < n; ++i) sliding[i] = S(sliding[i] + lambda_T * kt.w[i]);
  }
  M.solve_in_place(sliding);
  for (int i = 0; i < n; ++i) out.qdd[i] = S(out.qdd[i] + sliding[i]);
  if (k == 0) return;
  DofMatrix<S> MW(n, k), G(k, k);
  DofVector<S> r(k), col(n);
  for (int a = 0; a < k; ++a) {
    col = W.col(a);
    M.solve_in_place(col);
    MW.col(a) = col;
  }
  for (int a = 0; a < k; ++a) {
    r[a] = S(-what[a]);
    for (int i = 0; i < n; ++i) r[a] = S(r[a] - W(i, a) * out.qdd[i]);
    for (int b = 0; b < k; ++b) {
      S sum(0.0);
      for (int i = 0; i < n; ++i) sum = S(sum + W(i, a) * MW(i, b));
      G(a, b) = sum;
    }
  }
  SpdFactor<S> Gf;
  if (!Gf.compute(G)) {
    saltus::detail::throw_error(
        m.describe_contact(stick_index[0]), ": the tangential directions of the ", k,
        " sticking compliant contacts are dependent (W_T^T M^-1 W_T singular at q = ",
        q_text(values(q)), "); give independent tangential coordinates");
  }
  Gf.solve_in_place(r);  // lambda_H
  for (int a = 0; a < k; ++a) {
    out.lambda_T_of[stick_index[a]] = r[a];
    for (int i = 0; i < n; ++i) out.qdd[i] = S(out.qdd[i] + MW(i, a) * r[a]);
  }
}

}  // namespace saltus::mech::detail
