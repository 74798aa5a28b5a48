// Event location semantics: two crossings inside one step, grazing, simultaneous guards,
// every root finder in the loop, terminal events and observers via the event log.
#include <gtest/gtest.h>

#include <cmath>

#include "saltus/sim/simulator.hpp"
#include "support/vectors.hpp"

namespace saltus {
namespace {

using saltus::testing::vec;

// x' = 1: a clock. The integrator's error estimate is zero, so steps grow by fac_max each time
// and soon span far more than the guard's positive window.
Flow clock_flow() {
  return ode_flow(1, [](const auto&, const auto&, auto& xdot) { xdot[0] = 1.0; });
}

TEST(EventLocation, TwoCrossingsInsideOneStepAreBothFound) {
  // p = (x - 3)(x - 3.001): positive outside [3, 3.001]. An Either guard crosses at 3 (falling)
  // and at 3.001 (rising), 1 ms apart, inside a step of order 1.
  HybridSystem sys;
  const ModeId m = sys.add_mode("clock", clock_flow());
  sys.add_guard(
      m, make_guard(
             "window", Direction::Either,
             [](const auto&, const auto& x, const auto&) { return (x[0] - 3.0) * (x[0] - 3.001); },
             Reset::to(m)));
  SimulationOptions o;
  o.output.record_steps = true;
  const SimulationResult r = simulate(sys, m, 0.0, vec({0.0}), 5.0, o);
  ASSERT_TRUE(r.summary.ok()) << r.summary.message;
  ASSERT_EQ(r.events.size(), 2);
  EXPECT_NEAR(r.events[0].t, 3.0, 1e-13);
  EXPECT_NEAR(r.events[1].t, 3.001, 1e-13);
  // The step that contained both crossings was longer than their distance.
  double longest = 0.0;
  for (long i = 1; i < r.trajectory.size(); ++i) {
    longest = std::max(longest, r.trajectory.t(i) - r.trajectory.t(i - 1));
  }
  EXPECT_GT(longest, 0.1);
}

TEST(EventLocation, GrazingCrossingBetweenSamplesIsFound) {
  // p = 1e-6 - (x - 2)^2 is positive only on (2 - 1e-3, 2 + 1e-3): between two negative
  // samples of a long step. Rising guard: fires at 2 - 1e-3; terminal.
  HybridSystem sys;
  const ModeId m = sys.add_mode("clock", clock_flow());
  sys.add_guard(m, make_guard(
                       "graze", Direction::Rising,
                       [](const auto&, const auto& x, const auto&) {
                         return 1e-6 - (x[0] - 2.0) * (x[0] - 2.0);
                       },
                       Reset::to(m), /*terminal=*/true));
  for (auto rf : {events::RootFinderKind::Brent, events::RootFinderKind::AndersonBjorck,
                  events::RootFinderKind::Illinois, events::RootFinderKind::Bisection,
                  events::RootFinderKind::Newton}) {
    SimulationOptions o;
    o.events.root_finder = rf;
    const SimulationResult r = simulate(sys, m, 0.0, vec({0.0}), 5.0, o);
    EXPECT_EQ(r.termination(), Termination::TerminalEvent) << events::to_string(rf);
    ASSERT_EQ(r.events.size(), 1) << events::to_string(rf);
    EXPECT_NEAR(r.events[0].t, 2.0 - 1e-3, 1e-13) << events::to_string(rf);
  }
  // Without the grazing test the same window is missed: the check is what finds it.
  SimulationOptions off;
  off.events.detect_grazing = false;
  const SimulationResult missed = simulate(sys, m, 0.0, vec({0.0}), 5.0, off);
  EXPECT_EQ(missed.events.size(), 0);
}

TEST(EventLocation, SimultaneousGuardsAreBothReportedAndApplied) {
  // A particle heading for the corner (1, 1) of the unit box reaches both walls at t = 1.
  HybridSystem sys;
  const ModeId m = sys.add_mode("free", ode_flow(4, [](const auto&, const auto& s, auto& d) {
                                  d[0] = s[2];
                                  d[1] = s[3];
                                  d[2] = 0.0;
                                  d[3] = 0.0;
                                }));
  sys.add_guard(m, make_guard(
                       "right wall", Direction::Rising,
                       [](const auto&, const auto& s, const auto&) { return s[0] - 1.0; },
                       Reset::to(m, [](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
                         xp = x;
                         xp[2] = -x[2];
                       })));
  sys.add_guard(m, make_guard(
                       "ceiling", Direction::Rising,
                       [](const auto&, const auto& s, const auto&) { return s[1] - 1.0; },
                       Reset::to(m, [](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
                         xp = x;
                         xp[3] = -x[3];
                       })));
  const SimulationResult r = simulate(sys, m, 0.0, vec({0.0, 0.0, 1.0, 1.0}), 1.5);
  ASSERT_TRUE(r.summary.ok()) << r.summary.message;
  ASSERT_EQ(r.events.size(), 2);
  EXPECT_EQ(r.events[0].guard, 0);  // declaration order
  EXPECT_EQ(r.events[1].guard, 1);
  EXPECT_NEAR(r.events[0].t, 1.0, 1e-14);
  EXPECT_EQ(r.events[0].t, r.events[1].t);
  EXPECT_TRUE(r.events[1].chained);
  EXPECT_EQ(r.events[1].j, 2);
  EXPECT_NEAR(r.x_final[0], 0.5, 1e-12);
  EXPECT_NEAR(r.x_final[1], 0.5, 1e-12);
  EXPECT_EQ(r.x_final[2], -1.0);
  EXPECT_EQ(r.x_final[3], -1.0);
}

TEST(EventLocation, ChainedModeSwitchFiresAtTheSameInstant) {
  // Mode a -> b at x = 1; in b a guard is already on its trigger side: it fires at once -> c.
  HybridSystem sys;
  const ModeId a = sys.add_mode("a", clock_flow());
  const ModeId b = sys.add_mode("b", clock_flow());
  const ModeId c = sys.add_mode("c", clock_flow());
  sys.add_guard(
      a, make_guard(
             "to b", Direction::Rising,
             [](const auto&, const auto& x, const auto&) { return x[0] - 1.0; }, Reset::to(b)));
  sys.add_guard(
      b, make_guard(
             "to c", Direction::Rising,
             [](const auto&, const auto& x, const auto&) { return x[0] - 0.5; }, Reset::to(c)));
  const SimulationResult r = simulate(sys, a, 0.0, vec({0.0}), 2.0);
  ASSERT_TRUE(r.summary.ok()) << r.summary.message;
  ASSERT_EQ(r.events.size(), 2);
  EXPECT_EQ(r.events[1].t, r.events[0].t);
  EXPECT_EQ(r.events[1].mode_after, c);
  EXPECT_EQ(r.final_mode, c);
}

TEST(EventLocation, FallingGuardAndStateChosenTarget) {
  // x' = -1 from 1; falling guard p = x - 0.25 at t = 0.75; the reset picks the mode from the
  // state (as an impact law picks the next contact set).
  HybridSystem sys;
  const ModeId down =
      sys.add_mode("down", ode_flow(1, [](const auto&, const auto&, auto& d) { d[0] = -1.0; }));
  const ModeId low = sys.add_mode("low", clock_flow());
  sys.add_guard(down, make_guard(
                          "floor", Direction::Falling,
                          [](const auto&, const auto& x, const auto&) { return x[0] - 0.25; },
                          Reset::chosen([low](double, ConstVectorRef x, ConstVectorRef) {
                            return x[0] < 0.5 ? low : ModeId{0};
                          })));
  const SimulationResult r = simulate(sys, down, 0.0, vec({1.0}), 1.0);
  ASSERT_TRUE(r.summary.ok()) << r.summary.message;
  ASSERT_EQ(r.events.size(), 1);
  EXPECT_NEAR(r.events[0].t, 0.75, 1e-14);
  EXPECT_EQ(r.final_mode, low);
  EXPECT_NEAR(r.x_final[0], 0.5, 1e-12);
}

}  // namespace
}  // namespace saltus

