// Guard::scale_offset (issue 34; docs/ARCHITECTURE.md "Tolerances"): a guard that fires at a level
// below its surface reads p - scale_offset x scale(p), scale(p) = sum_i |dp/dx_i| S_i from the
// run's state scales, so the level follows the model's units instead of fixing one (the stick
// guards' rest speed and the penetration safeguard of src/mech use it).
#include <gtest/gtest.h>

#include <cmath>

#include "saltus/sim/simulator.hpp"
#include "support/solver_options.hpp"
#include "support/vectors.hpp"

namespace saltus {
namespace {

using saltus::testing::solver_options;
using saltus::testing::vec;

// x' = -v from x = L: the guard p = -x rising with scale_offset c fires where -x = c |dp/dx| S_x,
// S_x = L (the largest |x| of the run): at x = -c L, t = (1 + c) L / v, in any units.
SimulationResult fall_through(double L, double v, double c, double time_unit, double t0 = 0.0) {
  HybridSystem sys;
  const ModeId m =
      sys.add_mode("fall", ode_flow(1, [v](const auto&, const auto&, auto& xd) { xd[0] = -v; }));
  Guard g = make_guard(
      "below", Direction::Rising, [](const auto&, const auto& x, const auto&) { return -x[0]; },
      Reset::to(m, [](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) { xp = x; }), true);
  g.scale_offset = c;
  sys.add_guard(m, std::move(g));
  const SimulationOptions o = solver_options(1e-12, 1e-14 * L);
  return simulate(sys, m, t0, vec({L}), t0 + 10.0 * time_unit, o);
}

TEST(GuardScaleOffset, TheLevelIsAFractionOfTheGuardsScaleInAnyUnits) {
  for (const double c : {0.0, 0.25, 1e-9}) {
    SCOPED_TRACE("scale_offset = " + std::to_string(c));
    const SimulationResult si = fall_through(1.0, 1.0, c, 1.0);
    ASSERT_EQ(si.events.size(), 1);
    EXPECT_NEAR(si.events[0].t, 1.0 + c, 1e-13);
    EXPECT_NEAR(si.events.x_before(0)[0], -c, 1e-13);
    // Millimetres and milliseconds: the same level, 1000 times the length, at the same event.
    const SimulationResult mm = fall_through(1000.0, 1.0, c, 1000.0);
    ASSERT_EQ(mm.events.size(), 1);
    EXPECT_NEAR(mm.events[0].t, 1000.0 * (1.0 + c), 1e-10);
    EXPECT_NEAR(mm.events.x_before(0)[0], -1000.0 * c, 1e-10);
    // Started at t0 = 1e9: the engine's clock counts from t0, and the level reads no time.
    const SimulationResult late = fall_through(1.0, 1.0, c, 1.0, 1e9);
    ASSERT_EQ(late.events.size(), 1);
    EXPECT_EQ(late.events[0].t, 1e9 + si.events[0].t);
    EXPECT_EQ(late.events.x_before(0)[0], si.events.x_before(0)[0]);
  }
}

// From x = 0 (scale 0 at the start) rising to L: the level grows with the scale the run reaches
// (where a state's scale doubles at a step end, the offsets are set again), so the guard with the
// offset fires beyond the surface, not with a guard on the surface itself. Before, the level
// stayed at 0 until the next event, and a particle started at q = 0 between two walls stopped
// at its first wall with its penetration safeguard (reset-failed).
TEST(GuardScaleOffset, TheLevelGrowsWithTheScaleTheRunReaches) {
  for (const double L : {1.0, 1000.0}) {
    SCOPED_TRACE("L = " + std::to_string(L));
    HybridSystem sys;
    const ModeId m =
        sys.add_mode("rise", ode_flow(1, [](const auto&, const auto&, auto& xd) { xd[0] = 1.0; }));
    const double c = 1e-9;
    Guard level = make_guard(
        "beyond", Direction::Rising,
        [L](const auto&, const auto& x, const auto&) { return x[0] - L; },
        Reset::to(m, [](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) { xp = x; }), true);
    level.scale_offset = c;
    sys.add_guard(m,
                  make_observer("surface", Direction::Rising,
                                [L](const auto&, const auto& x, const auto&) { return x[0] - L; }));
    sys.add_guard(m, std::move(level));
    const SimulationResult r =
        simulate(sys, m, 0.0, vec({0.0}), 3.0 * L, solver_options(1e-12, 1e-14 * L));
    ASSERT_EQ(r.events.size(), 2) << r.summary.message;
    EXPECT_EQ(r.events[0].guard, 0);  // "surface"
    EXPECT_EQ(r.events[1].guard, 1);  // "beyond"
    EXPECT_NEAR(r.events[0].t, L, 1e-12 * L);
    // The level: c times the scale of x - L at the last step end where it had doubled, between
    // the first step's x and L; never 0, the scale of the start.
    const double past = r.events[1].t - r.events[0].t;
    EXPECT_GT(past, 1e-3 * c * L);
    EXPECT_LE(past, c * L * (1.0 + 1e-6));
  }
}

}  // namespace
}  // namespace saltus
