// A mode's flow_set and jump_set (HyEQ's C and D, issue 47 item 1; docs/MODEL_FORMAT.md "Flow and
// jump sets"): HyEQ's bouncing ball and thermostat (models/hyeq_*.toml) against their closed
// forms for seeded random parameters, in other units and started at t0 = 1e6 and 1e9; a start
// inside D jumps first; a corner of D is one jump; a state leaving C outside D stops the run naming
// both sets; flow priority; a seeded randomized run never leaves C u D; bad input at its line.
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

using saltus::testing::expect_load_refused;
using saltus::testing::models_dir;
using saltus::testing::num;

ModelRun run_file(const std::string& file, const std::vector<std::string>& set) {
  return run_model(std::make_shared<const Model>(load_model_file(models_dir() / file, set)));
}

ModelRun run_text(const std::string& text) {
  return run_model(std::make_shared<const Model>(load_model_text(text, "sets.toml")));
}

std::string guard_name(const ModelRun& r, long k) {
  const EventRecord& e = r.result.events[k];
  return r.system.mode(e.mode_before).guards[static_cast<size_t>(e.guard)].name;
}

// The ball's jump times: it lands at t_1 = sqrt(2 h0/g) and again 2 lambda^k s/g after its k-th
// jump (s = g t_1), from a start at t0.
std::vector<double> ball_jumps(double g, double lambda, double h0, double t0, double t_end) {
  std::vector<double> t;
  double at = t0 + std::sqrt(2.0 * h0 / g), speed = std::sqrt(2.0 * g * h0);
  while (at < t_end) {
    t.push_back(at);
    speed *= lambda;
    at += 2.0 * speed / g;
  }
  return t;
}

TEST(HybridSets, HyEQsBouncingBallJumpsAtItsClosedFormTimes) {
  std::mt19937_64 rng(471);
  std::uniform_real_distribution<double> height(0.1, 10.0), restitution(0.3, 0.9),
      gravity(1.0, 20.0);
  double worst = 0.0;
  for (int draw = 0; draw < 8; ++draw) {
    const double h0 = height(rng), lambda = restitution(rng), g = gravity(rng);
    const double T = std::sqrt(2.0 * h0 / g);
    // 12 jumps' worth of time, before the accumulation at T (1 + lambda)/(1 - lambda).
    const double t_zeno = T * (1.0 + lambda) / (1.0 - lambda);
    const double horizon = T * (1.0 + 2.0 * lambda * (1.0 - std::pow(lambda, 11)) / (1.0 - lambda));
    const double margin = std::pow(lambda, 12) * T;  // half the 13th flight
    ASSERT_LT(horizon, t_zeno);
    // In metres and seconds, in millimetres and milliseconds, and started at t0 = 1e6 units.
    for (const auto& [mm, t0] :
         std::vector<std::pair<double, double>>{{1, 0}, {1e3, 0}, {1, 1e6}, {1, 1e9}}) {
      SCOPED_TRACE("draw " + std::to_string(draw) + " scale " + num(mm) + " t0 " + num(t0));
      const ModelRun r =
          run_file("hyeq_bouncing_ball.toml",
                   {"gamma=" + num(g / mm), "lambda=" + num(lambda), "h0=" + num(h0 * mm),
                    "initial.t=" + num(t0), "t_end=" + num(t0 + (horizon + margin) * mm)});
      ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
      const std::vector<double> expected = ball_jumps(g, lambda, h0, 0.0, horizon + margin);
      ASSERT_EQ(expected.size(), 12u);
      ASSERT_EQ(r.result.events.size(), 12);
      for (long k = 0; k < 12; ++k) {
        EXPECT_EQ(guard_name(r, k), "jump.1");  // D's boundary x1 = 0 (jump.2: x2 = 0)
        const double t = (r.result.events[k].t - t0) / mm;
        const double tol = 1e-10 * T + 4e-16 * t0 / mm;  // and the clock's resolution at t0
        EXPECT_NEAR(t, expected[static_cast<size_t>(k)], tol) << "jump " << k + 1;
        if (t0 == 0) worst = std::max(worst, std::abs(t - expected[static_cast<size_t>(k)]) / T);
      }
    }
  }
  std::printf("HyEQ bouncing ball: 8 drops, 12 jumps each: worst jump time %.2g T\n", worst);
}

