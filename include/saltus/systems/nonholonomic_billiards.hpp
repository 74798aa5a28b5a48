// The three nonholonomic billiards of Clark & Bloch (seed 003, Sec. 8; FORMULAS.md 13) written
// through mech::NonholonomicModel as a user would: kinetic energy (M and its Coriolis forces h),
// constraint rows, walls. No hand reduction: the equations of motion and the impact maps are
// those the model derives.
//
// Table: the ellipse E = {x^2/A^2 + y^2/B^2 <= 1} (A, B: semi-axes; [CB] reuses a and L for them).
//   Chaplygin sleigh, q = (x, y, theta): (x, y) the blade, CoM a distance a ahead, half-length L;
//     walls "front" and "back": the ends (x, y) +- L (cos theta, sin theta) stay in E.
//   Rolling ball, q = (x, y, theta, phi, psi) (Euler angles, psi about the vertical, unit mass,
//     radius r, squared radius of gyration k2); wall "rim": the centre stays in E (the table's
//     edge is E's outer offset curve at distance r, the curve the centre's contact meets).
//     The Euler chart is singular at theta = 0, pi (M loses rank): start away from it.
//   Vertical rolling disk, q = (x, y, theta, phi) (theta rolling angle, phi heading, radius R);
//     walls "front" and "back": the rim points (x, y) +- R (cos phi, sin phi) stay in E.
#pragma once

#include <optional>

#include "saltus/core/types.hpp"
#include "saltus/mech/nonholonomic_model.hpp"

namespace saltus::systems {

struct EllipticTable {
  double A = 2.0;  // semi-axis along x
  double B = 1.0;  // semi-axis along y
};

struct ChaplyginSleigh {
  double m = 1.0;  // mass
  double I = 0.1;  // inertia about the centre of mass
  double a = 0.3;  // blade to centre of mass
  double L = 0.3;  // half-length (ends at +-L from the blade)
};

struct RollingBall {
  double k2 = 0.4;  // squared radius of gyration (2/5 r^2 for a uniform unit ball)
  double r = 1.0;   // radius
};

struct VerticalDisk {
  double m = 1.0;   // mass
  double R = 0.2;   // radius
  double I = 0.02;  // inertia about the axle
  double J = 0.01;  // inertia about a vertical diameter
};

// Models; with a table, its walls (restitution e for every wall: 1 is the paper's elastic map).
mech::NonholonomicModel chaplygin_sleigh(const ChaplyginSleigh& p,
                                         std::optional<EllipticTable> table = std::nullopt,
                                         double restitution = 1.0);
mech::NonholonomicModel rolling_ball(const RollingBall& p,
                                     std::optional<EllipticTable> table = std::nullopt,
                                     double restitution = 1.0);
mech::NonholonomicModel vertical_disk(const VerticalDisk& p,
                                      std::optional<EllipticTable> table = std::nullopt,
                                      double restitution = 1.0);

// States x = (q, qdot) from the reduced velocities (these satisfy the constraints exactly).
Vector sleigh_state(double x, double y, double theta, double v, double omega);
Vector rolling_ball_state(const RollingBall& p, double x, double y, double theta, double phi,
                          double psi, double theta_dot, double phi_dot, double psi_dot);
Vector vertical_disk_state(const VerticalDisk& p, double x, double y, double theta, double phi,
                           double theta_dot, double phi_dot);

// Reduced velocities back: sleigh (v, omega) = (xd cos th + yd sin th, thd); ball space angular
// velocity (FORMULAS.md 13.2).
double sleigh_speed(ConstVectorRef x);
Eigen::Vector3d rolling_ball_spin(ConstVectorRef x);

}  // namespace saltus::systems
