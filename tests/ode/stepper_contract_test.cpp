// The DenseStepper contract, checked once for every integrator: failures are reported with the
// state left at the last good step, and a restart on the same object reproduces a run bit for
// bit (no hidden state survives restart()).
#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace
}  // namespace saltus::ode