// The thermostat's jump times from z0 with the heater q0: heating to z_max takes
// tau ln((z_h - z)/(z_h - z_max)), cooling to z_min tau ln((z - z_o)/(z_min - z_o)).
std::vector<double> thermostat_jumps(double tau, double z_o, double z_delta, double z_min,
                                     double z_max, double z, int q, double t_end) {
  std::vector<double> t;
  const double z_h = z_o + z_delta;
  double at = 0.0;
  // A start inside D jumps at once.
  if ((q == 1 && z >= z_max) || (q == 0 && z <= z_min)) {
    t.push_back(0.0);
    q = 1 - q;
  }
  while (true) {
    at += q == 1 ? tau * std::log((z_h - z) / (z_h - z_max))
                 : tau * std::log((z - z_o) / (z_min - z_o));
    if (at >= t_end) return t;
    t.push_back(at);
    z = q == 1 ? z_max : z_min;
    q = 1 - q;
  }
}

TEST(HybridSets, HyEQsThermostatSwitchesAtItsClosedFormTimesAndAStartInDJumpsFirst) {
  std::mt19937_64 rng(472);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  double worst = 0.0;
  for (int draw = 0; draw < 8; ++draw) {
    const double tau = 0.2 + 2.0 * unit(rng), z_o = 270.0 + 10.0 * unit(rng);
    const double z_min = z_o + 2.0 + 10.0 * unit(rng), z_max = z_min + 1.0 + 5.0 * unit(rng);
    const double z_delta = z_max - z_o + 1.0 + 20.0 * unit(rng);
    // Starts between the thresholds (both heater states), above z_max with the heater on and
    // below z_min with it off (inside D: they jump at t0).
    const double z0s[] = {z_min + (z_max - z_min) * unit(rng), z_max + 3.0 * unit(rng) + 0.5,
                          z_min - 0.5 - z_min * 0.001 * unit(rng)};
    for (int s = 0; s < 3; ++s) {
      const int q0 = s == 0 ? draw % 2 : s == 1 ? 1 : 0;
      const double t_end = 6.0 * tau;
      SCOPED_TRACE("draw " + std::to_string(draw) + " start " + std::to_string(s));
      const ModelRun r = run_file(
          "hyeq_thermostat.toml",
          {"tau=" + num(tau), "z_o=" + num(z_o), "z_delta=" + num(z_delta), "z_min=" + num(z_min),
           "z_max=" + num(z_max), "z=" + num(z0s[s]), "q=" + num(q0), "t_end=" + num(t_end)});
      ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
      const std::vector<double> expected =
          thermostat_jumps(tau, z_o, z_delta, z_min, z_max, z0s[s], q0, t_end);
      ASSERT_GE(expected.size(), 4u);
      ASSERT_EQ(r.result.events.size(), static_cast<long>(expected.size()));
      if (s > 0) {
        EXPECT_EQ(r.result.events[0].t, 0.0);  // inside D at t0: jumps first
      }
      // Each switch is located where z, known to rtol |z| (rtol = 1e-12 in the file; z near
      // 290 K), meets its threshold at the rate z' there: the times drift by about
      // rtol |z| / |z'| per switch.
      const double rate = std::min(z_o + z_delta - z_max, z_min - z_o) / tau;
      const double per_switch = 10.0 * 1e-12 * z_max / rate;
      int q = q0;
      for (long k = 0; k < r.result.events.size(); ++k) {
        EXPECT_NEAR(r.result.events[k].t, expected[static_cast<size_t>(k)],
                    1e-10 * tau + static_cast<double>(k + 1) * per_switch)
            << "jump " << k + 1;
        worst = std::max(worst,
                         std::abs(r.result.events[k].t - expected[static_cast<size_t>(k)]) / tau);
        q = 1 - q;
        EXPECT_EQ(r.result.events.x_after(k)[1], q);  // the heater switched once per jump
      }
    }
  }
  std::printf("HyEQ thermostat: 24 runs: worst switch time %.2g tau\n", worst);
}

