// "Nothing may allocate memory in the step or event path" (DESIGN.md): once a Simulator and its
// result have been used, further runs make no heap allocation at all, whether they have 10
// impacts or 57: integration, event location, resets, event logging and the summary reuse
// their buffers.
#include <gtest/gtest.h>

#include "saltus/sim/simulator.hpp"
#include "saltus/systems/bouncing_ball.hpp"
#include "support/malloc_counter.hpp"

namespace saltus {
namespace {

long allocations_for_run(Simulator& sim, ModeId mode, double t_end, SimulationResult& r) {
  Vector x0(2);
  x0 << 1.0, 0.0;
  const long before = testing::malloc_calls();
  sim.run(mode, 0.0, x0, Vector(), t_end, r);
  return testing::malloc_calls() - before;
}

TEST(NoAllocation, EventPathDoesNotAllocate) {
  if (!testing::kCountsMalloc) GTEST_SKIP() << "malloc counting needs glibc without sanitizers";
  systems::BouncingBall ball;
  ball.with_rest_mode = false;
  const HybridSystem sys = ball.build();
  SimulationOptions o;
  o.stepper.rtol = 1e-12;
  o.stepper.atol = 1e-14;
  o.output.reserve_events = 200;
  Simulator sim(sys, o);
  SimulationResult r;
  allocations_for_run(sim, ball.flight, 4.0, r);  // warm-up: sizes the result's buffers
  const long few = allocations_for_run(sim, ball.flight, 3.66, r);
  const long few_events = r.events.size();
  const long many = allocations_for_run(sim, ball.flight, 4.0637, r);
  const long many_events = r.events.size();
  ASSERT_GE(many_events, few_events + 40) << r.summary.message;
  EXPECT_EQ(few, 0) << few_events << " events";
  EXPECT_EQ(many, 0) << many_events << " events";
}

}  // namespace
}  // namespace saltus
