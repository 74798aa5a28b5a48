// The impact map of a mechanical system with constraints linear in the velocities at a surface
// h(q) = 0 (Clark & Bloch, seed 003, Theorems 3 and 4 and eq. (9); FORMULAS.md 12.1-12.2).
//
// Kinetic energy T = 1/2 qdot^T M qdot, constraint rows eta^a (the rows of eta, k x n, k >= 0),
// wall differential dh (a row, passed as a vector). With
//   grad h = M^-1 dh^T,  W^a = M^-1 eta^a^T,  m^{ab} = eta^a(W^b),  (m_ab) = (m^{ab})^-1,
//   D = dh(grad h) - m_ab dh(W^a) dh(W^b)              (> 0: the impact is non-trivial),
//   S = m_ab dh(W^b) eta^a(qdot-)                      (0 on the constraint),
//   c = 1 + e  (e = 1: the elastic map of the paper),
// the map is the global version (9) of Theorem 4:
//   qdot+ = qdot- + lambda_a W^a + epsilon grad h,
//   epsilon = c (S - dh(qdot-)) / D,  lambda_a = -c m_ab dh(W^b) (S - dh(qdot-)) / D.
// On the constraint (S = 0) and e = 1 it is Theorem 4's map (7)-(8); with k = 0 it is Theorem 3,
// qdot+ = qdot- - 2 dh(qdot-)/dh(grad h) grad h, the Newton map P(q, 1) of FORMULAS.md 4.
// Properties (tested): every eta^a(qdot) is kept, dh(qdot+) = -e dh(qdot-) + c S, and for e = 1
// on the constraint the kinetic energy is kept. Restitution e in [0, 1) (replacing 2 by 1 + e) is
// saltus's extension, not in the paper: it scales the normal rebound and dissipates
// (1 - e^2) dh(qdot-)^2 / (2 D) of kinetic energy.
#pragma once

#include <functional>
#include <string>

#include "saltus/core/types.hpp"

namespace saltus::mech {

struct NonholonomicImpact {
  Vector qdot_plus;
  double epsilon = kNaN;        // coefficient of grad h
  Vector lambda;                // coefficients of W^a (one per constraint row)
  double denominator = kNaN;    // D
  double S = kNaN;              // m_ab dh(W^b) eta^a(qdot-)
  double dh_minus = kNaN;       // dh(qdot-)
  double dh_plus = kNaN;        // dh(qdot+)
  double energy_change = kNaN;  // T+ - T-
};

// The map above. `where` prefixes error messages (e.g. "model 'sleigh', wall 'front'").
// Throws saltus::Error when M is not SPD, the constraint rows are dependent (m^{ab} singular:
// smallest eigenvalue <= 1e-12 of the largest), or D <= 1e-12 dh(grad h) (the wall's normal is
// annihilated by the constraints: no impulse can reverse dh(qdot)); restitution outside [0, 1].
NonholonomicImpact nonholonomic_impact(ConstMatrixRef M, ConstVectorRef dh, ConstMatrixRef eta,
                                       ConstVectorRef qdot_minus, double restitution = 1.0,
                                       const std::string& where = "impact map");
// The same map, with the prefix made only when a message is thrown (the event path of a
// compiled model: no string per impact).
NonholonomicImpact nonholonomic_impact(ConstMatrixRef M, ConstVectorRef dh, ConstMatrixRef eta,
                                       ConstVectorRef qdot_minus, double restitution,
                                       const std::function<std::string()>& where);

// Sizes up to which the work matrices of the map live on the stack (larger: on the heap).
inline constexpr int kMaxImpactSize = 16;

}  // namespace saltus::mech