TEST(HybridSets, HyEQsTimerExpiresEveryPeriodOver1000Periods) {
  std::mt19937_64 rng(474);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int draw = 0; draw < 6; ++draw) {
    const double T = std::pow(10.0, -3.0 + 4.0 * unit(rng)),
                 t0 = draw == 5 ? 1e6 : 10.0 * unit(rng);
    // A start at tau0 = T is inside D: it expires at t0.
    const double tau0 = draw == 0 ? T : T * unit(rng);
    SCOPED_TRACE("T = " + num(T) + " tau0 = " + num(tau0) + " t0 = " + num(t0));
    const ModelRun r =
        run_file("hyeq_timer.toml", {"T=" + num(T), "tau=" + num(tau0), "initial.t=" + num(t0),
                                     "t_end=" + num(t0 + 1000.5 * T - tau0)});
    ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
    ASSERT_EQ(r.result.events.size(), 1000);  // with tau0 = T the first at t0 + T - tau0 = t0
    for (long k = 0; k < r.result.events.size(); ++k) {
      const double expected = t0 + static_cast<double>(k + 1) * T - tau0;
      EXPECT_NEAR(r.result.events[k].t, expected, 1e-9 * T + 4e-16 * t0) << "jump " << k;
      EXPECT_EQ(r.result.events.x_after(k)[1], static_cast<double>(k + 1));  // n
    }
  }
}

const char* kTimers = R"(
[parameters]
T = 1.0
[states]
a = 0.0
b = 0.0
[discrete]
n = 0
[modes.m]
flow = ["a' = 1", "b' = 1"]
jump_set = "a >= T && b >= T"
jump = ["a = 0", "b = 0", "n = n + 1"]
[solver]
t_end = 3.5
)";

TEST(HybridSets, ACornerOfTheJumpSetIsOneJump) {
  // a and b reach T together: both boundaries of D are crossed at one instant, one jump.
  const ModelRun r = run_text(kTimers);
  ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
  ASSERT_EQ(r.result.events.size(), 3);
  for (long k = 0; k < 3; ++k) {
    EXPECT_NEAR(r.result.events[k].t, static_cast<double>(k + 1), 1e-12);
    EXPECT_EQ(r.result.events.x_after(k)[2], static_cast<double>(k + 1));  // n: one per instant
  }
}

std::string ball(const std::string& sets, const std::string& start = "x = 1.0\nv = 0.0") {
  return std::string(R"(
[parameters]
g = 9.81
[states]
)") + start +
         R"(
[modes.ball]
flow = ["x' = v", "v' = -g"]
)" + sets +
         R"(
jump = ["v = -0.5*v"]
[solver]
t_end = 2.0
rtol = 1e-12
atol = 1e-12
)";
}

TEST(HybridSets, LeavingTheFlowSetOutsideTheJumpSetStopsTheRunNamingBoth) {
  // D holds only beyond 100 m/s: the ball leaves C = {x >= 0} at 4.4 m/s outside D.
  const ModelRun r = run_text(ball("flow_set = \"x >= 0\"\njump_set = \"x <= 0 && v <= -100\""));
  EXPECT_EQ(r.result.termination(), Termination::ResetFailed);
  EXPECT_FALSE(r.succeeded());
  EXPECT_NEAR(r.result.summary.t_final, std::sqrt(2.0 / 9.81), 1e-10);
  const std::string m = r.message();
  EXPECT_NE(m.find("leaves flow_set 'x >= 0' (sets.toml line 9) outside jump_set "
                   "'x <= 0 && v <= -100' (sets.toml line 10)"),
            std::string::npos)
      << m;
  // A start outside both: stopped at t0.
  const ModelRun s =
      run_text(ball("flow_set = \"x >= 0\"\njump_set = \"x <= 0 && v <= 0\"", "x = -1.0\nv = 1.0"));
  EXPECT_EQ(s.result.termination(), Termination::ResetFailed);
  EXPECT_EQ(s.result.summary.t_final, 0.0);
  EXPECT_NE(s.message().find("HyEQ's solution ends here"), std::string::npos) << s.message();
  // On C's boundary moving in, a start is inside C: it flows.
  const ModelRun u =
      run_text(ball("flow_set = \"x >= 0\"\njump_set = \"x <= 0 && v <= 0\"", "x = 0.0\nv = 1.0"));
  // It bounces (e = 0.5) until the jumps accumulate at (2 v/g)/(1 - e): HyEQ's Zeno solution.
  EXPECT_EQ(u.result.termination(), Termination::Zeno) << u.message();
  EXPECT_NEAR(u.result.summary.zeno_time, 2.0 * 2.0 / 9.81, 1e-8);
  ASSERT_GE(u.result.events.size(), 1);
  EXPECT_NEAR(u.result.events[0].t, 2.0 / 9.81, 1e-10);  // back down at 1 m/s
}

