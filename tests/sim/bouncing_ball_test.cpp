// The bouncing ball against its closed form (FORMULAS.md 2.3, 5.1), Zeno hand-over and rest.
#include <gtest/gtest.h>

#include <cmath>

#include "saltus/sim/simulator.hpp"
#include "saltus/systems/bouncing_ball.hpp"

namespace saltus {
namespace {

Vector state(double x, double v) {
  Vector s(2);
  s << x, v;
  return s;
}

// Impact k (0-based) of a ball dropped from x0 at rest: t_1 = sqrt(2 x0/g), flights
// 2 e^k sqrt(2 g x0)/g.
double impact_time(int k, double x0, double g, double e) {
  double t = std::sqrt(2 * x0 / g);
  const double v1 = std::sqrt(2 * g * x0);
  for (int i = 1; i <= k; ++i) t += 2 * std::pow(e, i) * v1 / g;
  return t;
}

TEST(BouncingBall, ImpactTimesZenoTimeAndRestMatchClosedForm) {
  systems::BouncingBall ball;
  ball.e = 0.8;
  const HybridSystem sys = ball.build();
  const double x0 = 1.0, g = ball.g, e = ball.e;
  const double t_inf = std::sqrt(2 * x0 / g) * (1 + e) / (1 - e);
  SimulationOptions o;
  o.stepper.rtol = 1e-12;
  o.stepper.atol = 1e-14;
  for (int i = 0; i <= 1000; ++i) o.output.sample_times.push_back((t_inf + 1.0) * i / 1000);
  const SimulationResult r = simulate(sys, ball.flight, 0.0, state(x0, 0.0), t_inf + 1.0, o);
  ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  ASSERT_EQ(r.summary.zeno_handovers, 1);

  long impacts = 0;
  double worst = 0.0;
  for (long i = 0; i < r.events.size(); ++i) {
    if (r.events[i].guard == kZenoHandoverGuard) break;
    const double exact = impact_time(static_cast<int>(impacts), x0, g, e);
    worst = std::max(worst, std::abs(r.events[i].t - exact) / exact);
    ++impacts;
  }
  EXPECT_GE(impacts, 60);
  EXPECT_LE(worst, 1e-12) << "worst relative impact-time error over " << impacts << " impacts";
  EXPECT_NEAR(r.summary.zeno_time, t_inf, 1e-9 * t_inf);
  EXPECT_EQ(r.final_mode, ball.rest);
  // Reset outputs: impulse m (1 + e) |v-| and energy change -(1 - e^2) m v-^2 / 2 per impact.
  for (long i = 0; i < impacts; ++i) {
    const double v_minus = r.events.x_before(i)[1];
    ASSERT_EQ(r.events.outputs(i).size(), 2);
    EXPECT_NEAR(r.events.outputs(i)[0], -ball.mass * (1 + e) * v_minus, 1e-12);
    EXPECT_NEAR(r.events.outputs(i)[1], -0.5 * (1 - e * e) * ball.mass * v_minus * v_minus, 1e-12);
  }
  // No penetration anywhere, and at rest on the floor after t_inf.
  for (long i = 0; i < r.trajectory.size(); ++i) {
    EXPECT_GE(r.trajectory.x(i)[0], -1e-12) << "t = " << r.trajectory.t(i);
    if (r.trajectory.t(i) > t_inf) {
      EXPECT_EQ(r.trajectory.x(i)[0], 0.0);
      EXPECT_EQ(r.trajectory.x(i)[1], 0.0);
      EXPECT_NEAR(r.trajectory.z(i)[0], ball.mass * g, 1e-12);  // contact force = weight
    }
  }
}

TEST(BouncingBall, StopsWithZenoStatusWithoutPostZenoMode) {
  systems::BouncingBall ball;
  ball.with_rest_mode = false;
  const HybridSystem sys = ball.build();
  SimulationOptions o;
  o.stepper.rtol = 1e-12;
  o.stepper.atol = 1e-14;
  const SimulationResult r = simulate(sys, ball.flight, 0.0, state(1.0, 0.0), 10.0, o);
  EXPECT_EQ(r.termination(), Termination::Zeno);
  const double t_inf = std::sqrt(2 / ball.g) * 9.0;
  EXPECT_NEAR(r.summary.zeno_time, t_inf, 1e-9 * t_inf);
  EXPECT_NE(r.summary.message.find("impact"), std::string::npos) << r.summary.message;
  EXPECT_NE(r.summary.message.find("no post-Zeno mode"), std::string::npos) << r.summary.message;
}

TEST(BouncingBall, BallAtRestOnTheFloorDoesNotLoop) {
  systems::BouncingBall ball;
  const HybridSystem sys = ball.build();
  SimulationOptions o;
  o.output.sample_times = {0.0, 0.5, 1.0};
  const SimulationResult r = simulate(sys, ball.flight, 0.0, state(0.0, 0.0), 1.0, o);
  ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  EXPECT_EQ(r.final_mode, ball.rest);
  EXPECT_LE(r.events.size(), 3);
  for (long i = 0; i < r.trajectory.size(); ++i) EXPECT_GE(r.trajectory.x(i)[0], 0.0);

  systems::BouncingBall no_rest;
  no_rest.with_rest_mode = false;
  const HybridSystem sys2 = no_rest.build();
  const SimulationResult r2 = simulate(sys2, no_rest.flight, 0.0, state(0.0, 0.0), 1.0, o);
  EXPECT_EQ(r2.termination(), Termination::Zeno) << r2.summary.message;
  EXPECT_EQ(r2.summary.zeno_time, 0.0);
}

TEST(BouncingBall, RestingBallLiftsOffWhenTheContactForceVanishes) {
  systems::BouncingBall ball;
  ball.lift_rate = 2.0 * 9.81;  // upward force m g at t = 0.5 s
  const HybridSystem sys = ball.build();
  SimulationOptions o;
  o.stepper.rtol = 1e-10;
  o.stepper.atol = 1e-12;
  const SimulationResult r = simulate(sys, ball.rest, 0.0, state(0.0, 0.0), 1.0, o);
  ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  ASSERT_GE(r.events.size(), 1);
  EXPECT_EQ(r.events[0].mode_before, ball.rest);
  EXPECT_NEAR(r.events[0].t, 0.5, 1e-12);
  EXPECT_EQ(r.final_mode, ball.flight);
  // After lift-off: v' = -g + k t/m, x' = v from (0.5, 0, 0): x(1) = k (1 - 0.5)^3 / 6 ... exact:
  // x(t) = (k/6)(t^3 - 3 t0^2 t + 2 t0^3)/m - g (t - t0)^2 / 2 with t0 = 0.5.
  const double k = ball.lift_rate, t0 = 0.5, t = 1.0, g = ball.g;
  const double x_exact =
      k / 6 * (t * t * t - 3 * t0 * t0 * t + 2 * t0 * t0 * t0) - g * (t - t0) * (t - t0) / 2;
  EXPECT_NEAR(r.x_final[0], x_exact, 1e-9);
}

}  // namespace
}  // namespace saltus

