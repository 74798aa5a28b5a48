// Frictionless Newton impact of a Lagrangian system: the impact map P(q, e).
//
// Source: seed 000 eqs. (5.15)-(5.19); FORMULAS.md 4.1 (energy loss), 4.2 (bouncing rod),
// 4.3 / 12.1 (e = 1 equals Clark-Bloch Theorem 3 with metric M).
//   qdot+ = qdot- + M^-1 w_N Lambda                       (5.15, w_N a COLUMN here)
//   w_N^T qdot+ = -e w_N^T qdot-                          (5.16)
//   Lambda = -(1 + e) gdot_N- / (w_N^T M^-1 w_N)          (5.17)
//   P = I - (1 + e) M^-1 w_N w_N^T / (w_N^T M^-1 w_N)     (5.18),  qdot+ = P qdot-  (5.19)
//   T- - T+ = (1 - e^2) gdot_N-^2 / (2 w_N^T M^-1 w_N)
// Assumptions (seed 000): q, M and w_N frozen during the impact; impulsive force dominates.
//
// Symbol table (seed 000 -> code): W_c M_c^-1 W_c^T -> delassus, Lambda -> impulse,
// P(q_c, e) -> map, w_n -> w_N (column), e -> e.
#pragma once

#include <string>

#include "saltus/core/types.hpp"

namespace saltus::mech {

struct NewtonImpact {
  double delassus = kNaN;  // w_N^T M^-1 w_N (> 0)
  double impulse = kNaN;   // Lambda (> 0 for an approaching contact)
  Matrix map;              // P(q, e), n x n
  Vector qdot_plus;        // P qdot-
  double kinetic_energy_minus = kNaN;
  double kinetic_energy_plus = kNaN;
};

// Newton's restitution impulse along one normal, seed 000 (5.17): Lambda = -(1 + e) gdot_N- / D
// with D = w_N^T M^-1 w_N (the Delassus scalar; the naive law passes its effective mass along the
// sliding direction). The one formula of every Newton impact in mech.
inline double newton_impulse(double normal_velocity_minus, double delassus, double e) {
  return -(1.0 + e) * normal_velocity_minus / delassus;
}

// Throws saltus::Error naming `who` when M is not symmetric positive definite (value of the
// failing pivot), w_N vanishes, sizes disagree, or e is negative, not finite, or above 1 without
// `superelastic` (then T+ - T- = (e^2 - 1) gdot_N-^2 / (2 w_N^T M^-1 w_N) > 0: the contact adds
// energy, ContactImpactLaw::superelastic).
NewtonImpact newton_impact(ConstMatrixRef M, ConstVectorRef w_N, ConstVectorRef qdot_minus,
                           double e, const std::string& who = "newton_impact",
                           bool superelastic = false);

}  // namespace saltus::mech
