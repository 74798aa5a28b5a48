// Small LagrangianModels with closed forms, for the closed-contact, compliant-contact,
// Jacobian and allocation tests of tests/mech.
#pragma once

#include <cmath>
#include <string>

#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/mech/planar_rigid_body.hpp"
#include "saltus/sim/simulation_options.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::mech::testing {

// A point mass (block) on an incline of angle a through the origin, q = (x, y) in world axes:
// gap g_N = n.q with n = (-sin a, cos a), tangential coordinate s_T = t.q with t = (cos a, sin a)
// (uphill positive), gravity -g y. While sliding with speed v_T = t.qdot and s = sign(v_T):
// s_T'' = -g sin a - s mu g cos a; sticking needs tan a <= mu.
inline LagrangianModel incline_block_model(double m, double g, double a, ContactImpactLaw law) {
  LagrangianModel model("incline_block", 2);
  model.set_mass_matrix([m](const auto&, auto& M) {
    M(0, 0) = m;
    M(1, 1) = m;
  });
  model.set_forces([m, g](const auto&, const auto&, const auto&, auto& h) { h[1] = -m * g; });
  const double sa = std::sin(a), ca = std::cos(a);
  model.add_contact(
      "base", "block", [sa, ca](const auto& q) { return -sa * q[0] + ca * q[1]; },
      [sa, ca](const auto& q) { return ca * q[0] + sa * q[1]; }, law);
  return model;
}

// The state of the block on the incline at s_T = s, sliding with speed v along t.
inline Vector incline_state(double a, double s, double v) {
  Vector x(4);
  x << s * std::cos(a), s * std::sin(a), v * std::cos(a), v * std::sin(a);
  return x;
}

// Painleve rod (FORMULAS.md 11.2): uniform rod, CoM-to-tip l, J about the CoM, tip
// A = G + (-l cos th, -l sin th); q = (x_G, y_G, theta).
inline LagrangianModel painleve_rod_model(double m, double l, double J, double g,
                                          ContactImpactLaw law) {
  LagrangianModel model("painleve_rod", 3);
  set_planar_body_dynamics(model, m, J, g);
  model.add_contact(
      "tip", "rod",
      [l](const auto& q) {
        using std::sin;
        return q[1] - l * sin(q[2]);
      },
      [l](const auto& q) {
        using std::cos;
        return q[0] - l * cos(q[2]);
      },
      law);
  return model;
}

inline SimulationOptions tight_options() {
  SimulationOptions o;
  o.integrator = Integrator::Dop853;
  o.stepper.rtol = 1e-12;
  o.stepper.atol = 1e-14;
  return o;
}

// The name of event i's guard in a run of c ("zeno-handover" for the hand-over).
inline std::string guard_name(const LagrangianModel::Compiled& c, const SimulationResult& r,
                              long i) {
  const EventRecord& ev = r.events[i];
  if (ev.guard == kZenoHandoverGuard) return "zeno-handover";
  return c.system.mode(ev.mode_before).guards[ev.guard].name;
}

}  // namespace saltus::mech::testing
