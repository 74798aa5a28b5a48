// An index-1 DAE whose algebraic state must be re-initialised at a mode switch, against the
// analytic solution (issue 2, "Must show").
//   mode "fast":  x' = -z, 0 = z - a x          ->  x = x0 e^{-a t}
//   guard "slow-down": x falls to x_s (p = x_s - x rising)   at t1 = ln(x0/x_s)/a
//   mode "slow":  x' = -z, 0 = z^3 + z - (b x + c)  (z solved by Newton; cubic, so the new z
//                 differs from the old and must be found again)
// In "slow" we check z = root of the cubic at every sample, and x against a reference from
// the separable ODE dx/dt = -Z(x), integrated by the trapezoid rule in x (independent of saltus).
#include <gtest/gtest.h>

#include <cmath>

#include "saltus/sim/simulator.hpp"

namespace saltus {
namespace {

constexpr double kA = 2.0, kB = 0.5, kC = 0.1, kX0 = 1.0, kXs = 0.4;

// The real root of z^3 + z = w (monotone, unique).
double cubic_root(double w) {
  double z = w;
  for (int i = 0; i < 50; ++i) {
    const double dz = (z * z * z + z - w) / (3 * z * z + 1);
    z -= dz;
    if (std::abs(dz) < 1e-17) break;
  }
  return z;
}

HybridSystem build(ModeId& fast, ModeId& slow) {
  HybridSystem sys;
  auto f = [](const auto&, const auto&, const auto& z, auto& xdot) { xdot[0] = -z[0]; };
  fast = sys.add_mode(
      "fast", semi_explicit_flow(1, 1, f, [](const auto&, const auto& x, const auto& z, auto& g) {
        g[0] = z[0] - kA * x[0];
      }));
  slow = sys.add_mode(
      "slow", semi_explicit_flow(1, 1, f, [](const auto&, const auto& x, const auto& z, auto& g) {
        g[0] = z[0] * z[0] * z[0] + z[0] - (kB * x[0] + kC);
      }));
  sys.add_guard(fast, make_guard(
                          "slow-down", Direction::Rising,
                          [](const auto&, const auto& x, const auto&) { return kXs - x[0]; },
                          Reset::to(slow)));
  return sys;
}

// Time to go from x = xs down to x in mode "slow": -integral of dx / Z(x), Z = cubic_root(bx+c),
// by composite Simpson (smooth integrand; 400 panels give ~1e-14).
double slow_time(double x) {
  const int n = 400;
  const double h = (x - kXs) / n;
  auto f = [](double u) { return -1.0 / cubic_root(kB * u + kC); };
  double sum = f(kXs) + f(x);
  for (int i = 1; i < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * f(kXs + i * h);
  return sum * h / 3.0;
}

TEST(DaeModeSwitch, AlgebraicStateReinitialisedAndTrajectoryMatchesAnalytic) {
  ModeId fast, slow;
  const HybridSystem sys = build(fast, slow);
  const double t1 = std::log(kX0 / kXs) / kA;
  for (Integrator integ : {Integrator::Dopri5, Integrator::Radau5, Integrator::Dop853}) {
    SimulationOptions o;
    o.integrator = integ;
    o.stepper.rtol = 1e-10;
    o.stepper.atol = 1e-12;
    for (int i = 0; i <= 40; ++i) o.output.sample_times.push_back(2.0 * i / 40);
    Vector x0(1), z0(1);
    x0 << kX0;
    z0 << 0.0;  // inconsistent guess: saltus must solve 0 = z - a x0 first
    const SimulationResult r = simulate(sys, fast, 0.0, x0, 2.0, o, z0);
    ASSERT_TRUE(r.summary.ok()) << to_string(integ) << ": " << r.summary.message;
    ASSERT_EQ(r.events.size(), 1);
    // Event time and states carry the integrator's global error (Radau5 works internally at
    // 0.1 rtol^(2/3), HNW's convention): 50 x rtol.
    EXPECT_NEAR(r.events[0].t, t1, 5e-9) << to_string(integ);
    EXPECT_NEAR(r.events.z_before(0)[0], kA * kXs, 1e-9);
    EXPECT_NEAR(r.events.z_after(0)[0], cubic_root(kB * kXs + kC), 1e-12);
    for (long i = 0; i < r.trajectory.size(); ++i) {
      const double t = r.trajectory.t(i), x = r.trajectory.x(i)[0], z = r.trajectory.z(i)[0];
      if (t < t1) {
        EXPECT_NEAR(x, kX0 * std::exp(-kA * t), 1e-8) << to_string(integ) << " t = " << t;
        EXPECT_NEAR(z, kA * x, 1e-10);
      } else {
        EXPECT_NEAR(z, cubic_root(kB * x + kC), 1e-10) << "z consistent at t = " << t;
        // Time at which the exact solution reaches the computed x.
        EXPECT_NEAR(t1 + slow_time(x), t, 1e-7) << to_string(integ) << " t = " << t;
      }
    }
  }
}

}  // namespace
}  // namespace saltus