namespace saltus {
namespace {

TEST(EventObserver, SeesEveryEventAndCanStopTheRun) {
  HybridSystem sys;
  const ModeId m = sys.add_mode("clock", clock_flow());
  sys.add_guard(
      m,
      make_guard(
          "tick", Direction::Rising,
          [](const auto&, const auto& x, const auto&) { return x[0] - 1.0; },
          Reset::to(m, [](double, ConstVectorRef, ConstVectorRef, VectorRef xp) { xp[0] = 0.0; })));
  SimulationOptions o;
  o.output.record_events = false;  // the observer works without the event log
  std::vector<double> seen;
  o.on_event = [&](const EventInfo& e) {
    seen.push_back(e.t);
    EXPECT_EQ(e.guard, 0);
    EXPECT_NEAR(e.x_before[0], 1.0, 1e-12);
    EXPECT_EQ(e.x_after[0], 0.0);
    return seen.size() < 3 ? CallbackResult::Continue : CallbackResult::Stop;
  };
  const SimulationResult r = simulate(sys, m, 0.0, vec({0.0}), 10.0, o);
  EXPECT_EQ(r.termination(), Termination::TerminalEvent);
  EXPECT_NE(r.summary.message.find("on_event"), std::string::npos) << r.summary.message;
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_NEAR(seen[2], 3.0, 1e-12);
  EXPECT_EQ(r.events.size(), 0);
  EXPECT_EQ(r.x_final[0], 0.0);  // the reset of the last event was applied
}

TEST(EventLocation, PredictiveStepAndLinearBaselineInTheLoop) {
  HybridSystem sys;
  const ModeId m = sys.add_mode("fall", ode_flow(2, [](const auto&, const auto& x, auto& d) {
                                  d[0] = x[1];
                                  d[1] = -9.81;
                                }));
  sys.add_guard(m, make_guard(
                       "floor", Direction::Rising,
                       [](const auto&, const auto& x, const auto&) { return -x[0]; }, Reset::to(m),
                       /*terminal=*/true));
  const double exact = std::sqrt(2.0 / 9.81);
  // Seed 004's predictive step: the steps shrink as the guard approaches; same event time.
  SimulationOptions pred;
  pred.events.predictive_step = true;
  pred.events.predictive_gamma = 0.2;
  const SimulationResult rp = simulate(sys, m, 0.0, vec({1.0, 0.0}), 2.0, pred);
  SimulationOptions plain;
  const SimulationResult r0 = simulate(sys, m, 0.0, vec({1.0, 0.0}), 2.0, plain);
  ASSERT_EQ(rp.events.size(), 1);
  EXPECT_NEAR(rp.events[0].t, exact, 1e-14);
  EXPECT_GT(rp.summary.stepper.accepted_steps, r0.summary.stepper.accepted_steps);
  EXPECT_NEAR(r0.events[0].t, exact, 1e-14);
}

}  // namespace
}  // namespace saltus

