// AD Jacobians of the compiled nonholonomic flow (Dual through M, h and the constraint rows'
// second-order jets) and AD gradients of the wall guards, against a sixth-order central
// difference of the double-precision values computed IN THIS TEST ONLY; then the free sleigh
// under Radau5 (which uses these Jacobians) against its closed form.
//
// Tolerance of the difference check: truncation h^6 f^(7)/140 ~ 1e-18 and rounding
// eps |f| / h ~ 1e-13 for h = 1e-3 (1 + |x_i|): compared at 1e-8 (1 + |J|_max).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "saltus/sim/simulator.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"
#include "support/central_difference.hpp"

namespace saltus {
namespace {

using saltus::testing::central_difference;

void check_flow_and_guards(const mech::NonholonomicModel& model, const Vector& x) {
  const auto compiled = model.compile();
  const Mode& mode = compiled.system.mode(compiled.mode);
  const int nx = mode.flow.nx;
  const Vector z(0);
  Matrix J(nx, nx), Jz(nx, 0);
  mode.flow.rhs_jacobian(0.0, x, z, J, Jz);
  auto rhs = [&](const Vector& xx) {
    Vector out(nx);
    mode.flow.rhs(0.0, xx, z, out);
    return out;
  };
  Matrix Jfd(nx, nx);
  for (int k = 0; k < nx; ++k) Jfd.col(k) = central_difference(rhs, x, k, nx);
  const double scale = 1.0 + Jfd.cwiseAbs().maxCoeff();
  EXPECT_LE((J - Jfd).cwiseAbs().maxCoeff(), 1e-8 * scale) << model.name() << "\nAD:\n"
                                                           << J << "\ndifference:\n"
                                                           << Jfd;
  for (const Guard& g : mode.guards) {
    Vector dpdx(nx), dpdz(0);
    g.gradient(0.0, x, z, dpdx, dpdz);
    auto p = [&](const Vector& xx) {
      Vector out(1);
      out[0] = g.value(0.0, xx, z);
      return out;
    };
    for (int k = 0; k < nx; ++k) {
      EXPECT_NEAR(dpdx[k], central_difference(p, x, k, 1)[0], 1e-8 * (1.0 + dpdx.norm()))
          << model.name() << " guard " << g.name << " component " << k;
    }
  }
}

TEST(NonholonomicJacobian, FlowAndGuardsOfTheThreeSystemsMatchDifferences) {
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const systems::EllipticTable table{2.0, 1.0};
  const systems::RollingBall ball{0.4, 0.5};
  const systems::VerticalDisk disk{1.0, 0.2, 0.02, 0.01};
  for (int trial = 0; trial < 5; ++trial) {
    check_flow_and_guards(
        systems::chaplygin_sleigh({1.0, 0.1, 0.3, 0.3}, table),
        systems::sleigh_state(0.5 * u(rng), 0.3 * u(rng), 3.0 * u(rng), u(rng), 2.0 * u(rng)));
    check_flow_and_guards(systems::vertical_disk(disk, table),
                          systems::vertical_disk_state(disk, 0.5 * u(rng), 0.3 * u(rng), u(rng),
                                                       3.0 * u(rng), 4.0 * u(rng), u(rng)));
    check_flow_and_guards(
        systems::rolling_ball(ball, table),
        systems::rolling_ball_state(ball, 0.5 * u(rng), 0.3 * u(rng), 1.5 + 0.5 * u(rng),
                                    3.0 * u(rng), 3.0 * u(rng), u(rng), u(rng), u(rng)));
  }
}

// Radau5 on the free sleigh: v and omega against FORMULAS.md 13.1 at 1e3 rtol of V and omega0.
TEST(NonholonomicJacobian, Radau5FollowsTheSleighClosedForm) {
  const double m = 1.0, I = 0.1, a = 0.3, v0 = 0.5, w0 = 2.0;
  const auto model = systems::chaplygin_sleigh({m, I, a, 0.0});
  const Vector x0 = systems::sleigh_state(0.0, 0.0, 0.0, v0, w0);
  SimulationOptions o;
  o.integrator = Integrator::Radau5;
  o.stepper.rtol = 1e-10;
  o.stepper.atol = 1e-12;
  for (int i = 1; i <= 50; ++i) o.output.sample_times.push_back(0.2 * i);
  const auto compiled = model.compile();
  const SimulationResult r = simulate(compiled.system, compiled.mode, 0.0, x0, 10.0, o);
  ASSERT_TRUE(r.summary.ok()) << r.summary.message;
  EXPECT_GT(r.summary.stepper.jacobian_evaluations, 0);
  const double J = I + m * a * a, V = std::sqrt(v0 * v0 + J * w0 * w0 / m);
  for (long i = 0; i < r.trajectory.size(); ++i) {
    const double t = r.trajectory.t(i);
    const double tau = a * m * V * t / J + std::atanh(v0 / V);
    const Vector x = r.trajectory.x(i).head(6);
    EXPECT_NEAR(systems::sleigh_speed(x), V * std::tanh(tau), 1e3 * o.stepper.rtol * V);
    EXPECT_NEAR(x[5], w0 * std::cosh(std::atanh(v0 / V)) / std::cosh(tau),
                1e3 * o.stepper.rtol * w0);
  }
}

}  // namespace
}  // namespace saltus
