// Size limits of SimulationOptions (issue 9, item 5): every count above its
// SimulationOptionLimits bound is refused when the Simulator is constructed, with a message
// naming the field, the value and the limit; counts at the limit are accepted.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/sim/simulator.hpp"
#include "saltus/systems/bouncing_ball.hpp"

namespace saltus {
namespace {

using L = SimulationOptionLimits;

struct SizeOption {
  std::string field;
  std::function<void(SimulationOptions&, long long)> set;
  long long limit;
};

std::vector<SizeOption> size_options() {
  return {
      {"events.guard_samples",
       [](SimulationOptions& o, long long v) { o.events.guard_samples = static_cast<int>(v); },
       L::guard_samples},
      {"events.max_events", [](SimulationOptions& o, long long v) { o.events.max_events = v; },
       L::max_events},
      {"events.max_resets_per_instant",
       [](SimulationOptions& o, long long v) {
         o.events.max_resets_per_instant = static_cast<int>(v);
       },
       L::max_resets_per_instant},
      {"events.root.max_evaluations",
       [](SimulationOptions& o, long long v) {
         o.events.root.max_evaluations = static_cast<int>(v);
       },
       L::root_max_evaluations},
      {"events.root.ulps",
       [](SimulationOptions& o, long long v) { o.events.root.ulps = static_cast<int>(v); },
       L::root_ulps},
      {"stepper.max_rejections",
       [](SimulationOptions& o, long long v) { o.stepper.max_rejections = static_cast<int>(v); },
       L::max_rejections},
      {"stepper.newton.max_iterations",
       [](SimulationOptions& o, long long v) {
         o.stepper.newton.max_iterations = static_cast<int>(v);
       },
       L::newton_max_iterations},
      {"zeno.min_gap_count",
       [](SimulationOptions& o, long long v) { o.zeno.min_gap_count = static_cast<int>(v); },
       L::zeno_min_gap_count},
      {"output.reserve_events",
       [](SimulationOptions& o, long long v) { o.output.reserve_events = v; }, L::reserve},
      {"output.reserve_samples",
       [](SimulationOptions& o, long long v) { o.output.reserve_samples = v; }, L::reserve},
  };
}

// Regression: guard_samples = 1e9 reached the event locator and ended in bad_alloc.
TEST(OptionsValidation, EverySizeOptionAboveItsLimitIsRefusedAtConstruction) {
  systems::BouncingBall ball;
  const HybridSystem sys = ball.build();
  for (const SizeOption& option : size_options()) {
    SimulationOptions o;
    option.set(o, option.limit + 1);
    try {
      Simulator sim(sys, o);
      ADD_FAILURE() << option.field << " = limit + 1 was accepted";
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(option.field + " = " + std::to_string(option.limit + 1) +
                             " exceeds the limit of " + std::to_string(option.limit)),
                std::string::npos)
          << message;
    }
    SimulationOptions at_limit;
    option.set(at_limit, option.limit);
    EXPECT_EQ(size_limit_problems(at_limit), "") << option.field;
  }
}

// Regression: huge zeno counts overflowed (cycles + 2) * max_cycle_length in validate().
TEST(OptionsValidation, ZenoCountsAreBoundedBeforeTheyAreMultiplied) {
  SimulationOptions o;
  o.zeno.cycles = 2147483647;
  o.zeno.max_cycle_length = 2;
  const std::string problems = o.validate();
  EXPECT_NE(problems.find("zeno.cycles = 2147483647 exceeds the limit of"), std::string::npos)
      << problems;
  o = SimulationOptions();
  o.zeno.max_cycle_length = L::zeno_max_cycle_length + 1;
  EXPECT_NE(o.validate().find("zeno.max_cycle_length"), std::string::npos) << o.validate();
}

TEST(OptionsValidation, DefaultsAreWithinTheLimits) {
  EXPECT_EQ(size_limit_problems(SimulationOptions()), "");
  EXPECT_EQ(SimulationOptions().validate(), "");
}

}  // namespace
}  // namespace saltus
