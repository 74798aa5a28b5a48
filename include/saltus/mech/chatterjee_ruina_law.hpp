// Chatterjee-Ruina algebraic impact law (FORMULAS.md 8; Chatterjee & Ruina 1998,
// J. Appl. Mech. 65:939; seed 002 "detailed algebraic impact law").
//
// Two reference impulses:
//   P_f = (0, -v_n- / A_nn)   frictionless plastic: v_n+ = 0, no tangential impulse,
//   P_s = -A^-1 v-            plastic sticking: v+ = 0.
// Candidate P^ = (1 + e) P_f + (1 + e_t)(P_s - P_f): v_n+ = -e v_n- always, v_t+ = -e_t v_t-
// only when A_tn = 0. If |P^_t| <= mu P^_n the candidate is the impulse (kappa = 1 + e_t);
// otherwise it is projected along P_s - P_f onto the cone edge:
//   P = (1 + e) P_f + kappa (P_s - P_f),  kappa = mu (1 + e) P_f,n / (|P_s,t| - mu (P_s,n -
//   P_f,n)).
// Energy: Delta T <= 0 for e in [0, 1], e_t in [-1, 1] (the impulse lies in the A-norm ellipse
// centred at P_s through the origin; FORMULAS.md 8 [derived]; checked over 10^5 random impacts
// in tests/mech/impact_energy_sweep_test.cpp).
//
// Symbol table: P_f -> P_frictionless, P_s -> P_stick, P^ -> P_candidate, kappa -> kappa;
// others as in impact_law.hpp.
#pragma once

#include "saltus/mech/impact_law.hpp"

namespace saltus::mech {

PlanarImpactResult chatterjee_ruina_impact(const PlanarImpactInput& input, double e, double e_t,
                                           double mu);

}  // namespace saltus::mech
