// The planar bodies of the random drops (issue 11) and their simulation options, shared by
// random_drops_test.cpp and drop_regression_test.cpp.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "lagrangian_test_models.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/mech/planar_rigid_body.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::mech::testing {

inline constexpr double kDropG = 9.81;

// Planar body of mass m, inertia J, with corners at body offsets (r_t, r_n) touching the floor
// y = 0 under `law` (Routh-Stronge alone; several at once: Moreau's law with Coulomb friction).
inline LagrangianModel drop_body(double m, double J,
                                 const std::vector<std::array<double, 2>>& corners,
                                 ContactImpactLaw law) {
  LagrangianModel model("drop", 3);
  set_planar_body_dynamics(model, m, J, kDropG);
  int k = 0;
  for (const auto& [r_t, r_n] : corners) {
    add_ground_point_contact(model, std::string("c").append(std::to_string(k++)), "body", r_t, r_n,
                             law);
  }
  return model;
}

// Box of half sides a, b (four corners) or rod of half length a (b = 0, two ends), mass 1.
inline std::vector<std::array<double, 2>> drop_corners(bool box, double a, double b) {
  if (box) return {{-a, -b}, {a, -b}, {a, b}, {-a, b}};
  return {{-a, 0.0}, {a, 0.0}};
}
inline double drop_inertia(bool box, double a, double b) {
  return box ? (a * a + b * b) / 3.0 : a * a / 3.0;
}
// The lowest corner's height over the centre at inclination th (<= 0): a drop starts at
// y = -drop_lowest + clearance.
inline double drop_lowest(const std::vector<std::array<double, 2>>& corners, double th) {
  double lowest = 0.0;
  for (const auto& [r_t, r_n] : corners) {
    lowest = std::min(lowest, r_t * std::sin(th) + r_n * std::cos(th));
  }
  return lowest;
}

inline SimulationOptions drop_options() {
  SimulationOptions o = tight_options();
  o.events.max_events = 3000;
  // Free flight is polynomial in x, y and linear in theta, so Dop853's error estimate vanishes
  // and its steps grow without bound; a corner of a spinning body can then dip under the floor
  // and back between two guard samples (the locator sees neither crossing). A step cap keeps
  // ~0.05 rad between samples at the drops' spins (see the report of issue 11).
  o.stepper.h_max = 2e-3;
  return o;
}

}  // namespace saltus::mech::testing
