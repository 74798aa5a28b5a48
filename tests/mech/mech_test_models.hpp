// Test models for tests/mech: the Painleve rod and box and the planar rigid body of
// FORMULAS.md sections 0, 10 and 11, built on saltus::mech (frame t = +x, n = +y,
// q = (x_G, y_G, theta), r = contact point minus centre of mass).
#pragma once

#include <cmath>
#include <vector>

#include "saltus/mech/contact_force_problem.hpp"
#include "saltus/mech/impact_problem.hpp"
#include "saltus/mech/planar_contact.hpp"

namespace saltus::mech::testing {

inline constexpr double kPi = 3.141592653589793238462643383279502884;

// One sliding contact of a planar rigid body at offset r with the contact point sliding in
// direction s (gdot_T = s), gdot_N = 0, angular velocity omega, gravity g, friction mu.
inline ContactForceProblem sliding_body_problem(double m, double rho2, double r_t, double r_n,
                                                double omega, double s, double mu, double g) {
  ContactForceProblem p;
  p.mass = rigid_body_mass_matrix(m, rho2);
  p.h = Eigen::Vector3d(0.0, -m * g, 0.0);
  // qdot with v_t = s, v_n = 0: xdot = s + r_n omega, ydot = -r_t omega.
  const Eigen::Vector3d qdot(s + r_n * omega, -r_t * omega, omega);
  p.contacts =
      rigid_body_ground_contacts({Eigen::Vector2d(r_t, r_n)}, qdot, Vector::Constant(1, mu));
  p.contacts.gdot_N.setZero();
  p.contacts.gdot_T(0) = s;
  p.sets.I_S = {0};
  p.sets.I_N = {0};
  return p;
}

// Classical Painleve rod (FORMULAS.md 11.2): CoM-to-tip l, J about the CoM, axis at theta above
// the ground, tip A = G + (-l cos th, -l sin th).
inline ContactForceProblem painleve_rod(double m, double l, double J, double g, double theta,
                                        double omega, double s, double mu) {
  return sliding_body_problem(m, J / m, -l * std::cos(theta), -l * std::sin(theta), omega, s, mu,
                              g);
}

// Rectangle of half-width a, half-height b resting on corners 1 r=(-a,-b) and 2 r=(a,-b).
inline ContactForceProblem box_two_corners(double m, double rho2, double a, double b, double mu,
                                           const Eigen::Vector3d& qdot, const Eigen::Vector3d& h) {
  ContactForceProblem p;
  p.mass = rigid_body_mass_matrix(m, rho2);
  p.h = h;
  p.contacts = rigid_body_ground_contacts({Eigen::Vector2d(-a, -b), Eigen::Vector2d(a, -b)}, qdot,
                                          Vector::Constant(2, mu));
  p.sets = compute_index_sets(p.contacts);
  return p;
}

}  // namespace saltus::mech::testing
