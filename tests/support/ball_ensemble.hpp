// Random bouncing balls checked against their closed form (issue 9): shared by the seeded
// ensemble test (tests/sim/ball_ensemble_test.cpp, ~10^4 balls) and the long run outside CI
// (bench/ball_ensemble_check.cpp, 10^5 balls and more).
//
// A ball x' = v, v' = -g dropped from (x0, v0) with restitution e first hits the floor at
// t_1 = (v0 + u) / g with speed u = sqrt(v0^2 + 2 g x0); the k-th flight after it lasts
// 2 e^k u / g, so t_{k+1} = t_k + 2 e^k u / g and the impacts accumulate at
// t_inf = t_1 + 2 u e / (g (1 - e)) (FORMULAS.md 5.1). Each run goes to t_inf + 1 through the
// Zeno hand-over to the rest mode.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "saltus/sim/simulator.hpp"
#include "saltus/systems/bouncing_ball.hpp"

namespace saltus::testing {

struct BallCase {
  double x0, v0, e, g;
  double first_impact() const { return (v0 + impact_speed()) / g; }
  double impact_speed() const { return std::sqrt(v0 * v0 + 2 * g * x0); }
  double zeno_time() const { return first_impact() + 2 * impact_speed() * e / (g * (1 - e)); }
};

// x0 in [1e-3, 10], v0 in [-5, 5], e in [0.05, 0.99], g in [1, 20] (the ranges of issue 9).
inline BallCase random_ball(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  BallCase b;
  b.x0 = 1e-3 * std::pow(1e4, u(rng));  // log-uniform: low starts are as likely as high ones
  b.v0 = -5.0 + 10.0 * u(rng);
  b.e = 0.05 + 0.94 * u(rng);
  b.g = 1.0 + 19.0 * u(rng);
  return b;
}

struct BallCheck {
  Termination termination = Termination::NotRun;
  std::string message;
  long impacts = 0;
  double max_impact_error = 0.0;  // max |t - t_k| / max(1, t_k) over the impacts
  double zeno_error = 0.0;        // |zeno_time - t_inf| / max(1, t_inf)
  long upward_impacts = 0;        // impacts applied with v- >= 0
  double lowest_position = 0.0;   // min x over step ends and event states
  bool handed_over = false;
};

// Runs one ball with `options` (record_steps is switched on to see every step end).
inline BallCheck check_ball(const BallCase& b, SimulationOptions options) {
  systems::BouncingBall ball;
  ball.g = b.g;
  ball.e = b.e;
  const HybridSystem sys = ball.build();
  options.output.record_steps = true;
  options.output.record_events = true;
  const double t_inf = b.zeno_time();
  const Vector x0 = (Vector(2) << b.x0, b.v0).finished();
  const SimulationResult r = simulate(sys, ball.flight, 0.0, x0, t_inf + 1.0, options);

  BallCheck c;
  c.termination = r.termination();
  c.message = r.summary.message;
  double t_k = b.first_impact(), flight = 2 * b.e * b.impact_speed() / b.g;
  for (long i = 0; i < r.events.size(); ++i) {
    const EventRecord& ev = r.events[i];
    c.lowest_position =
        std::min({c.lowest_position, r.events.x_before(i)[0], r.events.x_after(i)[0]});
    if (ev.guard == kZenoHandoverGuard) {
      c.handed_over = true;
      continue;
    }
    if (ev.mode_before != ball.flight) continue;
    ++c.impacts;
    if (r.events.x_before(i)[1] >= 0.0) ++c.upward_impacts;
    c.max_impact_error = std::max(c.max_impact_error, std::abs(ev.t - t_k) / std::max(1.0, t_k));
    t_k += flight;
    flight *= b.e;
  }
  for (long i = 0; i < r.trajectory.size(); ++i) {
    c.lowest_position = std::min(c.lowest_position, r.trajectory.x(i)[0]);
  }
  c.zeno_error = std::abs(r.summary.zeno_time - t_inf) / std::max(1.0, t_inf);
  if (!std::isfinite(c.zeno_error)) c.zeno_error = kInfinity;
  return c;
}

}  // namespace saltus::testing
