// The recorder of a run (src/sim/run_recorder.hpp) without an integrator: sample times, the
// state it records at each, the closing sample and the summary reset.
#include "sim/run_recorder.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

namespace saltus::detail {
namespace {

HybridSystem one_mode() {
  HybridSystem s;
  s.add_mode("m", ode_flow(2, [](const auto&, const auto& x, auto& f) {
               f[0] = x[1];
               f[1] = -x[0];
             }));
  return s;
}

TEST(RunRecorder, SamplesComeFromTheDenseOutputAtTheirTimes) {
  const HybridSystem sys = one_mode();
  OutputOptions o;
  o.sample_times = {0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 2.0};
  RunRecorder rec(o);
  SimulationResult out;
  out.summary.message = "old";
  rec.begin(out, sys, 0.2);  // times before t0 are skipped
  EXPECT_TRUE(out.summary.message.empty());
  EXPECT_EQ(out.summary.t_start, 0.2);
  ASSERT_EQ(out.summary.events_per_guard.size(), 1u);
  Vector x(2), z(0);
  // The "dense output" is (cos t, -sin t); a step from 0.2 to 0.8 records 0.25, 0.5, 0.75.
  rec.samples_until(0.8, 0, 0, [&](double t) {
    x << std::cos(t), -std::sin(t);
    return std::pair<ConstVectorRef, ConstVectorRef>{x, z};
  });
  ASSERT_EQ(out.trajectory.size(), 3);
  const double want[] = {0.25, 0.5, 0.75};
  for (long i = 0; i < 3; ++i) {
    EXPECT_EQ(out.trajectory.t(i), want[i]);
    EXPECT_EQ(out.trajectory.x(i)[0], std::cos(want[i]));
  }
  // The state at t itself covers the times up to t; samples_before stops short of t.
  Vector at(2);
  at << 5.0, 6.0;
  rec.samples_before(1.0, 1, 0, at, z);
  EXPECT_EQ(out.trajectory.size(), 3);  // 1.0 is not before 1.0
  rec.samples_at(1.0, 1, 0, at, z);
  ASSERT_EQ(out.trajectory.size(), 4);
  EXPECT_EQ(out.trajectory.t(3), 1.0);
  EXPECT_EQ(out.trajectory.x(3)[1], 6.0);
  // A run that stops at 1.5 closes the trajectory with its end state; one that reached t_end
  // does not.
  out.summary.termination = Termination::EndTimeReached;
  rec.close(1.5, 1, 0, at, z);
  EXPECT_EQ(out.trajectory.size(), 4);
  out.summary.termination = Termination::TerminalEvent;
  rec.close(1.5, 1, 0, at, z);
  ASSERT_EQ(out.trajectory.size(), 5);
  EXPECT_EQ(out.trajectory.t(4), 1.5);
}

TEST(RunRecorder, EventsAndStepsOnlyWhenAsked) {
  const HybridSystem sys = one_mode();
  OutputOptions o;
  o.record_events = false;
  o.record_steps = false;
  RunRecorder rec(o);
  SimulationResult out;
  rec.begin(out, sys, 0.0);
  Vector x = Vector::Zero(2), z(0);
  EventRecord r;
  rec.event(r, x, z, x, z, z);
  rec.step(0.5, 0, 0, x, z);
  EXPECT_EQ(out.events.size(), 0);
  EXPECT_EQ(out.trajectory.size(), 0);
  o.record_events = o.record_steps = true;
  rec.begin(out, sys, 0.0);
  rec.event(r, x, z, x, z, z);
  rec.step(0.5, 0, 0, x, z);
  EXPECT_EQ(out.events.size(), 1);
  EXPECT_EQ(out.trajectory.size(), 1);
}

}  // namespace
}  // namespace saltus::detail
