// One contact under the Newton-Coulomb law; see include/saltus/mech/newton_coulomb_law.hpp.
#include "saltus/mech/newton_coulomb_law.hpp"

#include <Eigen/LU>

#include "saltus/core/error.hpp"
#include "saltus/mech/impact_problem.hpp"

namespace saltus::mech {

PlanarImpactResult newton_coulomb_impact(const PlanarImpactInput& input, double e, double e_t,
                                         double mu, bool superelastic) {
  PlanarImpactResult r;
  r.v_plus = input.v_minus;
  if (!(input.v_minus[1] < 0.0)) return r;  // not approaching: no impulse
  // Contact coordinates: the velocities are (v_t, v_n), M^-1 = A and W = I, so that
  // W^T M^-1 W = A is the collision matrix and qdot+ = v+.
  ImpactProblem p;
  p.mass = input.A.inverse();
  p.mass = 0.5 * (p.mass + p.mass.transpose()).eval();
  p.qdot_minus = input.v_minus;
  PlanarContacts& c = p.contacts;
  c.W_N = Matrix::Zero(2, 1);
  c.W_N(1, 0) = 1.0;
  c.W_T = Matrix::Zero(2, 1);
  c.W_T(0, 0) = 1.0;
  c.g_N = c.w_hat_N = c.w_hat_T = Vector::Zero(1);
  c.mu = Vector::Constant(1, mu);
  c.gdot_N = Vector::Constant(1, newton_restitution_rate(input.v_minus[1], e));
  c.gdot_T = Vector::Constant(1, tangential_restitution_rate(input.v_minus[0], e_t));
  p.sets.I_S = {0};
  const ContactOutcome outcome = solve_impact(p);
  if (!outcome.can_continue()) {
    r.status = ImpactStatus::Jam;
    r.message = saltus::detail::text("Newton-Coulomb law (e = ", e, ", e_t = ", e_t, ", mu = ", mu,
                                     "): ", outcome.message);
    return r;
  }
  const ContactSolution& sol = *outcome.selected_solution();
  r.impulse = {sol.lambda_T[0], sol.lambda_N[0]};
  r.v_plus = input.v_minus + input.A * r.impulse;
  r.dT = impact_energy_change(input.A, input.v_minus, r.impulse);
  // The kinetic energy the contact's velocities carry (<= the body's), so the test is strict.
  const double T_minus = 0.5 * input.v_minus.dot(p.mass * input.v_minus);
  if (!superelastic && r.dT > 1e-12 * T_minus) {
    r.status = ImpactStatus::Jam;
    r.message = saltus::detail::text(
        "Newton-Coulomb law (e = ", e, ", e_t = ", e_t, ", mu = ", mu,
        "): the impulses (P_t, P_n) = (", r.impulse[0], ", ", r.impulse[1],
        ") gain kinetic energy (", r.dT, " on ", T_minus,
        "): with e_t != e the law is not dissipative for every body (Kane's example); e_t = e "
        "always dissipates");
  }
  return r;
}

}  // namespace saltus::mech