TEST(HybridSets, FlowPriorityFlowsThroughTheJumpSetUntilItLeavesTheFlowSet) {
  // D = {x <= 0.5, v <= 0} overlaps C = {x >= 0}: jumps first reach D at x = 0.5, flows first
  // jump where the ball leaves C (x = 0), inside D.
  const std::string sets = "flow_set = \"x >= 0\"\njump_set = \"x <= 0.5 && v <= 0\"\n";
  const ModelRun jump = run_text(ball(sets));
  const ModelRun flow = run_text(ball(sets + "priority = \"flow\""));
  ASSERT_GE(jump.result.events.size(), 1);
  ASSERT_GE(flow.result.events.size(), 1);
  EXPECT_NEAR(jump.result.events[0].t, std::sqrt(2.0 * 0.5 / 9.81), 1e-10);
  EXPECT_NEAR(flow.result.events[0].t, std::sqrt(2.0 / 9.81), 1e-10);
  EXPECT_NEAR(flow.result.events.x_after(0)[1], 0.5 * std::sqrt(2.0 * 9.81), 1e-9);
  // With flow priority a start in C n D flows; with jump priority it jumps at t0.
  const std::string inside = "x = 0.3\nv = 0.0";
  EXPECT_EQ(run_text(ball(sets, inside)).result.events[0].t, 0.0);
  EXPECT_GT(run_text(ball(sets + "priority = \"flow\"", inside)).result.events[0].t, 0.1);
}

TEST(HybridSets, RandomStartsNeverLeaveTheFlowAndJumpSets) {
  // Seeded random starts and sets of a ball with a wall: every run ends with a status; where it
  // succeeds, every sample lies in C u D (to the solver's tolerance).
  std::mt19937_64 rng(473);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int succeeded = 0, failed = 0;
  for (int draw = 0; draw < 30; ++draw) {
    const double x0 = 2.0 * u(rng), v0 = 3.0 * u(rng), wall = 0.5 * u(rng);
    const std::string sets = "flow_set = \"x >= " + num(wall) +
                             "\"\njump_set = \"x <= " + num(wall) + " && v <= 0\"\n" +
                             (draw % 2 ? "priority = \"flow\"\n" : "");
    const ModelRun r = run_text(ball(sets, "x = " + num(x0) + "\nv = " + num(v0)));
    EXPECT_NE(r.result.termination(), Termination::NotRun);
    if (!r.succeeded()) {
      ++failed;
      EXPECT_FALSE(r.message().empty());
      continue;
    }
    ++succeeded;
    const Trajectory& tr = r.result.trajectory;
    for (long i = 0; i < tr.size(); ++i) {
      const double x = tr.x(i)[0], v = tr.x(i)[1];
      EXPECT_TRUE(x >= wall - 1e-9 || (x <= wall + 1e-9 && v <= 1e-9))
          << "draw " << draw << " t = " << tr.t(i) << " x = " << x << " v = " << v;
    }
  }
  EXPECT_GT(succeeded, 10);
  std::printf("random sets: %d runs succeeded, %d stopped with a status\n", succeeded, failed);
}

TEST(HybridSets, BadSetsAreRefusedAtTheirLine) {
  expect_load_refused(ball("jump_set = \"x != 0\""), "'!=' leaves a set without its boundary");
  expect_load_refused(ball("jump_set = \"x && v\""), "the operands of && must be conditions");
  expect_load_refused(ball("jump_set = \"x + 1\""), "is not a condition");
  expect_load_refused(ball("jump_set = \"1 <= 2\""), "jump_set holds everywhere");
  expect_load_refused(ball("flow_set = \"x == 0\"\njump_set = \"x <= 0\""), "has '==' on a state");
  expect_load_refused(ball("flow_set = \"x >= 0\""), "has a jump map but no jump_set");
  expect_load_refused(ball("flow_set = \"x >= 0\"\njump_set = \"x <= 0\"\npriority = \"random\""),
                      "priority 'random'; expected \"jump\"");
  expect_load_refused(ball("jump_set = \"x <= 0\"\njump_target = \"nowhere\""),
                      "targets unknown mode 'nowhere'");
  // The jump map is a reset: checked against the states' units.
  const std::string with_units = R"(
[states]
x = { initial = 1.0, unit = "m" }
v = { initial = 0.0, unit = "m/s" }
[modes.ball]
flow = ["x' = v", "v' = -9.81"]
jump_set = "x <= 0 && v <= 0"
jump = ["v = -x"]
[solver]
t_end = 1.0
)";
  expect_load_refused(with_units, "mode 'ball' jump");
  expect_load_refused(with_units, "the right side has dimension m, the left side v has m s^-1");
}

}  // namespace
}  // namespace saltus::model
