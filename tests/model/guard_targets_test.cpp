// State-chosen reset targets ([[modes.M.guards.targets]]): the first target whose `when` holds
// at the pre-event state is taken; none holding stops the run with a status naming the guard,
// the mode and the state; malformed target lists are refused with file:line and cause.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

// A particle meeting a potential step of height dV at x = 1: it crosses with the speed that
// keeps its energy when it can (v^2 >= 2 dV), else it is reflected. The flows are free, so the
// event time is 1 / v0 and the post-event state is closed-form.
constexpr const char* kStep = R"toml([parameters]
v0 = 1.0
dV = 0.3
[states]
x = 0.0
v = "v0"
[initial]
mode = "low"
[modes.low]
flow = ["x' = v", "v' = 0"]
[[modes.low.guards]]
name = "step"
value = "x - 1"
[[modes.low.guards.targets]]
target = "high"
when = "v^2 >= 2*dV"
reset = ["v = sqrt(v^2 - 2*dV)"]
[[modes.low.guards.targets]]
reset = ["v = -v"]
[modes.high]
flow = ["x' = v", "v' = 0"]
[solver]
t_end = 1.0
)toml";

std::shared_ptr<const Model> step_model(double v0, double dV, double t_end,
                                        const std::string& text = kStep) {
  return std::make_shared<const Model>(load_model_text(
      text, "step.toml",
      {"v0=" + std::to_string(v0), "dV=" + std::to_string(dV), "t_end=" + std::to_string(t_end)}));
}

TEST(GuardTargets, FirstTargetWhoseConditionHoldsIsTaken) {
  std::mt19937 rng(20261124);
  std::uniform_real_distribution<double> speed(0.3, 2.0), height(0.05, 1.5);
  int crossed = 0, reflected = 0;
  for (int trial = 0; trial < 40; ++trial) {
    auto m = step_model(speed(rng), height(rng), 1.0);
    const double v0 = m->parameters[0].value, dV = m->parameters[1].value;  // as loaded
    const double t1 = 1.0 / v0;
    auto timed = step_model(v0, dV, t1 + 0.25);
    const ModelRun run = run_model(timed);
    ASSERT_TRUE(run.succeeded()) << run.message();
    const EventLog& log = run.result.events;
    ASSERT_EQ(log.size(), 1) << "v0 = " << v0 << ", dV = " << dV;
    // Free flight at rtol 1e-8: the event time to ~1e-12 relative (the guard is linear in t).
    EXPECT_NEAR(log[0].t, t1, 1e-9 * t1);
    const double v_after = log.x_after(0)[1];
    if (v0 * v0 >= 2 * dV) {
      ++crossed;
      EXPECT_EQ(run.system.mode(log[0].mode_after).name, "high");
      EXPECT_NEAR(v_after, std::sqrt(v0 * v0 - 2 * dV), 1e-12);
      EXPECT_NEAR(0.5 * v_after * v_after + dV, 0.5 * v0 * v0, 1e-12);  // energy of each side
    } else {
      ++reflected;
      EXPECT_EQ(run.system.mode(log[0].mode_after).name, "low");
      EXPECT_EQ(v_after, -v0);
    }
  }
  EXPECT_GT(crossed, 5);  // both branches are exercised by the seeded draws
  EXPECT_GT(reflected, 5);
}

TEST(GuardTargets, NoConditionHoldingIsAStatusNamingGuardModeAndState) {
  std::string text = kStep;
  // Drop the unconditional reflection: a slow particle now has no target.
  text.replace(text.find("[[modes.low.guards.targets]]\nreset"),
               std::string("[[modes.low.guards.targets]]\nreset = [\"v = -v\"]\n").size(),
               "[[modes.low.guards.targets]]\nwhen = \"v < 0\"\n");
  const ModelRun run = run_model(step_model(0.5, 1.0, 3.0, text));
  EXPECT_FALSE(run.succeeded());
  EXPECT_EQ(run.result.termination(), Termination::ResetFailed);
  const std::string msg = run.message();
  for (const char* part :
       {"guard 'step'", "mode 'low'", "t = 2", "v^2 >= 2*dV", "v < 0", "x = 1", "v = 0.5"}) {
    EXPECT_NE(msg.find(part), std::string::npos) << part << " missing from: " << msg;
  }
}

TEST(GuardTargets, MalformedTargetListsNameFileLineAndCause) {
  const std::string head =
      "[states]\nx = 0.0\nv = 1.0\n[modes.a]\nflow = [\"x' = v\", \"v' = 0\"]\n"
      "[[modes.a.guards]]\nname = \"g\"\nvalue = \"x - 1\"\n";
  const std::string tail = "[modes.b]\nflow = [\"x' = v\", \"v' = 0\"]\n[solver]\nt_end = 1.0\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"[[modes.a.guards.targets]]\nwhen = \"v\"\ntarget = \"b\"\n", "is not a condition"},
      {"[[modes.a.guards.targets]]\ntarget = \"b\"\n[[modes.a.guards.targets]]\nwhen = \"v > 0\"\n",
       "could never be taken"},
      {"target = \"b\"\n[[modes.a.guards.targets]]\nwhen = \"v > 0\"\n",
       "'targets' and also 'target'"},
      {"[[modes.a.guards.targets]]\nwhen = \"v > 0\"\ntarget = \"c\"\n", "unknown mode 'c'"},
      {"[[modes.a.guards.targets]]\nwhen = \"w > 0\"\n", "unknown symbol 'w'"},
      {"[[modes.a.guards.targets]]\nwhen = 1\n", "expected a condition"},
      {"[[modes.a.guards.targets]]\nwhen = \"v > 0\"\nif = \"v\"\n", "unknown key 'if'"},
      {"targets = 3\n", "expected a non-empty array"},
  };
  for (const auto& [text, cause] : cases)
    saltus::testing::expect_load_refused(head + text + tail, cause);
}

}  // namespace
}  // namespace saltus::model
