// The DenseStepper contract, checked once for every integrator: failures are reported with the
// state left at the last good step, and a restart on the same object reproduces a run bit for
// bit (no hidden state survives restart()); dense_polynomial() encloses what interpolate() and
// interpolate_derivative() give.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "saltus/ode/dense_stepper.hpp"
#include "saltus/ode/dop853.hpp"
#include "saltus/ode/dopri5.hpp"
#include "saltus/ode/radau5.hpp"

namespace saltus::ode {
namespace {

static_assert(DenseStepper<Dopri5> && DenseStepper<Dop853> && DenseStepper<Radau5>);

template <class S>
class StepperContract : public ::testing::Test {};
using Steppers = ::testing::Types<Dopri5, Dop853, Radau5>;
TYPED_TEST_SUITE(StepperContract, Steppers);

Vector scalar(double v) {
  return Vector::Constant(1, v);
}

TYPED_TEST(StepperContract, ReportsNonFiniteStateAtStartAndDuringTheRun) {
  // f is NaN for x < 0 at the start ...
  const Flow sqrt_flow = ode_flow(1, [](const auto&, const auto& x, auto& xdot) {
    using std::sqrt;
    xdot[0] = sqrt(x[0]);
  });
  TypeParam s(StepperOptions{}, 1, 0);
  s.set_flow(sqrt_flow);
  EXPECT_EQ(s.restart(0.0, scalar(-1.0), Vector(), false), StepStatus::NonFiniteState);
  // ... and inside the run for t > 1: steps shrink onto t = 1 and then fail.
  const Flow nan_after_one = ode_flow(
      1, [](const auto& t, const auto&, auto& xdot) { xdot[0] = value_of(t) < 1.0 ? 1.0 : kNaN; });
  TypeParam r(StepperOptions{}, 1, 0);
  r.set_flow(nan_after_one);
  ASSERT_EQ(r.restart(0.0, scalar(0.0), Vector(), false), StepStatus::Accepted);
  StepStatus status = StepStatus::Accepted;
  for (int i = 0; i < 1000 && status == StepStatus::Accepted; ++i) status = r.step(2.0);
  EXPECT_EQ(status, StepStatus::NonFiniteState);
  EXPECT_LE(r.time(), 1.0);
  EXPECT_TRUE(r.state().allFinite());
}

TYPED_TEST(StepperContract, ReportsStepSizeUnderflowBeforeABlowUp) {
  // x' = x^2, x(0) = 1 blows up at t = 1.
  const Flow flow =
      ode_flow(1, [](const auto&, const auto& x, auto& xdot) { xdot[0] = x[0] * x[0]; });
  StepperOptions o;
  o.h_min = 1e-6;
  TypeParam s(o, 1, 0);
  s.set_flow(flow);
  ASSERT_EQ(s.restart(0.0, scalar(1.0), Vector(), false), StepStatus::Accepted);
  StepStatus status = StepStatus::Accepted;
  for (int i = 0; i < 10000 && status == StepStatus::Accepted; ++i) status = s.step(2.0);
  EXPECT_EQ(status, StepStatus::StepSizeUnderflow);
  EXPECT_LT(s.time(), 1.0);
  EXPECT_GT(s.time(), 0.99);
}

TYPED_TEST(StepperContract, RestartOnTheSameObjectIsReproducible) {
  // Van der Pol, mildly stiff (eps = 1e-2): every integrator can do it.
  const Flow flow = ode_flow(2, [](const auto&, const auto& y, auto& d) {
    d[0] = y[1];
    d[1] = ((1.0 - y[0] * y[0]) * y[1] - y[0]) / 1e-2;
  });
  StepperOptions o;
  o.rtol = 1e-7;
  o.atol = 1e-9;
  TypeParam s(o, 2, 0);
  s.set_flow(flow);
  Vector y0(2);
  y0 << 2.0, -0.66;
  auto run = [&] {
    EXPECT_EQ(s.restart(0.0, y0, Vector(), false), StepStatus::Accepted);
    const StepperStats before = s.stats();
    while (s.time() < 1.0) EXPECT_EQ(s.step(1.0), StepStatus::Accepted);
    return std::make_tuple(Vector(s.state()), s.stats().accepted_steps - before.accepted_steps,
                           s.stats().rhs_evaluations - before.rhs_evaluations);
  };
  const auto first = run();
  const auto second = run();
  EXPECT_EQ(std::get<1>(first), std::get<1>(second));
  EXPECT_EQ(std::get<2>(first), std::get<2>(second));
  EXPECT_EQ(std::get<0>(first)[0], std::get<0>(second)[0]);  // bitwise identical
  EXPECT_EQ(std::get<0>(first)[1], std::get<0>(second)[1]);
}

// The certified event search reads the dense output as a polynomial in u with enclosed
// coefficients: at 200 points of each of 40 steps of a nonlinear oscillator (Radau5 through its
// two forms), the polynomial evaluated in interval arithmetic holds interpolate()'s value and
// its derivative holds interpolate_derivative()'s, up to their own round-off (a few ulps of the
// terms, far below the state's scale 1).
TYPED_TEST(StepperContract, DensePolynomialEnclosesTheDenseOutput) {
  const Flow flow = ode_flow(2, [](const auto&, const auto& x, auto& xdot) {
    using std::sin;
    xdot[0] = x[1];
    xdot[1] = -sin(x[0]) - 0.1 * x[1] * x[1] * x[1];
  });
  StepperOptions o;
  o.rtol = 1e-6;
  o.atol = 1e-9;
  TypeParam s(o, 2, 0);
  s.set_flow(flow);
  ASSERT_EQ(s.restart(0.0, (Vector(2) << 2.5, 0.3).finished(), Vector(), false),
            StepStatus::Accepted);
  Interval c[kMaxDenseCoefficients];
  EXPECT_EQ(s.dense_polynomial(0, c), 1);  // no step yet: the state
  EXPECT_TRUE(c[0].contains(2.5));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Vector x(2), xdot(2);
  constexpr double kRoundOff = 1e-14;
  int checked = 0;
  for (int step = 0; step < 40; ++step) {
    ASSERT_EQ(s.step(100.0), StepStatus::Accepted);
    const StepSpan span = s.interval();
    const double h = span.length();
    for (int i = 0; i < 2; ++i) {
      const int n = s.dense_polynomial(i, c);
      ASSERT_GE(n, 4);
      ASSERT_LE(n, kMaxDenseCoefficients);
      for (int k = 0; k < 200; ++k) {
        const double u = k == 0 ? 0.0 : k == 1 ? 1.0 : unit(rng);
        const double t = k == 1 ? span.t1 : span.t0 + u * h;
        s.interpolate(t, x);
        s.interpolate_derivative(t, xdot);
        const Interval uu(u);
        Interval v = c[n - 1], d = Interval(n - 1.0) * c[n - 1];
        for (int j = n - 2; j >= 0; --j) v = uu * v + c[j];
        for (int j = n - 2; j >= 1; --j) d = uu * d + Interval(static_cast<double>(j)) * c[j];
        d = d / Interval(h);
        EXPECT_LE(v.lo, x[i] + kRoundOff) << "step " << step << " u " << u;
        EXPECT_GE(v.hi, x[i] - kRoundOff) << "step " << step << " u " << u;
        EXPECT_LT(v.width(), 1e-13);
        EXPECT_LE(d.lo, xdot[i] + kRoundOff / h) << "step " << step << " u " << u;
        EXPECT_GE(d.hi, xdot[i] - kRoundOff / h) << "step " << step << " u " << u;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 40 * 2 * 200);
}

}  // namespace
}  // namespace saltus::ode
