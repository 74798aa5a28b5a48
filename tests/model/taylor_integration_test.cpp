// Taylor-series steps (ode/taylor_step.hpp) on coefficients from model::TaylorTape: the step-size
// rule and the dense output by hand, then whole integrations against closed forms over long
// times (the Chaplygin sleigh's free motion, FORMULAS.md 13.1; the harmonic oscillator over
// 100 periods), with errors bounded by a small multiple of the tolerance per step times steps.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "saltus/model/expression_graph.hpp"
#include "saltus/model/tape.hpp"
#include "saltus/model/tape_taylor.hpp"
#include "saltus/ode/taylor_step.hpp"
#include "support/sleigh_closed_form.hpp"

namespace saltus::model {
namespace {

TEST(TaylorStep, StepSizeFromTheLastTwoTerms) {
  // x = 2 + 0 tau + 0 tau^2 + 0.5 tau^3 + 0.25 tau^4, y = -1 + 3 tau (its last two terms zero)
  const std::vector<double> c = {2.0, 0.0, 0.0, 0.5, 0.25, -1.0, 3.0, 0.0, 0.0, 0.0};
  const double rtol = 1e-6, atol = 1e-9;
  const double tol_x = atol + rtol * 2.0;
  const double expected = 0.8 * std::min(std::cbrt(tol_x / 0.5), std::pow(tol_x / 0.25, 0.25));
  EXPECT_DOUBLE_EQ(ode::taylor_step_size(c.data(), 2, 4, rtol, atol, 0.8), expected);
  // Only y: a polynomial of degree 1 is exact over any step.
  EXPECT_EQ(ode::taylor_step_size(c.data() + 5, 1, 4, rtol, atol),
            std::numeric_limits<double>::infinity());
}

TEST(TaylorStep, DenseOutputIsThePolynomial) {
  const std::vector<double> c = {2.0, -1.0, 0.5, 0.25, -1.0, 3.0, 0.0, 4.0};  // order 3, n = 2
  double x[2], xdot[2];
  for (double tau : {-0.5, 0.0, 0.3, 1.7}) {
    ode::taylor_value(c.data(), 2, 3, tau, x);
    ode::taylor_derivative(c.data(), 2, 3, tau, xdot);
    EXPECT_NEAR(x[0], 2.0 - tau + 0.5 * tau * tau + 0.25 * tau * tau * tau, 1e-15);
    EXPECT_NEAR(x[1], -1.0 + 3.0 * tau + 4.0 * tau * tau * tau, 1e-14);
    EXPECT_NEAR(xdot[0], -1.0 + tau + 0.75 * tau * tau, 1e-15);
    EXPECT_NEAR(xdot[1], 3.0 + 12.0 * tau * tau, 1e-14);
  }
}

// Integrates x' = f by Taylor steps from (t0, x0) through the output times, calling
// check(t, x) at each; returns the number of steps.
int integrate(TaylorTape& taylor, int order, double rtol, double atol, double t0,
              std::vector<double> x, const std::vector<double>& outputs,
              const std::function<void(double, const std::vector<double>&)>& check) {
  const int n = taylor.states();
  std::vector<double> c(static_cast<size_t>(n * (order + 1)));
  double t = t0;
  int steps = 0;
  for (double t_out : outputs) {
    while (t < t_out) {
      EXPECT_TRUE(taylor.expand(t, x.data(), order, c.data())) << taylor.failure();
      const double h = std::min(ode::taylor_step_size(c.data(), n, order, rtol, atol), t_out - t);
      ode::taylor_value(c.data(), n, order, h, x.data());
      t = h == t_out - t ? t_out : t + h;
      ++steps;
    }
    check(t, x);
  }
  return steps;
}

TEST(TaylorStep, SleighFreeMotionOverLongTimesMatchesItsClosedForm) {
  const double m = 1.0, I = 0.1, a = 0.3, J = I + m * a * a;
  ExpressionGraph g;
  const NodeId th = g.state(2), v = g.state(3), w = g.state(4);
  const std::vector<NodeId> rhs = {
      g.make(OpCode::Mul, v, g.make(OpCode::Cos, th)),
      g.make(OpCode::Mul, v, g.make(OpCode::Sin, th)), w,
      g.make(OpCode::Mul, g.constant(a), g.make(OpCode::Mul, w, w)),
      g.make(OpCode::Mul, g.constant(-m * a / J), g.make(OpCode::Mul, v, w))};
  std::vector<TapeOutput> outputs;
  for (size_t i = 0; i < rhs.size(); ++i) outputs.push_back({rhs[i], static_cast<int>(i)});
  const Tape tape = compile_tape(g, outputs);
  const double v0 = 0.4, w0 = -2.5, th0 = 0.3;
  const testing::SleighClosedForm exact{m, I, a, v0, w0, th0};
  for (const auto& [order, rtol] : {std::pair{12, 1e-10}, std::pair{20, 1e-13}}) {
    TaylorTape taylor(tape, 5);
    double worst = 0.0;
    const int steps = integrate(
        taylor, order, rtol, 1e-3 * rtol, 0.0, {0.0, 0.0, th0, v0, w0}, {1.0, 5.0, 20.0, 100.0},
        [&](double t, const std::vector<double>& x) {
          worst = std::max({worst, std::abs(x[3] - exact.v(t)), std::abs(x[4] - exact.omega(t)),
                            std::abs(x[2] - exact.theta(t))});
        });
    // Local errors of ~rtol per step accumulate at most linearly over the steps.
    EXPECT_LT(worst, 10.0 * rtol * steps) << "order " << order << ", " << steps << " steps";
    EXPECT_GT(steps, 10);
  }
}

TEST(TaylorStep, HarmonicOscillatorOverHundredPeriods) {
  ExpressionGraph g;
  const Tape tape = compile_tape(g, {{g.state(1), 0}, {g.make(OpCode::Neg, g.state(0)), 1}});
  TaylorTape taylor(tape, 2);
  const double rtol = 1e-13;
  const double period = 2.0 * std::acos(-1.0);
  double worst = 0.0;
  const int steps = integrate(
      taylor, 24, rtol, 1e-16, 0.0, {1.0, 0.0}, {10.0 * period, 100.0 * period},
      [&](double t, const auto& x) {
        worst = std::max({worst, std::abs(x[0] - std::cos(t)), std::abs(x[1] + std::sin(t))});
      });
  EXPECT_LT(worst, 10.0 * rtol * steps) << steps << " steps";
}

}  // namespace
}  // namespace saltus::model
