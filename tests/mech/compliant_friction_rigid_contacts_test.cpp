// Coulomb friction on compliant contacts beside rigid contacts, and what it refuses
// (lagrangian_model.hpp, "Friction on compliant contacts"; the friction itself:
// compliant_friction_test.cpp):
//  - a slider on a rough Kelvin-Voigt floor bounces off a rigid wall and slides back to rest at
//    the closed-form time and place;
//  - a rigid contact that would close while compliant friction is active (and the reverse) ends
//    the run with ResetFailed naming both contacts; such an initial state is refused;
//  - bad input (mu < 0, mu without tangent) is refused with the contact named.
// Tolerances: Dop853 at rtol 1e-12 (testing::tight_options); event times and places to 1e-9.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lagrangian_test_models.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::mech {
namespace {

constexpr double kG = 9.81;

// ---------------------------------------------------------------- beside rigid contacts
// q = (x, y): a mass on a rough Kelvin-Voigt floor (at its static penetration, f_N = m g) sliding
// at v0 into a rigid wall x <= L (Newton restitution e). Closed forms: x = v0 t - mu g t^2 / 2 up
// to the impact at t1 with speed v1 = v0 - mu g t1, then -e v1 and sliding back to rest after
// (e v1)^2 / (2 mu g) at t1 + e v1 / (mu g).
struct SliderWall {
  static constexpr double m = 1.5, k = 4e4, c = 30.0, mu = 0.25, L = 0.4;
};

LagrangianModel slider_and_wall(double e) {
  using W = SliderWall;
  LagrangianModel p("slider_and_wall", 2);
  p.set_mass_matrix([](const auto&, auto& M) {
    M(0, 0) = W::m;
    M(1, 1) = W::m;
  });
  p.set_forces([](const auto&, const auto& q, const auto&, auto& h) {
    h[0] = 0.0 * q[0];
    h[1] = -W::m * kG + 0.0 * q[1];
  });
  p.add_compliant_contact(
      "floor", "slider", [](const auto& q) { return q[1]; }, [](const auto& q) { return q[0]; },
      CompliantContactLaw::kelvin_voigt(W::k, W::c, ReleaseCondition::GapReturnsToZero)
          .with_friction(W::mu));
  p.add_contact(
      "wall", "slider", [](const auto& q) { return W::L - q[0]; },
      ContactImpactLaw{ImpactLawKind::NewtonFrictionless, e, 0.0, 0.0});
  return p;
}

TEST(CompliantFriction, SliderBouncesOffARigidWallAndSlidesBackToRest) {
  const double m = SliderWall::m, k = SliderWall::k, L = SliderWall::L, e = 0.6, v0 = 2.0;
  const double a = SliderWall::mu * kG;
  const LagrangianModel p = slider_and_wall(e);
  const auto c = p.compile();
  Vector x0(4);
  x0 << 0.0, -m * kG / k, v0, 0.0;
  const ModeId start = c.initial_mode(0.0, x0);
  ASSERT_EQ(c.system.mode(start).name, "free|slip+:floor");
  const double t1 = (v0 - std::sqrt(v0 * v0 - 2.0 * a * L)) / a, v1 = v0 - a * t1;
  const double t_rest = t1 + e * v1 / a, x_rest = L - (e * v1) * (e * v1) / (2.0 * a);
  const SimulationResult r =
      simulate(c.system, start, 0.0, x0, t_rest + 0.5, testing::tight_options());
  ASSERT_EQ(r.summary.termination, Termination::EndTimeReached) << r.summary.message;
  ASSERT_EQ(r.events.size(), 2) << r.summary.message;
  EXPECT_EQ(testing::guard_name(c, r, 0), "impact:wall");
  EXPECT_EQ(c.system.mode(r.events[0].mode_after).name, "free|slip-:floor");
  EXPECT_NEAR(r.events[0].t, t1, 1e-10);
  EXPECT_NEAR(r.events.x_after(0)[2], -e * v1, 1e-9 * v0);
  EXPECT_EQ(testing::guard_name(c, r, 1), "stick:floor");
  EXPECT_EQ(c.system.mode(r.events[1].mode_after).name, "free|stick:floor");
  EXPECT_NEAR(r.events[1].t, t_rest, 1e-9);
  EXPECT_NEAR(r.x_final[0], x_rest, 1e-9);
  EXPECT_LE(std::abs(r.x_final[2]), 1e-12);
}

TEST(CompliantFriction, ClosedRigidContactWithCompliantFrictionEndsTheRunNamingBoth) {
  auto expect_message = [](const std::string& what, const std::vector<std::string>& parts) {
    for (const std::string& part : parts) {
      EXPECT_NE(what.find(part), std::string::npos) << "'" << part << "' missing: " << what;
    }
  };
  // A plastic wall (e = 0) would close while the floor has friction: reset-failed, both named.
  const double m = SliderWall::m, k = SliderWall::k;
  const auto plastic = slider_and_wall(0.0).compile();
  Vector x0(4);
  x0 << 0.0, -m * kG / k, 2.0, 0.0;
  const SimulationResult r = simulate(plastic.system, plastic.initial_mode(0.0, x0), 0.0, x0, 2.0,
                                      testing::tight_options());
  EXPECT_EQ(r.summary.termination, Termination::ResetFailed);
  expect_message(r.summary.message,
                 {"contact 'wall'", "compliant contact 'floor'", "t = 0.2", "not supported"});

  // A rough compliant bumper touched while the block is held closed on a rigid floor.
  LagrangianModel b("block_on_rigid_floor", 2);
  b.set_mass_matrix([](const auto&, auto& M) {
    M(0, 0) = 1.0;
    M(1, 1) = 1.0;
  });
  b.set_forces([](const auto&, const auto& q, const auto&, auto& h) {
    h[0] = 0.0 * q[0];
    h[1] = -kG + 0.0 * q[1];
  });
  b.add_contact(
      "floor", "block", [](const auto& q) { return q[1]; }, ContactImpactLaw{});
  b.add_compliant_contact(
      "bumper", "block", [](const auto& q) { return 0.3 - q[0]; },
      [](const auto& q) { return q[1]; },
      CompliantContactLaw::linear_spring(1e4).with_friction(0.2));
  const auto c = b.compile();
  Vector y0(4);
  y0 << 0.0, 0.0, 1.0, 0.0;
  ASSERT_EQ(c.system.mode(c.initial_mode(0.0, y0)).name, "closed:floor");
  const SimulationResult s =
      simulate(c.system, c.initial_mode(0.0, y0), 0.0, y0, 1.0, testing::tight_options());
  EXPECT_EQ(s.summary.termination, Termination::ResetFailed);
  EXPECT_NEAR(s.t_final, 0.3, 1e-9);
  expect_message(s.summary.message,
                 {"contact 'bumper'", "rigid contact 'floor' is closed", "not supported"});
  // Starting pressed into the bumper while resting on the floor: refused before the run.
  y0 << 0.31, 0.0, 0.0, 0.0;
  try {
    (void)c.initial_mode(0.0, y0);
    ADD_FAILURE() << "an initial state with the floor closed and the bumper rough was accepted";
  } catch (const Error& err) {
    expect_message(err.what(), {"contact 'floor'", "compliant contact 'bumper'", "not supported"});
  }
}

// ---------------------------------------------------------------- bad input
TEST(CompliantFriction, BadFrictionInputIsRefusedNamingTheContact) {
  auto expect_refused = [](const LagrangianModel& m, const std::string& cause) {
    try {
      (void)m.compile();
      ADD_FAILURE() << "accepted: " << cause;
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("contact 'pad'"), std::string::npos) << what;
      EXPECT_NE(what.find(cause), std::string::npos) << what;
    }
  };
  auto base = [] {
    LagrangianModel m("pads", 2);
    m.set_mass_matrix([](const auto&, auto& M) {
      M(0, 0) = 1.0;
      M(1, 1) = 1.0;
    });
    m.set_forces([](const auto&, const auto&, const auto&, auto&) {});
    return m;
  };
  const auto gap = [](const auto& q) { return q[1]; };
  const auto tangent = [](const auto& q) { return q[0]; };
  LagrangianModel negative = base();
  negative.add_compliant_contact("pad", "block", gap, tangent,
                                 CompliantContactLaw::linear_spring(1e3).with_friction(-0.1));
  expect_refused(negative, "mu = -0.1");
  LagrangianModel no_tangent = base();
  no_tangent.add_compliant_contact("pad", "block", gap,
                                   CompliantContactLaw::linear_spring(1e3).with_friction(0.3));
  expect_refused(no_tangent, "needs a tangential coordinate");
  // mu = 0 with a tangent compiles to the frictionless modes.
  LagrangianModel frictionless = base();
  frictionless.add_compliant_contact("pad", "block", gap, tangent,
                                     CompliantContactLaw::linear_spring(1e3));
  EXPECT_EQ(frictionless.compile().system.mode_count(), 2);
}

}  // namespace
}  // namespace saltus::mech
