// The naive frictional impact law (FORMULAS.md 6.3; seed 002 "naive impact law with friction").
//
// Newton restitution in the normal direction and a tangential impulse on the cone edge opposite
// the INITIAL slip: P_t = -mu s P_n, s = sign(v_t-). For a point mass (A = I/m) this is
// P_n = -m (1 + e) v_n-; for a coupled collision matrix the normal equation
// v_n+ = v_n- + A_nt P_t + A_nn P_n = -e v_n- gives P_n = -(1 + e) v_n- / (A_nn - mu s A_tn).
// The law ignores that the slip may stop or reverse during the impact, so it can create kinetic
// energy: with e = 1, v_n- = -V, v_t- = eps V (particle), Delta T = 2 m mu V^2 (mu - eps) > 0
// for eps < mu. It is kept to demonstrate that gain. s = 0 (v_t- = 0) gives P_t = 0.
//
// Symbol table: see impact_law.hpp (A, v_minus, P, e, mu).
#pragma once

#include "saltus/mech/impact_law.hpp"

namespace saltus::mech {

// Status Jam when A_nn - mu s A_tn <= 0 (no positive normal impulse reaches v_n+ = -e v_n-).
PlanarImpactResult naive_impact(const PlanarImpactInput& input, double e, double mu);

}  // namespace saltus::mech
