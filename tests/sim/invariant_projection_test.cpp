// Mode::projection (core/invariant_projection.hpp) in the simulator loop: an oscillator x'' = -x
// whose energy E = (x^2 + v^2) / 2 is kept by projection (x, v scaled radially onto the circle
// of the target energy) and a wall at x = a with restitution e (v -> -e v): the target must be
// E0 at the start, stay there along the flow, and become e^2-scaled exactly at each impact
// (E after = E before - (1 - e^2) v^2 / 2, v^2 = 2 E - a^2 at the wall). Seeded random
// amplitudes, walls and restitutions; DOPRI5 at a loose rtol 1e-5, where the unprojected energy
// visibly drifts (asserted: by more than 1e-7 relative), so the projection is what keeps it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "saltus/core/error.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus {
namespace {

struct Oscillator {
  HybridSystem system;
  ModeId mode = kNoMode;
};

Oscillator oscillator(double wall, double e, bool project) {
  Oscillator o;
  o.mode = o.system.add_mode("swing", ode_flow(2, [](const auto&, const auto& x, auto& xdot) {
                               xdot[0] = x[1];
                               xdot[1] = -x[0];
                             }));
  o.system.add_guard(
      o.mode, make_guard(
                  "wall", Direction::Rising,
                  [wall](const auto&, const auto& x, const auto&) { return x[0] - wall; },
                  Reset::to(o.mode, [e](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
                    xp[0] = x[0];
                    xp[1] = -e * x[1];
                  })));
  if (project) {
    InvariantProjection p;
    p.count = 1;
    p.values = [](ConstVectorRef x, VectorRef c) { c[0] = 0.5 * x.squaredNorm(); };
    p.project = [](ConstVectorRef target, VectorRef x) {
      const double E = 0.5 * x.squaredNorm();
      if (!(E > 0.0)) return false;
      x *= std::sqrt(target[0] / E);
      return true;
    };
    o.system.set_projection(o.mode, p);
  }
  return o;
}

double energy(ConstVectorRef x) {
  return 0.5 * x.squaredNorm();
}

TEST(InvariantProjection, KeepsTheEnergyAndTakesEachImpactsChange) {
  std::mt19937_64 rng(20261123);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  SimulationOptions o;
  o.stepper.rtol = 1e-5;
  o.stepper.atol = 1e-8;
  for (int trial = 0; trial < 20; ++trial) {
    const double amplitude = 0.5 + 1.5 * unit(rng), wall = amplitude * (0.3 + 0.6 * unit(rng));
    const double e = 0.9 + 0.1 * unit(rng);
    const Vector x0 = Eigen::Vector2d(0.0, -amplitude);  // moving away from the wall first
    const Oscillator with = oscillator(wall, e, true);
    const double t_end = 40.0;
    const SimulationResult r = simulate(with.system, with.mode, 0.0, x0, t_end, o);
    ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
    ASSERT_GT(r.events.size(), 0);
    // Every impact: the energy before equals the previous target; after it, e^2-scaled kinetic.
    double target = energy(x0);
    for (long k = 0; k < r.events.size(); ++k) {
      const Eigen::Vector2d before = r.events.x_before(k), after = r.events.x_after(k);
      EXPECT_NEAR(energy(before), target, 1e-13 * target) << "trial " << trial << ", impact " << k;
      const double expected = target - 0.5 * (1.0 - e * e) * before[1] * before[1];
      EXPECT_NEAR(energy(after), expected, 1e-13 * target);
      target = energy(after);
    }
    EXPECT_NEAR(energy(r.x_final), target, 1e-13 * target);
    if (trial > 0) continue;
    // Without the projection an elastic run drifts at this rtol (what the projection is for).
    const Oscillator elastic = oscillator(wall, 1.0, false);
    const SimulationResult free = simulate(elastic.system, elastic.mode, 0.0, x0, 400.0, o);
    EXPECT_GT(std::abs(energy(free.x_final) - energy(x0)), 1e-7 * energy(x0));
  }
}

TEST(InvariantProjection, IsRefusedOnModesWithAlgebraicStates) {
  HybridSystem s;
  const ModeId m = s.add_mode(
      "dae",
      semi_explicit_flow(
          1, 1, [](const auto&, const auto& x, const auto& z, auto& xd) { xd[0] = z[0] - x[0]; },
          [](const auto&, const auto& x, const auto& z, auto& g) { g[0] = z[0] - 2.0 * x[0]; }));
  InvariantProjection p;
  p.count = 1;
  p.values = [](ConstVectorRef x, VectorRef c) { c[0] = x[0]; };
  p.project = [](ConstVectorRef, VectorRef) { return true; };
  s.set_projection(m, p);
  try {
    s.validate();
    FAIL() << "a projection on a DAE mode was accepted";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("invariant projection is for ODE modes"),
              std::string::npos)
        << err.what();
  }
}

}  // namespace
}  // namespace saltus
