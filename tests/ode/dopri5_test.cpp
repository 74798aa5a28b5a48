#include "saltus/ode/dopri5.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "saltus/ode/dense_stepper.hpp"

namespace saltus::ode {
namespace {

static_assert(DenseStepper<Dopri5>);

// x'' = -x, x(0) = 1, x'(0) = 0: x = cos t.
Flow harmonic() {
  return ode_flow(2, [](const auto&, const auto& x, auto& xdot) {
    xdot[0] = x[1];
    xdot[1] = -x[0];
  });
}

double integrate_fixed(int steps) {
  const Flow flow = harmonic();
  StepperOptions o;
  o.h_initial = 1.0 / steps;
  o.rtol = 1e3;  // accept every step: fixed step size for the order test
  o.atol = 1e3;
  o.fac_max = 1.0 + 1e-12;
  o.fac_min = 1.0 - 1e-12;
  Dopri5 s(o, 2, 0);
  s.set_flow(flow);
  Vector x0(2);
  x0 << 1.0, 0.0;
  EXPECT_EQ(s.restart(0.0, x0, Vector(), false), StepStatus::Accepted);
  while (s.time() < 1.0 - 1e-14) EXPECT_EQ(s.step(1.0), StepStatus::Accepted);
  return std::abs(s.state()[0] - std::cos(1.0));
}

TEST(Dopri5, ConvergesWithOrderFive) {
  const double e1 = integrate_fixed(10);
  const double e2 = integrate_fixed(20);
  const double order = std::log2(e1 / e2);
  EXPECT_NEAR(order, 5.0, 0.25) << "errors " << e1 << " " << e2;
}

// Local error of the continuous extension inside one step started on the exact solution: an
// order-4 interpolant has error O(h^5), a ratio 2^5 per halving (docs/VALIDATION.md).
double one_step_dense_error(double h) {
  const Flow flow = harmonic();
  StepperOptions o;
  o.h_initial = h;
  o.rtol = 1e10;
  o.atol = 1e10;
  Dopri5 s(o, 2, 0);
  s.set_flow(flow);
  const double t0 = 0.3;
  Vector x0(2), x(2);
  x0 << std::cos(t0), -std::sin(t0);
  EXPECT_EQ(s.restart(t0, x0, Vector(), false), StepStatus::Accepted);
  EXPECT_EQ(s.step(t0 + h), StepStatus::Accepted);
  double worst = 0.0;
  for (int i = 1; i < 20; ++i) {
    const double t = t0 + h * i / 20.0;
    s.interpolate(t, x);
    worst = std::max(worst, std::hypot(x[0] - std::cos(t), x[1] + std::sin(t)));
  }
  return worst;
}

TEST(Dopri5, DenseOutputHasOrderFour) {
  const double e1 = one_step_dense_error(0.2), e2 = one_step_dense_error(0.1);
  EXPECT_NEAR(std::log2(e1 / e2), 5.0, 0.5) << e1 << " " << e2;
}

TEST(Dopri5, DenseOutputMatchesSolutionToTolerance) {
  const Flow flow = harmonic();
  StepperOptions o;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  Dopri5 s(o, 2, 0);
  s.set_flow(flow);
  Vector x0(2), x(2), v(2);
  x0 << 1.0, 0.0;
  ASSERT_EQ(s.restart(0.0, x0, Vector(), false), StepStatus::Accepted);
  double worst = 0.0, worst_derivative = 0.0;
  while (s.time() < 5.0) {
    ASSERT_EQ(s.step(5.0), StepStatus::Accepted);
    const StepSpan iv = s.interval();
    for (int i = 0; i <= 10; ++i) {
      const double t = iv.t0 + i * iv.length() / 10;
      s.interpolate(t, x);
      s.interpolate_derivative(t, v);
      worst = std::max(worst, std::abs(x[0] - std::cos(t)));
      worst_derivative = std::max(worst_derivative, std::abs(v[0] + std::sin(t)));
    }
  }
  EXPECT_LT(worst, 1e-8);
  EXPECT_LT(worst_derivative, 1e-7);
}

TEST(Dopri5, ReachesToleranceAdaptively) {
  const Flow flow = harmonic();
  for (double rtol : {1e-6, 1e-9, 1e-12}) {
    StepperOptions o;
    o.rtol = rtol;
    o.atol = rtol;
    Dopri5 s(o, 2, 0);
    s.set_flow(flow);
    Vector x0(2);
    x0 << 1.0, 0.0;
    ASSERT_EQ(s.restart(0.0, x0, Vector(), false), StepStatus::Accepted);
    while (s.time() < 10.0) ASSERT_EQ(s.step(10.0), StepStatus::Accepted);
    EXPECT_DOUBLE_EQ(s.time(), 10.0);
    EXPECT_LT(std::abs(s.state()[0] - std::cos(10.0)), 50 * rtol) << "rtol " << rtol;
  }
}

}  // namespace
}  // namespace saltus::ode
