// Newton's impact law with Coulomb's friction cone at one contact in space: seed 001 (2.14)-(2.18)
// (Newton's normal restitution e, Glocker's tangential restitution e_t, Coulomb's law) with the
// tangential impulse a vector of the tangent plane, |P_T| <= mu P_N, instead of a scalar. For a
// single contact this is the planar NewtonCoulomb law of newton_coulomb_law.hpp when the motion
// stays in one tangent direction.
//
// Contact velocities v = (v_N, v_T1, v_T2) = W^T qdot, W = [w_N, eta_1^T, eta_2^T], impulse P on
// the body along the same rows, v+ = v- + A P with A = W^T M^-1 W (3 x 3, SPD). With the contact
// approaching (v_N- < 0) the law asks P_N > 0, v_N+ = -e v_N-, and with xi_T = v_T+ + e_t v_T-:
//   stick  xi_T = 0 and |P_T| <= mu P_N
//   slip   P_T = -mu P_N d, d = xi_T / |xi_T| (the impulse opposes the post-impact slip)
// Stick is one linear solve. Slip has two unknowns, P_N and the direction's angle th:
// P_N(th) = -(1 + e) v_N- / (A_NN - mu A_NT d), and xi_T(th) must be parallel to d with a
// positive factor; the cross product xi_T x d is scanned over kDirections angles and its sign
// changes refined by bisection. The law has no answer or several for a coupled A at large mu (as
// the planar law has): both are reported as ImpactStatus::Jam with a message that says which,
// never a choice made silently. Without coupling (a sphere: A_NT = 0) the answer is unique.
// Energy: with e_t = e the impulse never gains kinetic energy; a gain beyond 1e-12 of the contact
// velocities' energy is refused as the planar law refuses it (unless superelastic).
#pragma once

#include <Eigen/Core>
#include <string>

#include "saltus/mech/impact_law.hpp"

namespace saltus::mech {

struct SpatialImpactInput {
  Eigen::Matrix3d A = Eigen::Matrix3d::Identity();    // W^T M^-1 W, index 0 = normal
  Eigen::Vector3d v_minus = Eigen::Vector3d::Zero();  // (v_N-, v_T1-, v_T2-)
};

struct SpatialImpactResult {
  ImpactStatus status = ImpactStatus::Resolved;
  std::string message;                                // set when status != Resolved
  Eigen::Vector3d impulse = Eigen::Vector3d::Zero();  // (P_N, P_T1, P_T2)
  Eigen::Vector3d v_plus = Eigen::Vector3d::Zero();   // (v_N+, v_T1+, v_T2+)
  double dT = 0.0;                                    // T+ - T- = P . v- + 1/2 P^T A P
  bool sticks = false;                                // xi_T = 0 (the stick branch)
  bool resolved() const { return status == ImpactStatus::Resolved; }
};

// The law above (no impulse when v_N- >= 0). Allocates only for a message.
SpatialImpactResult spatial_newton_coulomb_impact(const SpatialImpactInput& input, double e,
                                                  double e_t, double mu, bool superelastic);

}  // namespace saltus::mech