namespace saltus {
namespace {

TEST(ObserverGuard, ReportsEveryApexWithoutAJump) {
  // Elastic bouncing ball (e = 1) with an observer on the apex (v crosses 0 downwards).
  HybridSystem sys;
  const double g = 9.81;
  const ModeId m = sys.add_mode("flight", ode_flow(2, [g](const auto&, const auto& x, auto& d) {
                                  d[0] = x[1];
                                  d[1] = -g;
                                }));
  sys.add_guard(m, make_guard(
                       "impact", Direction::Rising,
                       [](const auto&, const auto& x, const auto&) { return -x[0]; },
                       Reset::to(m, [](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
                         xp[0] = x[0];
                         xp[1] = -x[1];
                       })));
  sys.add_guard(m, make_observer("apex", Direction::Falling,
                                 [](const auto&, const auto& x, const auto&) { return x[1]; }));
  SimulationOptions o;
  o.stepper.rtol = 1e-12;
  o.stepper.atol = 1e-14;
  const double t1 = std::sqrt(2.0 / g);
  const SimulationResult r = simulate(sys, m, 0.0, vec({1.0, 0.0}), 7.5 * t1, o);
  ASSERT_TRUE(r.summary.ok()) << r.summary.message;
  // Impacts at t1, 3 t1, 5 t1, 7 t1; apexes at 0, 2 t1, 4 t1, 6 t1 (the start, v = 0 with v
  // about to become negative, is itself an apex: a guard on its surface moving into the
  // trigger side fires at t0).
  std::vector<double> apex, impact;
  for (long i = 0; i < r.events.size(); ++i) {
    (r.events[i].observation ? apex : impact).push_back(r.events[i].t);
    if (r.events[i].observation) {
      EXPECT_EQ(r.events.x_before(i), r.events.x_after(i));
      EXPECT_NEAR(r.events.x_before(i)[0], 1.0, 1e-12);  // elastic: back at the start height
    }
  }
  ASSERT_EQ(impact.size(), 4u);
  ASSERT_EQ(apex.size(), 4u);
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(apex[k], 2.0 * k * t1, 1e-12);
  EXPECT_EQ(r.summary.jumps, 4);  // observations are not jumps
}

}  // namespace
}  // namespace saltus

namespace saltus {
namespace {

TEST(ProgressCallback, ReportsMonotoneTimesUpToTheEnd) {
  HybridSystem sys;
  const ModeId m = sys.add_mode("clock", clock_flow());
  sys.add_guard(
      m,
      make_guard(
          "tick", Direction::Rising,
          [](const auto&, const auto& x, const auto&) { return x[0] - 1.0; },
          Reset::to(m, [](double, ConstVectorRef, ConstVectorRef, VectorRef xp) { xp[0] = 0.0; })));
  SimulationOptions o;
  std::vector<double> times;
  o.on_progress = [&](double t) { times.push_back(t); };
  const SimulationResult r = simulate(sys, m, 0.0, vec({0.0}), 3.5, o);
  ASSERT_TRUE(r.summary.ok()) << r.summary.message;
  ASSERT_FALSE(times.empty());
  for (size_t i = 1; i < times.size(); ++i) EXPECT_GE(times[i], times[i - 1]);
  EXPECT_EQ(times.back(), 3.5);
}

}  // namespace
}  // namespace saltus
