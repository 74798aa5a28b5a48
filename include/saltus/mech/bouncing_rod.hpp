// The bouncing rod of seed 000 as a LagrangianModel (FORMULAS.md 4.2).
//
// Rod of mass m, length 2 ell, inertia I_c about its centre; q = (x, y, theta) with (x, y) the
// contact end, centre of mass at (x + ell cos theta, y + ell sin theta); gravity g along -y.
//   M = [[m, 0, -m ell s], [0, m, m ell c], [-m ell s, m ell c, I_c + m ell^2]]   (s, c of theta)
//   T = 1/2 m [xd^2 + yd^2 + ell^2 thd^2 + 2 ell thd (yd c - xd s)] + 1/2 I_c thd^2,
//   V = m g (y + ell s)
//   h = -(Coriolis/centrifugal) - dV/dq = (m ell thd^2 c, m ell thd^2 s - m g, -m g ell c)
// Contact "tip": gap d(q) = y (w_N = (0, 1, 0)), tangential coordinate x. Default law:
// frictionless Newton restitution (seed 000); any ContactImpactLaw may be set.
#pragma once

#include <cmath>

#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech {

struct BouncingRodParameters {
  double m = 1.0;           // kg
  double I_c = 1.0 / 12.0;  // kg m^2 about the centre (uniform rod of length 1)
  double ell = 0.5;         // half-length, m
  double g = 9.81;          // m/s^2
  ContactImpactLaw law{ImpactLawKind::NewtonFrictionless, 0.8, 0.0, 0.0};
};

// M(q) and h(t, q, qdot) of the rod (above) on `model` (3 coordinates); contacts are the caller's.
inline void set_bouncing_rod_dynamics(LagrangianModel& model, const BouncingRodParameters& p) {
  const double m = p.m, I = p.I_c, l = p.ell, g = p.g;
  model.set_mass_matrix([m, I, l](const auto& q, auto& M) {
    using std::cos;
    using std::sin;
    const auto s = sin(q[2]), c = cos(q[2]);
    M(0, 0) = m;
    M(1, 1) = m;
    M(0, 2) = M(2, 0) = -m * l * s;
    M(1, 2) = M(2, 1) = m * l * c;
    M(2, 2) = I + m * l * l;
  });
  model.set_forces([m, l, g](const auto&, const auto& q, const auto& qd, auto& h) {
    using std::cos;
    using std::sin;
    const auto s = sin(q[2]), c = cos(q[2]);
    h[0] = m * l * qd[2] * qd[2] * c;
    h[1] = m * l * qd[2] * qd[2] * s - m * g;
    h[2] = -m * g * l * c;
  });
}

inline LagrangianModel bouncing_rod_model(const BouncingRodParameters& p) {
  LagrangianModel model("bouncing_rod", 3);
  set_bouncing_rod_dynamics(model, p);
  model.add_contact(
      "tip", "rod", [](const auto& q) { return q[1]; }, [](const auto& q) { return q[0]; }, p.law);
  return model;
}

// Horizontal velocity of the centre of mass, xdot - ell thetadot sin theta (seed 000).
inline double bouncing_rod_com_horizontal_velocity(double ell, const Eigen::VectorXd& x) {
  return x[3] - ell * x[5] * std::sin(x[2]);
}

}  // namespace saltus::mech
