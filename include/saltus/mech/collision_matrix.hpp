// Collision matrix of a planar single contact and the plastic sticking impulse.
//
// Sources: FORMULAS.md 7.1-7.4; seed 002 "Lagrangian formulation of impact with friction (2D)"
// and "fully-plastic impact law".
//
// W = [w_T w_N] is n x 2 (COLUMN convention of planar_contact.hpp), v = W^T qdot = (v_t, v_n),
// Delta qdot = M^-1 W P, Delta v = A P with A = W^T M^-1 W (SPD when W has full rank).
// Planar rigid body q = (x_G, y_G, theta), M = diag(m, m, m rho^2), contact offset r = (r_t, r_n):
//   A = (1/m) [[1 + r_n^2/rho^2, -r_t r_n/rho^2], [-r_t r_n/rho^2, 1 + r_t^2/rho^2]]   (7.2).
// Plastic sticking impulse (7.4): P = -A^-1 v-, v+ = 0, Delta T = -1/2 v-^T A^-1 v- (ignores the
// friction bound; inside_friction_cone reports |P_t| <= mu P_n).
//
// Symbol table: A -> collision_matrix(...), rho^2 -> rho2, r_t, r_n -> r_t, r_n.
#pragma once

#include <Eigen/Core>
#include <string>

#include "saltus/core/types.hpp"

namespace saltus::mech {

// A = W^T M^-1 W for W = [w_T w_N]. Throws saltus::Error naming `who` when M is not SPD or the
// sizes disagree.
Eigen::Matrix2d collision_matrix(ConstMatrixRef M, ConstVectorRef w_T, ConstVectorRef w_N,
                                 const std::string& who = "collision_matrix");

// The closed form (7.2) for a planar rigid body.
Eigen::Matrix2d rigid_body_collision_matrix(double m, double rho2, double r_t, double r_n);

struct PlasticStickingImpulse {
  Eigen::Vector2d impulse = Eigen::Vector2d::Zero();  // -A^-1 v-
  double dT = 0.0;                                    // -1/2 v-^T A^-1 v-
  bool inside_friction_cone = false;                  // |P_t| <= mu P_n
};

PlasticStickingImpulse plastic_sticking_impulse(const Eigen::Matrix2d& A,
                                                const Eigen::Vector2d& v_minus, double mu);

}  // namespace saltus::mech
