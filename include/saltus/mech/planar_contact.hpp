// Planar unilateral contacts with Coulomb friction: contact directions, index sets.
//
// Source: [LB] Sec. 2, eqs. (2.1) (index sets), (2.3)-(2.4) (force directions, contact
// velocities and accelerations); FORMULAS.md sections 0 (planar frame), 10.1-10.2.
//
// Convention (stated once, used by every file of saltus::mech): W_N and W_T are COLUMN
// matrices as in [LB] (2.3): n x n_c, column i is the generalized force direction of contact
// i, so M qddot = h + W_N lambda_N + W_T lambda_T and the Delassus matrix is W^T M^-1 W.
// (Seed 000 writes one contact's W as a row; its row is our column transposed.)
//
// Contact velocities and accelerations ([LB] (2.4), with FORMULAS.md 10.2's correction):
//   gdot  = W^T qdot  + wtilde,     gddot = W^T qddot + what,
//   what  = d(W^T)/dt qdot + d(wtilde)/dt   (the seed writes wtilde in both places).
// For a planar rigid body q = (x_G, y_G, theta) on a fixed flat ground (t = +x, n = +y),
// contact point offset r = (r_t, r_n) from the centre of mass (FORMULAS.md section 0):
//   w_N = (0, 1, r_t),  w_T = (1, 0, -r_n),  what_N = -thetadot^2 r_n,  what_T = -thetadot^2 r_t.
//
// Symbol table ([LB] -> code):
//   W_N, W_T          -> PlanarContacts::W_N, W_T (n x n_c)
//   g_N               -> g_N;  gdot_N, gdot_T -> gdot_N, gdot_T (before the event)
//   what_N, what_T    -> w_hat_N, w_hat_T (acceleration offsets)
//   mu_i              -> mu(i)
//   I_S, I_N, I_H     -> ContactIndexSets::I_S, I_N, I_H (sorted contact indices)
#pragma once

#include <Eigen/Core>
#include <vector>

#include "saltus/core/types.hpp"

namespace saltus::mech {

// Geometry and kinematics of n_c contacts of a system with n generalized coordinates at one
// instant. All vectors have size n_c.
struct PlanarContacts {
  Matrix W_N;      // n x n_c, normal force directions (columns)
  Matrix W_T;      // n x n_c, tangential force directions (columns)
  Vector g_N;      // normal gaps, >= 0 (0: touching)
  Vector gdot_N;   // normal contact velocities W_N^T qdot + wtilde_N
  Vector gdot_T;   // tangential contact velocities W_T^T qdot + wtilde_T
  Vector w_hat_N;  // acceleration offsets what_N (FORMULAS.md 10.2)
  Vector w_hat_T;  // acceleration offsets what_T
  Vector mu;       // Coulomb friction coefficients, >= 0

  int size() const { return static_cast<int>(W_N.cols()); }
};

// Throws saltus::Error when sizes disagree with each other or with n_dof, an entry is not
// finite, or a friction coefficient is negative; `who` names the caller.
void validate(const PlanarContacts& contacts, int n_dof, const char* who);

// The index sets of [LB] (2.1); each holds sorted contact indices, I_H in I_N in I_S.
struct ContactIndexSets {
  std::vector<int> I_S;  // g_N = 0 (touching)
  std::vector<int> I_N;  // touching and gdot_N = 0 (closed: sliding or sticking)
  std::vector<int> I_H;  // closed and gdot_T = 0 (sticking candidates)
};

// Throws saltus::Error when an index is outside [0, n_c), a set is not sorted and free of
// repeats, or the sets are not nested (I_H in I_N in I_S).
void validate(const ContactIndexSets& sets, int n_c, const char* who);

// When a gap or a contact velocity counts as zero for (2.1): absolute, in the contacts' own units
// (a length, a speed). The defaults count only exact zeros, so the sets do not depend on the
// units; a caller whose gaps or velocities carry round-off gives its own levels in its units.
struct IndexSetTolerances {
  double gap = 0.0;       // |g_N| <= gap
  double velocity = 0.0;  // |gdot_N|, |gdot_T| <= velocity
};

// Computes I_S, I_N, I_H from g_N, gdot_N, gdot_T by [LB] (2.1).
ContactIndexSets compute_index_sets(const PlanarContacts& contacts,
                                    const IndexSetTolerances& tolerances = {});

// Planar rigid body q = (x_G, y_G, theta): the columns w_N, w_T of one contact point with offset
// r = (r_t, r_n) from the centre of mass (see the file comment).
inline Eigen::Vector3d rigid_body_normal_direction(double r_t) {
  return {0.0, 1.0, r_t};
}
inline Eigen::Vector3d rigid_body_tangent_direction(double r_n) {
  return {1.0, 0.0, -r_n};
}

// Contacts of a planar rigid body touching a flat ground at the points with offsets
// `offsets[i] = (r_t, r_n)`, moving with qdot = (xdot_G, ydot_G, thetadot); gaps are zero,
// gdot = W^T qdot, what = -thetadot^2 r. `mu` has one entry per point.
PlanarContacts rigid_body_ground_contacts(const std::vector<Eigen::Vector2d>& offsets,
                                          const Eigen::Vector3d& qdot, ConstVectorRef mu);

// Mass matrix diag(m, m, m rho^2) of a planar rigid body (rho: radius of gyration about G).
Eigen::Matrix3d rigid_body_mass_matrix(double m, double rho2);

}  // namespace saltus::mech