namespace saltus {
namespace {

// Every integrator resolves the same impacts (polynomial flight: exact for all three).
TEST(BouncingBall, EveryIntegratorFindsTheClosedFormImpacts) {
  systems::BouncingBall ball;
  ball.with_rest_mode = false;
  const HybridSystem sys = ball.build();
  for (Integrator integ : {Integrator::Dopri5, Integrator::Dop853, Integrator::Radau5}) {
    SimulationOptions o;
    o.integrator = integ;
    o.stepper.rtol = 1e-10;
    o.stepper.atol = 1e-12;
    const SimulationResult r = simulate(sys, ball.flight, 0.0, state(1.0, 0.0), 3.0, o);
    ASSERT_TRUE(r.summary.ok()) << to_string(integ) << ": " << r.summary.message;
    ASSERT_GE(r.events.size(), 5);
    for (long i = 0; i < 5; ++i) {
      const double exact = impact_time(static_cast<int>(i), 1.0, ball.g, ball.e);
      EXPECT_NEAR(r.events[i].t, exact, 1e-9 * exact) << to_string(integ) << " impact " << i;
    }
  }
}

// Issue 34: nothing of one run survives into the next run of the same Simulator. First runs
// that end in every state the Zeno monitor can be in (stopped before its pattern, stopped while
// the events accumulate, past the hand-over at rest) are each followed by a second run from
// another height, which must equal a fresh Simulator's run bit for bit: the same events, Zeno
// time and final state.
TEST(BouncingBall, AReusedSimulatorRunsAsAFreshOneWhateverTheRunBeforeLeft) {
  systems::BouncingBall ball;
  ball.e = 0.7;
  const HybridSystem sys = ball.build();
  SimulationOptions o;
  o.stepper.rtol = 1e-11;
  o.stepper.atol = 1e-13;
  const auto t_inf = [&](double x0) {
    return std::sqrt(2 * x0 / ball.g) * (1 + ball.e) / (1 - ball.e);
  };
  const double x_second = 0.37;
  const SimulationResult fresh =
      simulate(sys, ball.flight, 0.0, state(x_second, 0.0), t_inf(x_second) + 0.5, o);
  ASSERT_EQ(fresh.summary.zeno_handovers, 1) << fresh.summary.message;
  for (const double first_end_fraction : {0.3, 0.999, 1.5}) {
    Simulator reused(sys, o);
    const SimulationResult first =
        reused.run(ball.flight, 0.0, state(1.0, 0.0), Vector(), first_end_fraction * t_inf(1.0));
    ASSERT_TRUE(first.summary.ok()) << first.summary.message;
    const SimulationResult second =
        reused.run(ball.flight, 0.0, state(x_second, 0.0), Vector(), t_inf(x_second) + 0.5);
    SCOPED_TRACE(first_end_fraction);
    ASSERT_EQ(second.termination(), fresh.termination()) << second.summary.message;
    ASSERT_EQ(second.events.size(), fresh.events.size());
    for (long i = 0; i < fresh.events.size(); ++i) {
      EXPECT_EQ(second.events[i].t, fresh.events[i].t) << i;
      EXPECT_EQ(second.events[i].guard, fresh.events[i].guard) << i;
    }
    EXPECT_EQ(second.summary.zeno_time, fresh.summary.zeno_time);
    EXPECT_EQ(second.x_final, fresh.x_final);
    EXPECT_EQ(second.final_mode, fresh.final_mode);
  }
}

}  // namespace
}  // namespace saltus
