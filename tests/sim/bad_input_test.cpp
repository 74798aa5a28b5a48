// Bad input ends in a clear error (saltus::Error before the run) or a Termination with a
// message naming the mode, the guard, the time and the offending value (issue 2, "Bad input").
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "saltus/core/error.hpp"
#include "saltus/sim/csv_writer.hpp"
#include "saltus/sim/simulator.hpp"
#include "saltus/systems/bouncing_ball.hpp"
#include "support/vectors.hpp"

namespace saltus {
namespace {

using saltus::testing::vec;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

Flow clock() {
  return ode_flow(1, [](const auto&, const auto&, auto& d) { d[0] = 1.0; });
}

TEST(BadInput, FlowProducingNaN) {
  HybridSystem sys;
  const ModeId m = sys.add_mode("sqrt-flow", ode_flow(1, [](const auto&, const auto& x, auto& d) {
                                  using std::sqrt;
                                  d[0] = -sqrt(x[0]);  // NaN once x < 0
                                }));
  const SimulationResult r = simulate(sys, m, 0.0, vec({-1.0}), 1.0);
  EXPECT_EQ(r.termination(), Termination::NonFiniteState);
  EXPECT_TRUE(contains(r.summary.message, "sqrt-flow")) << r.summary.message;
  EXPECT_TRUE(contains(r.summary.message, "t = 0")) << r.summary.message;
}

TEST(BadInput, GuardProducingNaN) {
  HybridSystem sys;
  const ModeId m = sys.add_mode("clock", clock());
  sys.add_guard(m, make_guard(
                       "bad-guard", Direction::Rising,
                       [](const auto&, const auto& x, const auto&) {
                         using std::log;
                         return log(1.0 - x[0]) - 10.0;  // NaN beyond x = 1
                       },
                       Reset::to(m)));
  const SimulationResult r = simulate(sys, m, 0.0, vec({0.0}), 2.0);
  EXPECT_EQ(r.termination(), Termination::NonFiniteState);
  EXPECT_TRUE(contains(r.summary.message, "bad-guard")) << r.summary.message;
  EXPECT_TRUE(contains(r.summary.message, "clock")) << r.summary.message;
}

TEST(BadInput, ResetProducingNaN) {
  HybridSystem sys;
  const ModeId m = sys.add_mode("clock", clock());
  sys.add_guard(m, make_guard(
                       "at-one", Direction::Rising,
                       [](const auto&, const auto& x, const auto&) { return x[0] - 1.0; },
                       Reset::to(m, [](double, ConstVectorRef, ConstVectorRef, VectorRef xp) {
                         xp[0] = std::nan("");
                       })));
  const SimulationResult r = simulate(sys, m, 0.0, vec({0.0}), 2.0);
  EXPECT_EQ(r.termination(), Termination::NonFiniteState);
  EXPECT_TRUE(contains(r.summary.message, "at-one")) << r.summary.message;
  EXPECT_TRUE(contains(r.summary.message, "t = 1")) << r.summary.message;
}

TEST(BadInput, SingularAlgebraicEquationInitially) {
  // 0 = z^2 + 1 has no real solution: Newton cannot make the initial state consistent.
  HybridSystem sys;
  const ModeId m = sys.add_mode(
      "no-root",
      semi_explicit_flow(
          1, 1, [](const auto&, const auto&, const auto& z, auto& d) { d[0] = z[0]; },
          [](const auto&, const auto&, const auto& z, auto& g) { g[0] = z[0] * z[0] + 1.0; }));
  const SimulationResult r = simulate(sys, m, 0.0, vec({0.0}), 1.0, {}, vec({0.0}));
  EXPECT_EQ(r.termination(), Termination::NewtonFailure);
  EXPECT_TRUE(contains(r.summary.message, "no-root")) << r.summary.message;
  EXPECT_TRUE(contains(r.summary.message, "residual")) << r.summary.message;
}

// 0 = z^2 - c(x) with c = -1 on a short window of x (no real z) and +1 elsewhere, x' = 1, steps of
// 0.1: the integrator's stages (t + {0, 0.2, 0.3, 0.8, 8/9, 1} h) never fall in the window, but
// a guard sample (t + {0.2, 0.4, 0.6, 0.8} h) or the root finder does. The guard value read there
// would use an algebraic state that solves nothing; the run stops instead, naming the time.
SimulationResult run_with_unsolvable_window(double from, double to, double crossing) {
  // The guard x^2 - crossing^2 is curved, so the root finder's first (secant) probe between the
  // samples lies off the crossing.
  HybridSystem sys;
  const ModeId m = sys.add_mode(
      "window", semi_explicit_flow(
                    1, 1, [](const auto&, const auto&, const auto&, auto& d) { d[0] = 1.0; },
                    [from, to](const auto&, const auto& x, const auto& z, auto& g) {
                      const double xv = value_of(x[0]);
                      const double c = xv > from && xv < to ? -1.0 : 1.0;
                      g[0] = z[0] * z[0] - c;
                    }));
  sys.add_guard(m, make_observer(
                       "crossing", Direction::Rising,
                       [crossing](const auto&, const auto& x, const auto&) {
                         return x[0] * x[0] - crossing * crossing;
                       },
                       true));
  SimulationOptions o;
  o.stepper.h_initial = o.stepper.h_max = 0.1;
  return simulate(sys, m, 0.0, vec({0.0}), 1.0, o, vec({1.0}));
}

TEST(BadInput, AlgebraicSolveFailingAtAGuardSampleIsAStatus) {
  const SimulationResult r = run_with_unsolvable_window(0.539, 0.541, 0.9);  // sample at 0.54
  ASSERT_EQ(r.termination(), Termination::NewtonFailure) << r.summary.message;
  EXPECT_TRUE(contains(r.summary.message, "'window'")) << r.summary.message;
  EXPECT_TRUE(contains(r.summary.message, "t = 0.54")) << r.summary.message;
  EXPECT_TRUE(r.events.empty());
}

TEST(BadInput, AlgebraicSolveFailingWhileLocatingAnEventIsAStatus) {
  // The crossing at 0.615 lies between the samples 0.6 and 0.62. The secant through them probes
  // 0.6 + 0.02 (0.615^2 - 0.36) / (0.62^2 - 0.36) = 0.614939; the window holds that probe but
  // neither the crossing nor a sample or stage, so only the root finder reads it.
  const SimulationResult r = run_with_unsolvable_window(0.6149, 0.61499, 0.615);
  ASSERT_EQ(r.termination(), Termination::NewtonFailure) << r.summary.message;
  EXPECT_TRUE(contains(r.summary.message, "t = 0.6149")) << r.summary.message;
  EXPECT_TRUE(r.events.empty());  // no event located with a value read there
}

TEST(BadInput, ReinitialisationFailsAfterReset) {
  // After the reset the target mode's 0 = z^2 + x has no root for x = 1 (x > 0).
  HybridSystem sys;
  const ModeId a = sys.add_mode("a", clock());
  const ModeId b = sys.add_mode(
      "b",
      semi_explicit_flow(
          1, 1, [](const auto&, const auto&, const auto&, auto& d) { d[0] = 1.0; },
          [](const auto&, const auto& x, const auto& z, auto& g) { g[0] = z[0] * z[0] + x[0]; }));
  sys.add_guard(
      a, make_guard(
             "switch", Direction::Rising,
             [](const auto&, const auto& x, const auto&) { return x[0] - 1.0; }, Reset::to(b)));
  const SimulationResult r = simulate(sys, a, 0.0, vec({0.0}), 2.0);
  EXPECT_EQ(r.termination(), Termination::NewtonFailure);
  EXPECT_TRUE(contains(r.summary.message, "switch")) << r.summary.message;
  EXPECT_TRUE(contains(r.summary.message, "'b'")) << r.summary.message;
}

TEST(BadInput, ResetChoosingUnknownMode) {
  HybridSystem sys;
  const ModeId m = sys.add_mode("clock", clock());
  sys.add_guard(
      m, make_guard(
             "chooser", Direction::Rising,
             [](const auto&, const auto& x, const auto&) { return x[0] - 1.0; },
             Reset::chosen([](double, ConstVectorRef, ConstVectorRef) { return ModeId{7}; })));
  const SimulationResult r = simulate(sys, m, 0.0, vec({0.0}), 2.0);
  EXPECT_EQ(r.termination(), Termination::InvalidInput);
  EXPECT_TRUE(contains(r.summary.message, "unknown mode id 7")) << r.summary.message;
}

TEST(BadInput, FixedResetToUnknownModeIsRejectedBeforeTheRun) {
  HybridSystem sys;
  const ModeId m = sys.add_mode("clock", clock());
  sys.add_guard(
      m, make_guard(
             "g", Direction::Rising,
             [](const auto&, const auto& x, const auto&) { return x[0] - 1.0; }, Reset::to(3)));
  try {
    Simulator sim(sys, SimulationOptions{});
    FAIL() << "expected saltus::Error";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "guard 'g'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "unknown mode id 3")) << e.what();
  }
}

TEST(BadInput, InitialStateOnTheTriggerSide) {
  systems::BouncingBall ball;
  const HybridSystem sys = ball.build();
  const SimulationResult r = simulate(sys, ball.flight, 0.0, vec({-0.5, 0.0}), 1.0);
  EXPECT_EQ(r.termination(), Termination::InvalidInput);
  EXPECT_TRUE(contains(r.summary.message, "impact")) << r.summary.message;
  EXPECT_TRUE(contains(r.summary.message, "p = 0.5")) << r.summary.message;
}

TEST(BadInput, NonPositiveTolerancesAndBadOptions) {
  systems::BouncingBall ball;
  const HybridSystem sys = ball.build();
  SimulationOptions o;
  o.stepper.rtol = 0.0;
  o.stepper.atol = -1.0;
  o.events.guard_samples = -2;
  try {
    Simulator sim(sys, o);
    FAIL() << "expected saltus::Error";
  } catch (const Error& e) {
    // Every problem is listed, not just the first.
    EXPECT_TRUE(contains(e.what(), "rtol = 0")) << e.what();
    EXPECT_TRUE(contains(e.what(), "atol = -1")) << e.what();
    EXPECT_TRUE(contains(e.what(), "guard_samples = -2")) << e.what();
  }
}

TEST(BadInput, WrongStateSize) {
  systems::BouncingBall ball;
  const HybridSystem sys = ball.build();
  EXPECT_THROW(simulate(sys, ball.flight, 0.0, vec({1.0, 0.0, 3.0}), 1.0), Error);
}

TEST(BadInput, EventCapEndsTheRunWithAStatus) {
  systems::BouncingBall ball;
  ball.e = 1.0;  // periodic: never Zeno
  const HybridSystem sys = ball.build();
  SimulationOptions o;
  o.events.max_events = 5;
  const SimulationResult r = simulate(sys, ball.flight, 0.0, vec({1.0, 0.0}), 100.0, o);
  EXPECT_EQ(r.termination(), Termination::EventCap);
  EXPECT_TRUE(contains(r.summary.message, "max_events = 5")) << r.summary.message;
  EXPECT_EQ(r.events.size(), 5);
}

TEST(CsvOutput, WritesAtomicallyAndRoundTrips) {
  systems::BouncingBall ball;
  const HybridSystem sys = ball.build();
  SimulationOptions o;
  o.output.sample_times = {0.0, 0.25, 0.5};
  const SimulationResult r = simulate(sys, ball.flight, 0.0, vec({1.0, 0.0}), 0.5, o);
  const auto dir = std::filesystem::temp_directory_path() / "saltus_csv_test";
  std::filesystem::create_directories(dir);
  CsvColumns columns;
  columns.x_names = {"x", "v"};
  columns.z_names = {"lambda"};
  write_file_atomically(dir / "trajectory.csv", trajectory_csv(sys, r, columns));
  write_file_atomically(dir / "events.csv", events_csv(sys, r));
  EXPECT_FALSE(std::filesystem::exists(dir / "trajectory.csv.tmp"));
  std::ifstream in(dir / "trajectory.csv");
  std::string header, row;
  std::getline(in, header);
  EXPECT_EQ(header, "t,j,mode,x,v,lambda");
  std::getline(in, row);
  EXPECT_EQ(row, "0,0,flight,1,0,");
  std::ifstream ev(dir / "events.csv");
  std::getline(ev, header);
  EXPECT_TRUE(contains(header, "x0_before")) << header;
  EXPECT_TRUE(contains(header, ",impulse,energy_change")) << header;
  // A folder that does not exist: a clear error and no file left behind.
  const auto missing = dir / "no" / "such" / "folder" / "out.csv";
  EXPECT_THROW(write_file_atomically(missing, "x"), Error);
  EXPECT_FALSE(std::filesystem::exists(missing));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace saltus
