// Flows and guards written once as generic callables: evaluated in double, differentiated by
// forward AD (no finite differences), and usable with fixed-size Eigen vectors directly.
#include "saltus/core/flow.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "saltus/core/error.hpp"
#include "saltus/core/guard.hpp"
#include "saltus/core/hybrid_system.hpp"

namespace saltus {
namespace {

// A pendulum with damping, written once.
const auto pendulum = [](const auto& t, const auto& x, auto& xdot) {
  using std::cos;
  using std::sin;
  xdot[0] = x[1];
  xdot[1] = -9.81 * sin(x[0]) - 0.1 * x[1] + 0.5 * cos(t);
};

TEST(Flow, SameCallableWorksWithFixedSizeVectorsAndThroughTheFlow) {
  const Eigen::Vector2d x(0.3, -0.2);
  Eigen::Vector2d direct;
  pendulum(0.7, x, direct);  // a fixed-size call, no saltus involved
  const Flow flow = ode_flow(2, pendulum);
  Vector through(2);
  flow.rhs(0.7, x, Vector(), through);
  EXPECT_EQ(direct, through);
}

TEST(Flow, JacobianByAutomaticDifferentiationIsExact) {
  const Flow flow = ode_flow(2, pendulum);
  const Vector x = Eigen::Vector2d(0.3, -0.2);
  Matrix J(2, 2), unused(2, 0);
  flow.rhs_jacobian(0.7, x, Vector(), J, unused);
  EXPECT_EQ(J(0, 0), 0.0);
  EXPECT_EQ(J(0, 1), 1.0);
  EXPECT_DOUBLE_EQ(J(1, 0), -9.81 * std::cos(0.3));
  EXPECT_DOUBLE_EQ(J(1, 1), -0.1);
}

TEST(Flow, SemiExplicitAndImplicitJacobians) {
  // x' = -z x, 0 = z^2 - x - 1.
  const Flow se = semi_explicit_flow(
      1, 1, [](const auto&, const auto& x, const auto& z, auto& d) { d[0] = -z[0] * x[0]; },
      [](const auto&, const auto& x, const auto& z, auto& g) { g[0] = z[0] * z[0] - x[0] - 1.0; });
  const Vector x = Vector::Constant(1, 2.0), z = Vector::Constant(1, 3.0);
  Matrix fx(1, 1), fz(1, 1), gx(1, 1), gz(1, 1);
  se.rhs_jacobian(0.0, x, z, fx, fz);
  se.algebraic_jacobian(0.0, x, z, gx, gz);
  EXPECT_EQ(fx(0, 0), -3.0);
  EXPECT_EQ(fz(0, 0), -2.0);
  EXPECT_EQ(gx(0, 0), -1.0);
  EXPECT_EQ(gz(0, 0), 6.0);
  // Implicit: F = x'^3 + x' - x z, g = z - 2.
  const Flow im = implicit_flow(
      1, 1,
      [](const auto&, const auto& x, const auto& xd, const auto& z, auto& F) {
        F[0] = xd[0] * xd[0] * xd[0] + xd[0] - x[0] * z[0];
      },
      [](const auto&, const auto&, const auto& z, auto& g) { g[0] = z[0] - 2.0; });
  const Vector xd = Vector::Constant(1, 0.5);
  Matrix Fx(1, 1), Fxd(1, 1), Fz(1, 1);
  im.residual_jacobian(0.0, x, xd, z, Fx, Fxd, Fz);
  EXPECT_EQ(Fx(0, 0), -3.0);
  EXPECT_DOUBLE_EQ(Fxd(0, 0), 3 * 0.25 + 1.0);
  EXPECT_EQ(Fz(0, 0), -2.0);
}

TEST(Guard, GradientIncludesTimeDerivative) {
  const Guard g = make_guard(
      "moving wall", Direction::Rising,
      [](const auto& t, const auto& x, const auto& z) {
        using std::sin;
        return x[0] * z[0] - sin(t);
      },
      Reset{});
  const Vector x = Vector::Constant(1, 2.0), z = Vector::Constant(1, 3.0);
  Vector dpdx(1), dpdz(1);
  const double dpdt = g.gradient(0.4, x, z, dpdx, dpdz);
  EXPECT_EQ(g.value(0.4, x, z), 6.0 - std::sin(0.4));
  EXPECT_EQ(dpdx[0], 3.0);
  EXPECT_EQ(dpdz[0], 2.0);
  EXPECT_DOUBLE_EQ(dpdt, -std::cos(0.4));
}

// The one-pass rate p_x xdot + p_z zdot + p_t of make_guard against the closed form, for
// seeded random states and directions (a nonlinear guard on x, z and t).
TEST(Guard, RateAlongADirectionIsTheChainRule) {
  const Guard g = make_guard(
      "curved", Direction::Falling,
      [](const auto& t, const auto& x, const auto& z) {
        using std::cos;
        using std::exp;
        return x[0] * x[1] * z[0] + exp(x[2]) - cos(t * x[0]);
      },
      Reset{});
  ASSERT_TRUE(static_cast<bool>(g.rate));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int trial = 0; trial < 100; ++trial) {
    const double t = u(rng);
    Vector x(3), z(1), xdot(3), zdot(1);
    for (int i = 0; i < 3; ++i) x[i] = u(rng), xdot[i] = u(rng);
    z[0] = u(rng);
    zdot[0] = u(rng);
    // d/ds of p(t + s, x + s xdot, z + s zdot) at s = 0, by hand.
    const double px0 = x[1] * z[0] + t * std::sin(t * x[0]), px1 = x[0] * z[0],
                 px2 = std::exp(x[2]);
    const double pz = x[0] * x[1], pt = x[0] * std::sin(t * x[0]);
    const double want = px0 * xdot[0] + px1 * xdot[1] + px2 * xdot[2] + pz * zdot[0] + pt;
    EXPECT_NEAR(g.rate(t, x, z, xdot, zdot), want, 1e-13 * (1.0 + std::abs(want))) << trial;
  }
}

TEST(HybridSystem, ValidationNamesTheProblem) {
  HybridSystem sys;
  const ModeId a = sys.add_mode("a", ode_flow(2, pendulum));
  const ModeId b =
      sys.add_mode("b", ode_flow(1, [](const auto&, const auto&, auto& d) { d[0] = 0.0; }));
  EXPECT_THROW(sys.add_mode("a", ode_flow(2, pendulum)), Error);  // duplicate name
  EXPECT_EQ(sys.mode_id("b"), b);
  try {
    sys.mode_id("c");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'a', 'b'"), std::string::npos) << e.what();
  }
  // An identity reset from a 2-state mode into a 1-state mode cannot work.
  sys.add_guard(a, make_guard(
                       "shrink", Direction::Rising,
                       [](const auto&, const auto& x, const auto&) { return x[0]; }, Reset::to(b)));
  try {
    sys.validate();
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("changes the state size (2 -> 1)"), std::string::npos)
        << e.what();
  }
}

TEST(Flow, TooLargeForAutomaticDifferentiationIsAClearError) {
  EXPECT_THROW(ode_flow(kMaxAutodiffSize + 1, [](const auto&, const auto&, auto&) {}), Error);
}

}  // namespace
}  // namespace saltus
