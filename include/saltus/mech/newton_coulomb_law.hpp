// The Newton-Coulomb impact law of seed 001 ([LB] (2.14)-(2.18); Glocker's event-driven and
// Moreau-Jean schemes): per contact, Newton's restitution on the normal impulse and Coulomb's law
// on the tangential one, with Glocker's tangential restitution e_t, solved over every contact
// taking part as the certified impact LCP of impact_problem.hpp.
//
// Per contact, with xi = gdot(t+) + e gdot(t-) (normal: e, tangential: e_t):
//   0 <= xi_N  perp  Lambda_N >= 0,        Lambda_T in -mu Lambda_N Sign(xi_T).
// gdot(t+) = gdot(t-) + W^T M^-1 W Lambda, so xi is the impact LCP's post-impact rate with its
// constant term gdot(t-) replaced by (1 + e) gdot(t-): the same LCP, posed on scaled rates. A
// contact that separates (gdot_N(t-) > 0) keeps gdot_N(t-) unscaled (xi_N = gdot_N(t+)), so it
// takes impulse only when the others drive it into its surface.
//
// One contact hit alone is the same problem in contact coordinates (M^-1 = A, W = I), so the law
// is the same whether a contact is hit alone or with others
// (tests/mech/newton_coulomb_law_test.cpp). e_t = 0 (default): a sticking contact leaves with
// gdot_T(t+) = 0.
//
// Energy: with E = diag(e), T+ - T- = Lambda^T (I + E)^-1 xi - 1/2 Lambda^T (I - E)(I + E)^-1 A
// Lambda, whose first term is <= 0 by the contact laws; the second is <= 0 when all coefficients
// of the impact are equal (e_t = e, e.g. the completely inelastic e = e_t = 0) and can be positive
// otherwise (2.6 % of random rigid-body impacts with e_t = 0, e in [0, 1], mu in [0, 2]). An
// impact that would gain energy is a status, not a state: here for one contact, in
// multi_contact_impact.cpp for several.
#pragma once

#include "saltus/mech/impact_law.hpp"

namespace saltus::mech {

// The LCP's constant term of one rate: (1 + e) gdot(t-) for an approaching normal rate or any
// tangential rate, gdot(t-) itself for a separating normal rate.
inline double newton_restitution_rate(double gdot_minus, double e) {
  return gdot_minus < 0.0 ? (1.0 + e) * gdot_minus : gdot_minus;
}
inline double tangential_restitution_rate(double gdot_minus, double e_t) {
  return (1.0 + e_t) * gdot_minus;
}

// One planar contact in collision-matrix form. Status Jam with the LCP's verdict when the impact
// LCP has no solution or several solutions that move the contact differently, or when its
// solution gains kinetic energy (beyond 1e-12 of the contact's T-) and the contact is not
// super-elastic (ContactImpactLaw::superelastic: e may exceed 1 and the gain is the model's).
PlanarImpactResult newton_coulomb_impact(const PlanarImpactInput& input, double e, double e_t,
                                         double mu, bool superelastic = false);

}  // namespace saltus::mech
