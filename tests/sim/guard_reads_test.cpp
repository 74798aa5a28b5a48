// Guard::reads_states: a guard that declares the state components it reads is located from the
// dense output of those components alone (event_locator.hpp). The declaration must change no
// result: event times, states and step counts equal, bit for bit, those of the same system with
// the declaration removed (the component interpolation is the same arithmetic), for hand-picked
// and seeded random systems; every impact time also matches the closed form. A guard reading
// more than it declares stops the run (NonFiniteState) instead of reading stale values, and a
// declaration naming a state the mode lacks is refused before the run. A guard value with a plain
// entry (DirectGuardValue) runs as its std::function, and a mode's guards in one call
// (DirectGuardSet) as the guards one by one.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/sim/simulator.hpp"
#include "saltus/systems/bouncing_ball.hpp"
#include "support/without_declarations.hpp"

namespace saltus {
namespace {

using saltus::testing::without_declarations;

Vector state(double x0, double v0) {
  Vector x(2);
  x << x0, v0;
  return x;
}

// Runs both systems from the same start and expects identical runs.
void expect_same_runs(const HybridSystem& first, const HybridSystem& plain, ModeId mode,
                      const Vector& x0, double t_end, const SimulationOptions& o,
                      const std::string& what) {
  const SimulationResult a = simulate(first, mode, 0.0, x0, t_end, o);
  const SimulationResult b = simulate(plain, mode, 0.0, x0, t_end, o);
  ASSERT_EQ(a.termination(), b.termination()) << what << ": " << a.summary.message;
  ASSERT_EQ(a.events.size(), b.events.size()) << what;
  ASSERT_GT(a.events.size(), 0) << what;
  for (long i = 0; i < a.events.size(); ++i) {
    ASSERT_EQ(a.events[i].t, b.events[i].t) << what << ", event " << i;
    ASSERT_EQ(a.events[i].guard, b.events[i].guard) << what << ", event " << i;
    ASSERT_EQ(a.events.x_before(i), b.events.x_before(i)) << what << ", event " << i;
    ASSERT_EQ(a.events.x_after(i), b.events.x_after(i)) << what << ", event " << i;
  }
  EXPECT_EQ(a.x_final, b.x_final) << what;
  EXPECT_EQ(a.summary.stepper.accepted_steps, b.summary.stepper.accepted_steps) << what;
  EXPECT_EQ(a.summary.root_evaluations, b.summary.root_evaluations) << what;
}

// The system with its guards' declarations and without them.
void expect_identical_runs(const HybridSystem& declared, ModeId mode, const Vector& x0,
                           double t_end, const SimulationOptions& o, const std::string& what) {
  expect_same_runs(declared, without_declarations(declared), mode, x0, t_end, o, what);
}

// Impact k of a ball dropped from rest at height x0 (FORMULAS.md 5.1).
double closed_form_impact(double x0, double g, double e, int k) {
  const double v1 = std::sqrt(2 * g * x0);
  double t = std::sqrt(2 * x0 / g), ek = 1.0;
  for (int i = 0; i < k; ++i) {
    ek *= e;
    t += 2 * ek * v1 / g;
  }
  return t;
}

// A ball without the rest mode, with a random restitution.
systems::BouncingBall random_flying_ball(std::mt19937_64& rng) {
  systems::BouncingBall b;
  b.e = std::uniform_real_distribution<double>(0.3, 0.95)(rng);
  b.with_rest_mode = false;
  return b;
}

// rtol 1e-12, atol 1e-14.
SimulationOptions tight_options(Integrator integrator) {
  SimulationOptions o;
  o.integrator = integrator;
  o.stepper.rtol = 1e-12;
  o.stepper.atol = 1e-14;
  return o;
}

TEST(GuardReads, TheBallsDeclaredFloorGuardChangesNoResultWithAnyIntegrator) {
  systems::BouncingBall b;
  const HybridSystem sys = b.build();
  ASSERT_EQ(sys.mode(b.flight).guards[0].reads_states, std::vector<int>{0});
  const double t_inf = std::sqrt(2 / b.g) * (1 + b.e) / (1 - b.e);
  for (Integrator integrator : {Integrator::Dopri5, Integrator::Dop853, Integrator::Radau5}) {
    const SimulationOptions o = tight_options(integrator);
    // Through the Zeno point and the hand-over to rest (a DAE mode, read in full).
    expect_identical_runs(sys, b.flight, state(1.0, 0.0), t_inf + 1.0, o, to_string(integrator));
  }
}

TEST(GuardReads, SeededRandomBallsLocateTheSameImpactsAsUndeclaredGuards) {
  std::mt19937_64 rng(20261126);
  std::uniform_real_distribution<double> height(0.05, 5.0);
  for (int n = 0; n < 40; ++n) {
    systems::BouncingBall b = random_flying_ball(rng);
    const HybridSystem sys = b.build();
    const double x0 = height(rng);
    const SimulationOptions o = tight_options(Integrator::Dopri5);
    const double t_end =
        0.5 * (closed_form_impact(x0, b.g, b.e, 11) + closed_form_impact(x0, b.g, b.e, 12));
    const std::string what = "ball " + std::to_string(n) + " (x0 = " + std::to_string(x0) +
                             ", e = " + std::to_string(b.e) + ")";
    expect_identical_runs(sys, b.flight, state(x0, 0.0), t_end, o, what);
    const SimulationResult r = simulate(sys, b.flight, 0.0, state(x0, 0.0), t_end, o);
    ASSERT_EQ(r.events.size(), 12) << what;
    for (long i = 0; i < r.events.size(); ++i) {
      // rtol 1e-12 on a flight of ~1 s: the bench's ensemble stays within 1e-12 s.
      EXPECT_NEAR(r.events[i].t, closed_form_impact(x0, b.g, b.e, static_cast<int>(i)), 1e-11)
          << what << ", impact " << i;
    }
  }
}

// A box between a floor (declared: reads x) and a ceiling (undeclared) with a third state that
// no guard reads: the samples then interpolate everything, root finding only x for the floor.
TEST(GuardReads, AModeMixingDeclaredAndUndeclaredGuardsRunsAsWithout) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> speed(0.5, 4.0), ceiling(0.5, 2.0);
  for (int n = 0; n < 20; ++n) {
    const double h = ceiling(rng), v0 = speed(rng);
    HybridSystem sys;
    const ModeId m = sys.add_mode("box", ode_flow(3, [](const auto&, const auto& x, auto& xdot) {
                                    xdot[0] = x[1];
                                    xdot[1] = -9.81;
                                    xdot[2] = x[0];  // the area under the path, read by no guard
                                  }));
    auto bounce = Reset::to_ad(m, [](const auto&, const auto& x, const auto&, auto& xp) {
      xp[0] = x[0];
      xp[1] = -0.9 * x[1];
      xp[2] = x[2];
    });
    Guard floor = make_guard(
        "floor", Direction::Rising, [](const auto&, const auto& x, const auto&) { return -x[0]; },
        bounce);
    floor.reads_states = {0};
    sys.add_guard(m, floor);
    sys.add_guard(m,
                  make_guard(
                      "ceiling", Direction::Rising,
                      [h](const auto&, const auto& x, const auto&) { return x[0] - h; }, bounce));
    Vector x0(3);
    x0 << 0.5 * h, v0, 0.0;
    SimulationOptions o;
    o.stepper.rtol = 1e-11;
    o.stepper.atol = 1e-13;
    o.zeno.policy = events::ZenoOptions::Policy::Off;
    expect_identical_runs(sys, m, x0, 3.0, o, "box " + std::to_string(n));
  }
}

// The ball's floor -x[0] as a plain function (DirectGuardValue), counting its calls.
double counted_floor(const void* calls, double, const double* x, int, const double*, int) {
  ++*static_cast<long*>(const_cast<void*>(calls));
  return -x[0];
}

// A guard value with a plain entry (DirectGuardValue, which event location calls without the
// std::function layer) changes no result: seeded random balls run as with the floor's
// std::function, bit for bit, with every integrator, and the plain entry is what was called.
TEST(GuardReads, ADirectGuardValueRunsAsItsFunction) {
  std::mt19937_64 rng(515);
  std::uniform_real_distribution<double> height(0.05, 5.0);
  for (int n = 0; n < 12; ++n) {
    systems::BouncingBall b = random_flying_ball(rng);
    const HybridSystem plain = b.build();
    const auto calls = std::make_shared<long>(0);
    Guard floor = plain.mode(b.flight).guards[0];
    floor.value = DirectGuardValue{&counted_floor, calls};
    HybridSystem with_direct;
    const ModeId m = with_direct.add_mode("flight", plain.mode(b.flight).flow);
    with_direct.add_guard(m, floor);
    ASSERT_EQ(m, b.flight);
    const SimulationOptions o = tight_options(n % 3 == 0   ? Integrator::Dopri5
                                              : n % 3 == 1 ? Integrator::Dop853
                                                           : Integrator::Radau5);
    const double x0 = height(rng);
    const double t_end =
        0.5 * (closed_form_impact(x0, b.g, b.e, 7) + closed_form_impact(x0, b.g, b.e, 8));
    const std::string what = "ball " + std::to_string(n) + " with " + to_string(o.integrator);
    expect_same_runs(with_direct, plain, b.flight, state(x0, 0.0), t_end, o, what);
    *calls = 0;
    const SimulationResult again = simulate(with_direct, b.flight, 0.0, state(x0, 0.0), t_end, o);
    EXPECT_EQ(again.events.size(), 8) << what;
    EXPECT_GE(*calls, again.summary.guard_evaluations + again.summary.root_evaluations) << what;
  }
}

// A box's floor -x[0] and ceiling x[0] - h as one plain function (DirectGuardSet), counting its
// calls.
struct BoxWalls {
  double h = 1.0;
  long calls = 0;
};
void box_guard_set(const void* context, double, const double* x, const double*, double* values) {
  auto& walls = *static_cast<BoxWalls*>(const_cast<void*>(context));
  ++walls.calls;
  values[0] = -x[0];
  values[1] = x[0] - walls.h;
}

// All guards of a mode in one call (DirectGuardSet) change no result: seeded random boxes run as
// with their guards one by one, bit for bit, with every integrator, and the set is what sampled
// them. A guard added afterwards clears the set, which was written for fewer guards.
TEST(GuardReads, AGuardSetRunsAsItsGuards) {
  std::mt19937_64 rng(2611);
  std::uniform_real_distribution<double> speed(0.5, 4.0), ceiling(0.5, 2.0), start(0.1, 0.9);
  for (int n = 0; n < 12; ++n) {
    const auto walls = std::make_shared<BoxWalls>();
    walls->h = ceiling(rng);
    const double h = walls->h;
    HybridSystem plain;
    const ModeId m = plain.add_mode("box", ode_flow(2, [](const auto&, const auto& x, auto& xdot) {
                                      xdot[0] = x[1];
                                      xdot[1] = -9.81;
                                    }));
    auto bounce = Reset::to_ad(m, [](const auto&, const auto& x, const auto&, auto& xp) {
      xp[0] = x[0];
      xp[1] = -0.9 * x[1];
    });
    plain.add_guard(m, make_guard(
                           "floor", Direction::Rising,
                           [](const auto&, const auto& x, const auto&) { return -x[0]; }, bounce));
    plain.add_guard(m,
                    make_guard(
                        "ceiling", Direction::Rising,
                        [h](const auto&, const auto& x, const auto&) { return x[0] - h; }, bounce));
    HybridSystem with_set = plain;
    with_set.set_guard_set(m, DirectGuardSet{&box_guard_set, walls});
    const SimulationOptions o = tight_options(n % 3 == 0   ? Integrator::Dopri5
                                              : n % 3 == 1 ? Integrator::Dop853
                                                           : Integrator::Radau5);
    const Vector x0 = state(start(rng) * h, speed(rng));
    const std::string what = "box " + std::to_string(n) + " with " + to_string(o.integrator);
    expect_same_runs(with_set, plain, m, x0, 3.0, o, what);
    walls->calls = 0;
    const SimulationResult r = simulate(with_set, m, 0.0, x0, 3.0, o);
    EXPECT_GE(r.events.size(), 3) << what;
    EXPECT_EQ(2 * walls->calls, r.summary.guard_evaluations) << what;

    HybridSystem extended = with_set;
    extended.add_guard(m, plain.mode(m).guards[0]);
    EXPECT_FALSE(extended.mode(m).guard_set.has_value()) << what;
  }
}

TEST(GuardReads, AGuardReadingMoreThanItDeclaresStopsTheRun) {
  HybridSystem sys;
  const ModeId m = sys.add_mode("flight", ode_flow(2, [](const auto&, const auto& x, auto& xdot) {
                                  xdot[0] = x[1];
                                  xdot[1] = -9.81;
                                }));
  Guard g = make_guard(
      "floor", Direction::Rising,
      [](const auto&, const auto& x, const auto&) { return -x[0] - 1e-3 * x[1]; },
      Reset::to(m, [](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
        xp[0] = x[0];
        xp[1] = -0.8 * x[1];
      }));
  g.reads_states = {0};  // wrong: it reads x[1] too
  sys.add_guard(m, g);
  const SimulationResult r = simulate(sys, m, 0.0, state(1.0, 0.0), 2.0, SimulationOptions{});
  EXPECT_EQ(r.termination(), Termination::NonFiniteState) << r.summary.message;
  EXPECT_EQ(r.events.size(), 0);
}

TEST(GuardReads, ADeclarationNamingAMissingStateIsRefused) {
  systems::BouncingBall b;
  b.with_rest_mode = false;
  HybridSystem sys = b.build();
  Guard g = sys.mode(b.flight).guards[0];
  g.reads_states = {2};  // the flight has 2 states
  g.name = "bad";
  sys.add_guard(b.flight, g);
  EXPECT_THROW(Simulator(sys, SimulationOptions{}), Error);
}

}  // namespace
}  // namespace saltus
