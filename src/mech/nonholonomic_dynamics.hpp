// Lagrange-d'Alembert accelerations of a NonholonomicModel with the multipliers eliminated
// exactly, generic in the scalar (double for values, ChunkDual for the AD Jacobians of the flow).
// Internal to src/mech; fixed-capacity buffers only.
//   a = M^-1 h,  W^a = M^-1 eta^a^T,  m^{ab} = eta^a W^b,
//   m lambda = -(eta a + etadot qdot),  qddot = a + W lambda   (FORMULAS.md 12.2 notation)
// etadot qdot: the row evaluated at q + s qdot as second-order jets gives (d eta/ds) in d1.
#pragma once

#include <string>

#include "contact_dynamics.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/nonholonomic_model.hpp"

namespace saltus::mech::detail {

template <class S>
struct NonholonomicDynamicsT {
  DofVector<S> qdd;
  DofVector<S> lambda;
};

// Rows eta^a(q) and rates (d/ds) eta^a(q + s qdot) of every constraint.
template <class S>
void constraint_rows(const NonholonomicModel& m, const DofVector<S>& q, const DofVector<S>& qd,
                     DofMatrix<S>& eta, DofMatrix<S>& eta_rate) {
  const int n = m.dof(), k = m.constraint_count();
  DofVector<SecondOrderJetTpl<S>> qj(n), row;
  for (int i = 0; i < n; ++i) qj[i] = SecondOrderJetTpl<S>(q[i], qd[i], S(0.0));
  eta.resize(k, n);
  eta_rate.resize(k, n);
  for (int a = 0; a < k; ++a) {
    m.constraint(a).row(qj, row);
    for (int i = 0; i < n; ++i) {
      eta(a, i) = row[i].v;
      eta_rate(a, i) = row[i].d1;
    }
  }
}

template <class S>
void nonholonomic_dynamics(const NonholonomicModel& m, const S& t, const DofVector<S>& q,
                           const DofVector<S>& qd, NonholonomicDynamicsT<S>& out) {
  const int n = m.dof(), k = m.constraint_count();
  const LagrangianModel& base = m.unconstrained();
  SpdFactor<S> M;
  factor_mass(base, q, M);
  DofVector<S> h(n);
  for (int i = 0; i < n; ++i) h[i] = S(0.0);
  base.eval_forces(t, q, qd, h);
  out.qdd = M.solve(h);
  out.lambda.resize(k);
  if (k == 0) return;
  DofMatrix<S> eta, eta_rate, W(n, k), m_up(k, k);
  constraint_rows(m, q, qd, eta, eta_rate);
  DofVector<S> col(n), rhs(k);
  for (int a = 0; a < k; ++a) {
    for (int i = 0; i < n; ++i) col[i] = eta(a, i);
    M.solve_in_place(col);
    for (int i = 0; i < n; ++i) W(i, a) = col[i];
  }
  for (int a = 0; a < k; ++a) {
    S r = S(0.0);
    for (int i = 0; i < n; ++i) r = S(r + eta(a, i) * out.qdd[i] + eta_rate(a, i) * qd[i]);
    rhs[a] = S(-r);
    for (int b = 0; b < k; ++b) {
      S s = S(0.0);
      for (int i = 0; i < n; ++i) s = S(s + eta(a, i) * W(i, b));
      m_up(a, b) = s;
    }
  }
  SpdFactor<S> G;
  if (!G.compute(m_up)) {
    saltus::detail::throw_error("model '", m.name(),
                                "': the constraint rows are dependent at q = ", q_text(values(q)),
                                " (eta M^-1 eta^T is singular)");
  }
  out.lambda = G.solve(rhs);
  for (int i = 0; i < n; ++i) {
    S acc = out.qdd[i];
    for (int a = 0; a < k; ++a) acc = S(acc + W(i, a) * out.lambda[a]);
    out.qdd[i] = acc;
  }
}

}  // namespace saltus::mech::detail
