// Seeded random sleighs, disks and balls in random ellipses (parameters and initial states drawn
// from fixed seeds): every run ends with a status, kinetic energy and the constraints are kept,
// and no sampled state or impact state lies outside the table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>

#include "saltus/sim/simulator.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"

namespace saltus {
namespace {

// Dopri5 at rtol 1e-10: the bounds below are multiples of it (measured maxima, printed by the
// test, lie 10-100x inside them; docs/VALIDATION.md).
constexpr double kRtol = 1e-10;

struct Drawn {
  mech::NonholonomicModel model;
  Vector x0;
};

struct Worst {
  double energy = 0.0, constraint = 0.0, outside = 0.0;
  long events = 0, runs = 0;
};

using Draw = std::function<Drawn(std::mt19937&, const systems::EllipticTable&)>;

// Runs `runs` draws to t_end and checks each one; returns the worst deviations seen.
Worst run_draws(const std::string& what, int runs, double t_end, unsigned seed, const Draw& draw) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Worst worst;
  for (int k = 0; k < runs; ++k) {
    const double A = 1.0 + 2.0 * u(rng);
    const systems::EllipticTable table{A, A * (0.4 + 0.6 * u(rng))};
    const Drawn d = draw(rng, table);
    const mech::NonholonomicModel& model = d.model;
    const int n = model.dof();
    const auto compiled = model.compile();
    SimulationOptions o;
    o.stepper.rtol = kRtol;
    o.stepper.atol = 1e-2 * kRtol;
    o.events.max_events = 100000;
    for (int i = 1; i <= 400; ++i) o.output.sample_times.push_back(t_end * i / 400.0);
    const std::string run = what + " run " + std::to_string(k);
    const SimulationResult r =
        simulate(compiled.system, compiled.initial_mode(d.x0), 0.0, d.x0, t_end, o);
    EXPECT_EQ(r.termination(), Termination::EndTimeReached) << run << ": " << r.summary.message;
    if (!r.summary.ok()) continue;
    const double T0 = model.kinetic_energy(d.x0.head(n), d.x0.tail(n));
    const double speed = d.x0.tail(n).norm();
    auto check = [&](const Vector& x) {
      const Vector q = x.head(n), qd = x.tail(n);
      worst.energy = std::max(worst.energy, std::abs(model.kinetic_energy(q, qd) - T0) / T0);
      worst.constraint = std::max(worst.constraint,
                                  model.constraint_values(q, qd).lpNorm<Eigen::Infinity>() / speed);
      for (int w = 0; w < model.wall_count(); ++w) {
        worst.outside = std::max(worst.outside, -model.wall_value(w, q));
      }
    };
    for (long i = 0; i < r.trajectory.size(); ++i) check(r.trajectory.x(i).head(2 * n));
    for (long i = 0; i < r.events.size(); ++i) {
      check(r.events.x_before(i));
      check(r.events.x_after(i));
    }
    worst.events += r.events.size();
    ++worst.runs;
  }
  std::printf(
      "%s: %ld runs, %ld impacts, max |dT|/T %.2e, max |eta qdot|/|qdot0| %.2e, "
      "max outside %.2e\n",
      what.c_str(), worst.runs, worst.events, worst.energy, worst.constraint, worst.outside);
  EXPECT_EQ(worst.runs, runs);
  EXPECT_LT(worst.energy, 1e3 * kRtol) << what;
  EXPECT_LT(worst.constraint, 1e3 * kRtol) << what;
  EXPECT_LE(worst.outside, 1e-12) << what;  // the locator's bracket (a few ulps of h)
  return worst;
}

// A uniform point of the ellipse scaled by `shrink` (so that the body fits around it).
Eigen::Vector2d inside(std::mt19937& rng, const systems::EllipticTable& t, double shrink) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (;;) {
    const double x = u(rng), y = u(rng);
    if (x * x + y * y <= 1.0) return {shrink * t.A * x, shrink * t.B * y};
  }
}

TEST(NonholonomicRandomBilliards, ChaplyginSleighs) {
  const Worst w =
      run_draws("sleigh", 40, 20.0, 2024, [](std::mt19937& rng, const systems::EllipticTable& t) {
        std::uniform_real_distribution<double> u(0.0, 1.0);
        const systems::ChaplyginSleigh s{0.5 + 1.5 * u(rng), 0.02 + 0.2 * u(rng),
                                         0.05 + 0.35 * u(rng), t.B * (0.1 + 0.5 * u(rng))};
        const Eigen::Vector2d p = inside(rng, t, 0.3);
        const Vector x0 =
            systems::sleigh_state(p[0], p[1], 6.3 * u(rng), 4.0 * u(rng) - 2.0, 6.0 * u(rng) - 3.0);
        return Drawn{systems::chaplygin_sleigh(s, t), x0};
      });
  EXPECT_GT(w.events, 40);
}

TEST(NonholonomicRandomBilliards, VerticalDisks) {
  const Worst w =
      run_draws("disk", 40, 20.0, 7, [](std::mt19937& rng, const systems::EllipticTable& t) {
        std::uniform_real_distribution<double> u(0.0, 1.0);
        const systems::VerticalDisk d{0.5 + u(rng), t.B * (0.05 + 0.3 * u(rng)),
                                      0.01 + 0.05 * u(rng), 0.005 + 0.03 * u(rng)};
        const Eigen::Vector2d p = inside(rng, t, 0.3);
        const Vector x0 = systems::vertical_disk_state(d, p[0], p[1], 6.3 * u(rng), 6.3 * u(rng),
                                                       20.0 * u(rng) - 10.0, 4.0 * u(rng) - 2.0);
        return Drawn{systems::vertical_disk(d, t), x0};
      });
  EXPECT_GT(w.events, 40);
}

// Short runs: the Euler chart degenerates where the body axis passes the vertical (theta = 0, pi),
// which a long rolling run approaches.
TEST(NonholonomicRandomBilliards, RollingBalls) {
  const Worst w =
      run_draws("ball", 30, 5.0, 99, [](std::mt19937& rng, const systems::EllipticTable& t) {
        std::uniform_real_distribution<double> u(0.0, 1.0);
        const systems::RollingBall b{0.2 + 0.3 * u(rng), 0.1 + 0.4 * u(rng)};
        const Eigen::Vector2d p = inside(rng, t, 0.8);
        const Vector x0 = systems::rolling_ball_state(
            b, p[0], p[1], 1.2 + 0.7 * u(rng), 6.3 * u(rng), 6.3 * u(rng), 12.0 * u(rng) - 6.0,
            0.6 * u(rng) - 0.3, 2.0 * u(rng) - 1.0);
        return Drawn{systems::rolling_ball(b, t), x0};
      });
  EXPECT_GT(w.events, 10);
}

}  // namespace
}  // namespace saltus
