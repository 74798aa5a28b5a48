// A planar rigid body with one contact point striking the ground y = 0 (FORMULAS.md 0, 7.2).
//
// q = (x_G, y_G, theta), M = diag(m, m, m rho^2), gravity g along -y. The contact point is fixed
// in the body at b = (b_x, b_y) from the centre of mass (in body axes; at theta = 0 it is the
// offset r = (r_t, r_n) of FORMULAS.md 0): p = G + R(theta) b,
//   gap g_N = y_G + b_x sin theta + b_y cos theta,  tangential coordinate x_G + b_x cos theta -
//   b_y sin theta, so at theta = 0: w_N = (0, 1, r_t), w_T = (1, 0, -r_n) (planar_contact.hpp).
#pragma once

#include <string>
#include <utility>

#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech {

struct PlanarRigidBodyParameters {
  double m = 1.0;
  double rho2 = 1.0 / 3.0;  // squared radius of gyration about G, m^2
  double b_x = -0.5;        // contact point in body axes, m
  double b_y = -0.8660254037844386;
  double g = 9.81;
  ContactImpactLaw law{ImpactLawKind::RouthPoisson, 0.5, 0.0, 0.3};
};

// M = diag(m, m, J) and h = (0, -m g, 0) of a planar rigid body with q = (x_G, y_G, theta)
// on `model`; contacts are the caller's.
inline void set_planar_body_dynamics(LagrangianModel& model, double m, double J, double g) {
  model.set_mass_matrix([m, J](const auto&, auto& M) {
    M(0, 0) = m;
    M(1, 1) = m;
    M(2, 2) = J;
  });
  model.set_forces([m, g](const auto&, const auto&, const auto&, auto& h) { h[1] = -m * g; });
}

// A contact of the body point fixed at (b_x, b_y) in body axes with the ground y = 0: gap
// y_G + b_x sin theta + b_y cos theta, tangential coordinate x_G + b_x cos theta - b_y sin theta.
inline void add_ground_point_contact(LagrangianModel& model, std::string name, std::string body,
                                     double bx, double by, ContactImpactLaw law) {
  model.add_contact(
      std::move(name), std::move(body),
      [bx, by](const auto& q) {
        using std::cos;
        using std::sin;
        return q[1] + bx * sin(q[2]) + by * cos(q[2]);
      },
      [bx, by](const auto& q) {
        using std::cos;
        using std::sin;
        return q[0] + bx * cos(q[2]) - by * sin(q[2]);
      },
      law);
}

inline LagrangianModel planar_rigid_body_model(const PlanarRigidBodyParameters& p) {
  LagrangianModel model("planar_rigid_body", 3);
  set_planar_body_dynamics(model, p.m, p.m * p.rho2, p.g);
  add_ground_point_contact(model, "corner", "body", p.b_x, p.b_y, p.law);
  return model;
}

// A point mass in the plane, q = (x, y), on the ground y = 0 (seed 000 bouncing ball, seed 002
// particle impact): gap y, tangential coordinate x.
inline LagrangianModel point_particle_model(double m, double g, ContactImpactLaw law) {
  LagrangianModel model("point_particle", 2);
  model.set_mass_matrix([m](const auto&, auto& M) {
    M(0, 0) = m;
    M(1, 1) = m;
  });
  model.set_forces([m, g](const auto&, const auto&, const auto&, auto& h) { h[1] = -m * g; });
  model.add_contact(
      "ground", "particle", [](const auto& q) { return q[1]; }, [](const auto& q) { return q[0]; },
      law);
  return model;
}

}  // namespace saltus::mech
