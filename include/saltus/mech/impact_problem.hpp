// Completely inelastic impact with Coulomb friction of a planar multi-contact system.
//
// Source: [LB] Sec. 2, eqs. (2.12)-(2.18) (impact equation, impulses, normal law (2.14),
// tangential law (2.15), LCP (2.17)-(2.18)); FORMULAS.md section 10.4 (incl. the one-contact
// closed form used to check it) and 11 (Painleve).
//
// Assumptions: every contact in I_S (g_N = 0) takes part, even one that was separating
// ([LB]: "a contact in I_S that was separating may still receive impulse"); all of them are
// treated with the full tangential law (2.15) (stick, slip+ or slip- after the impact) through
// the Glocker-Pfeiffer pairs of planar_coulomb_lcp.hpp. Completely inelastic: gdot_N(t+) = 0
// where Lambda_N > 0. M is symmetric positive definite. Certified by enumeration when
// 3 n_S <= options.enumeration.max_size, else Lemke with the verdict Uncertified.
//
// Symbol table ([LB] -> code):
//   M, qdot(t-), qdot(t+)          -> ImpactProblem::mass, qdot_minus, ContactSolution::motion
//   W_N, W_T                       -> contacts.W_N, W_T (column convention)
//   gdot_N(t-), gdot_T(t-)         -> contacts.gdot_N, gdot_T
//   gdot_N(t+), gdot_T(t+)         -> ContactSolution::rate_N, rate_T
//   Lambda_N, Lambda_T             -> ContactSolution::lambda_N, lambda_T
//   G_XY = W_X^T M^-1 W_Y          -> blocks of ContactOutcome::lcp_matrix
#pragma once

#include "saltus/core/types.hpp"
#include "saltus/mech/contact_verdict.hpp"
#include "saltus/mech/planar_contact.hpp"

namespace saltus::mech {

struct ImpactProblem {
  Matrix mass;              // M, n x n, symmetric positive definite
  Vector qdot_minus;        // n: velocity before the impact
  PlanarContacts contacts;  // gdot_N, gdot_T: contact velocities before the impact
  ContactIndexSets sets;    // I_S takes part; e.g. compute_index_sets(contacts)
  double time = kNaN;       // for messages only
};

// Solves (2.17)-(2.18): verdict, every solution (impulses, qdot(t+), modes), next index sets.
// Throws saltus::Error for bad input (sizes, non-finite entries, mu < 0, M not SPD, index sets
// out of range).
ContactOutcome solve_impact(const ImpactProblem& problem, const ContactSolveOptions& options = {});

}  // namespace saltus::mech
