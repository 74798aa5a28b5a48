// FlowEvaluator's fast path (DirectRhs, core/flow.hpp): found in Flow::rhs by its type and called
// without std::function; a fast path that declines hands the call to `general`; a Flow whose rhs
// is replaced loses the fast path with it.
#include "saltus/ode/flow_evaluator.hpp"

#include <gtest/gtest.h>

#include <memory>

#include "saltus/core/flow.hpp"

namespace saltus::ode {
namespace {

struct Calls {
  mutable int fast = 0;
  bool decline = false;
};

// x' = 2 x, or declines.
bool twice(const void* context, double, const double* x, double* xdot) {
  const auto& calls = *static_cast<const Calls*>(context);
  ++calls.fast;
  if (calls.decline) return false;
  xdot[0] = 2.0 * x[0];
  xdot[1] = 2.0 * x[1];
  return true;
}

// The general callable differs from the fast one here (a DirectRhs must not do that) so that the
// test can tell which of them answered.
Flow flow_with_fast_path(const std::shared_ptr<Calls>& calls) {
  Flow flow;
  flow.kind = FlowKind::Ode;
  flow.nx = 2;
  flow.rhs = DirectRhs{&twice, calls,
                       [](double, const ConstVectorRef& x, const ConstVectorRef&, VectorRef xdot) {
                         xdot = 2.0 * x + Vector::Ones(2);
                       }};
  return flow;
}

// x' of `flow` at x through a FlowEvaluator, as the integrators call it; NaN where it failed.
Vector evaluated(const Flow& flow, const Vector& x) {
  FlowEvaluator eval(2, 0, NewtonOptions{});
  eval.set_flow(flow);
  Vector xdot(2);
  if (!eval.derivative(0.0, x, xdot)) xdot.setConstant(kNaN);
  return xdot;
}

const Vector kX = Eigen::Vector2d(0.5, -3.0);

TEST(FlowEvaluator, CallsTheFastPathFoundInTheRhs) {
  const auto calls = std::make_shared<Calls>();
  const Flow flow = flow_with_fast_path(calls);
  EXPECT_EQ(evaluated(flow, kX), Vector(2.0 * kX));
  EXPECT_EQ(calls->fast, 1);
  // Called through Flow::rhs as a std::function, the DirectRhs takes its fast path too.
  Vector xdot(2);
  flow.rhs(0.0, kX, Vector(), xdot);
  EXPECT_EQ(xdot, Vector(2.0 * kX));
  EXPECT_EQ(calls->fast, 2);
}

TEST(FlowEvaluator, DecliningFastPathHandsTheCallToTheGeneralOne) {
  const auto calls = std::make_shared<Calls>();
  calls->decline = true;
  EXPECT_EQ(evaluated(flow_with_fast_path(calls), kX), Vector(2.0 * kX + Vector::Ones(2)));
  EXPECT_EQ(calls->fast, 1);  // tried once, not again by the general path
}

TEST(FlowEvaluator, ReplacedRhsLosesTheFastPath) {
  const auto calls = std::make_shared<Calls>();
  Flow flow = flow_with_fast_path(calls);
  flow.rhs = [](double, const ConstVectorRef& x, const ConstVectorRef&, VectorRef xdot) {
    xdot = 3.0 * x;
  };
  EXPECT_EQ(evaluated(flow, kX), Vector(3.0 * kX));
  EXPECT_EQ(calls->fast, 0);
}

TEST(FlowEvaluator, NonFiniteFastResultIsAFailedEvaluation) {
  const auto calls = std::make_shared<Calls>();
  EXPECT_TRUE(evaluated(flow_with_fast_path(calls), Eigen::Vector2d(kInfinity, 1.0)).hasNaN());
  EXPECT_EQ(calls->fast, 1);
}

}  // namespace
}  // namespace saltus::ode
