// Bouncing ball with linear air drag: flights are exponential, so the integrator's truncation
// error shows in the impact times. Reference: each flight's closed form
//   x(s) = x_k + (v_k + g/c)(1 - e^{-cs})/c - g s/c,  v(s) = (v_k + g/c) e^{-cs} - g/c,
// its root found by Newton in long double, independently of saltus. Requirement (issue 2):
// impact times within 10 x rtol of the reference.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "saltus/sim/simulator.hpp"
#include "saltus/systems/bouncing_ball.hpp"

namespace saltus {
namespace {

std::vector<double> reference_impacts(double x0, double g, double c, double e, int n) {
  using R = long double;
  std::vector<double> out;
  R t = 0, x = x0, v = 0;
  const R G = g, C = c;
  for (int k = 0; k < n; ++k) {
    auto pos = [&](R s) { return x + (v + G / C) * (1 - std::exp(-C * s)) / C - G * s / C; };
    auto vel = [&](R s) { return (v + G / C) * std::exp(-C * s) - G / C; };
    // Start beyond the apex (where x decreases) and iterate Newton to the descending root.
    R s = (v + std::sqrt(v * v + 2 * G * x)) / G * 1.5L + 1e-3L;
    for (int it = 0; it < 100; ++it) {
      const R ds = pos(s) / vel(s);
      s -= ds;
      if (std::abs(ds) < 1e-19L * (1 + s)) break;
    }
    t += s;
    out.push_back(static_cast<double>(t));
    v = -static_cast<R>(e) * vel(s);
    x = 0;
  }
  return out;
}

TEST(DragBall, ImpactTimesWithinTenTimesRtolOfIndependentReference) {
  systems::BouncingBall ball;
  ball.drag = 0.5;
  ball.e = 0.8;
  ball.with_rest_mode = false;
  const HybridSystem sys = ball.build();
  const int n = 20;
  const std::vector<double> ref = reference_impacts(1.0, ball.g, ball.drag, ball.e, n + 1);
  for (double rtol : {1e-6, 1e-9, 1e-12}) {
    SimulationOptions o;
    o.stepper.rtol = rtol;
    o.stepper.atol = 1e-3 * rtol;
    Vector x0(2);
    x0 << 1.0, 0.0;
    const double t_end = 0.5 * (ref[n - 1] + ref[n]);
    const SimulationResult r = simulate(sys, ball.flight, 0.0, x0, t_end, o);
    ASSERT_TRUE(r.summary.ok()) << r.summary.message;
    ASSERT_EQ(r.events.size(), n) << "rtol " << rtol;
    double worst = 0.0;
    for (int i = 0; i < n; ++i) worst = std::max(worst, std::abs(r.events[i].t - ref[i]));
    EXPECT_LE(worst, 10 * rtol) << "rtol " << rtol;
    RecordProperty("worst_error_rtol_" + std::to_string(static_cast<int>(-std::log10(rtol))),
                   std::to_string(worst));
  }
}

}  // namespace
}  // namespace saltus
