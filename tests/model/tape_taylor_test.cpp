// Taylor coefficients of a flow tape's solution (model/tape_taylor.hpp): exact series of
// solutions known in closed form, every coefficient; the Chaplygin sleigh's reduced flow against
// its closed form (FORMULAS.md 13.1); seeded random flows over every smooth operation, whose
// Taylor polynomial must satisfy x' = f(t, x) as the tape's own double evaluation computes f;
// the piecewise operations' branches; and the failures, each named.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "saltus/model/expression_graph.hpp"
#include "saltus/model/tape.hpp"
#include "saltus/model/tape_taylor.hpp"
#include "support/random_expression.hpp"
#include "support/sleigh_closed_form.hpp"

namespace saltus::model {
namespace {

// Coefficients of x_i (order + 1 of them) from TaylorTape::expand.
struct Expansion {
  std::vector<double> c;
  int order = 0;
  double at(int i, int k) const { return c[static_cast<size_t>(i * (order + 1) + k)]; }
  double value(int i, double tau) const {  // Horner
    double s = 0.0;
    for (int k = order; k >= 0; --k) s = s * tau + at(i, k);
    return s;
  }
  double rate(int i, double tau) const {
    double s = 0.0;
    for (int k = order; k >= 1; --k) s = s * tau + k * at(i, k);
    return s;
  }
};

// One expansion with `taylor` (an integrator reuses it step after step: its storage then holds
// the previous expansion's coefficients).
Expansion expand(TaylorTape& taylor, int n, double t0, const std::vector<double>& x0, int order) {
  Expansion e;
  e.order = order;
  e.c.assign(static_cast<size_t>(n * (order + 1)), 0.0);
  EXPECT_TRUE(taylor.expand(t0, x0.data(), order, e.c.data())) << taylor.failure();
  return e;
}

Expansion expand(const Tape& tape, int n, double t0, const std::vector<double>& x0, int order) {
  TaylorTape taylor(tape, n);
  return expand(taylor, n, t0, x0, order);
}

Tape flow_tape(ExpressionGraph& g, const std::vector<NodeId>& rhs) {
  std::vector<TapeOutput> outputs;
  for (size_t i = 0; i < rhs.size(); ++i) outputs.push_back({rhs[i], static_cast<int>(i)});
  return compile_tape(g, outputs);
}

double factorial(int k) {
  return std::tgamma(k + 1.0);
}

TEST(TapeTaylor, ExactSeriesOfClosedFormSolutions) {
  const int order = 24;
  {  // x' = x^2, x(0) = 0.5: x = x0 / (1 - x0 t), coefficients x0^(k+1)
    ExpressionGraph g;
    const Tape tape = flow_tape(g, {g.make(OpCode::Mul, g.state(0), g.state(0))});
    const Expansion e = expand(tape, 1, 0.0, {0.5}, order);
    for (int k = 0; k <= order; ++k) EXPECT_DOUBLE_EQ(e.at(0, k), std::pow(0.5, k + 1)) << k;
  }
  {  // x' = -y, y' = x (a leaf output), (1, 0): cos and sin
    ExpressionGraph g;
    const Tape tape = flow_tape(g, {g.make(OpCode::Neg, g.state(1)), g.state(0)});
    const Expansion e = expand(tape, 2, 3.0, {1.0, 0.0}, order);
    for (int k = 0; k <= order; ++k) {
      const double cos_k = k % 2 == 0 ? (k % 4 == 0 ? 1.0 : -1.0) / factorial(k) : 0.0;
      const double sin_k = k % 2 == 1 ? (k % 4 == 1 ? 1.0 : -1.0) / factorial(k) : 0.0;
      EXPECT_NEAR(e.at(0, k), cos_k, 1e-16) << k;
      EXPECT_NEAR(e.at(1, k), sin_k, 1e-16) << k;
    }
  }
  {  // x' = exp(t) + cos(t) from t0 = 0.7: x_k = (e^t0 + cos^(k-1)(t0)) / k!
    ExpressionGraph g;
    const NodeId t = g.time();
    const Tape tape =
        flow_tape(g, {g.make(OpCode::Add, g.make(OpCode::Exp, t), g.make(OpCode::Cos, t))});
    const double t0 = 0.7;
    const Expansion e = expand(tape, 1, t0, {2.0}, order);
    EXPECT_EQ(e.at(0, 0), 2.0);
    for (int k = 1; k <= order; ++k) {
      const int d = (k - 1) % 4;  // derivative k - 1 of cos
      const double cos_d = d == 0   ? std::cos(t0)
                           : d == 1 ? -std::sin(t0)
                           : d == 2 ? -std::cos(t0)
                                    : std::sin(t0);
      const double expected = (std::exp(t0) + cos_d) / factorial(k);
      EXPECT_NEAR(e.at(0, k), expected, 4e-16 * std::max(1.0, std::abs(expected))) << k;
    }
  }
  {  // x' = t^3 + t^7 from 0, integer powers of a base that is 0 at the start: t^4/4 + t^8/8
    ExpressionGraph g;
    const NodeId t = g.time();
    const Tape tape = flow_tape(g, {g.make(OpCode::Add, g.pow_const(t, 3.0), g.pow_const(t, 7.0))});
    const Expansion e = expand(tape, 1, 0.0, {0.0}, 10);
    for (int k = 0; k <= 10; ++k) {
      EXPECT_EQ(e.at(0, k), k == 4 ? 0.25 : (k == 8 ? 0.125 : 0.0)) << k;
    }
  }
  {  // x' = 1 / (1 + t^2) from 0: atan t = t - t^3/3 + t^5/5 - ...
    ExpressionGraph g;
    const NodeId t = g.time();
    const Tape tape =
        flow_tape(g, {g.make(OpCode::Div, g.constant(1.0),
                             g.make(OpCode::Add, g.constant(1.0), g.make(OpCode::Mul, t, t)))});
    const Expansion e = expand(tape, 1, 0.0, {0.0}, order);
    for (int k = 0; k <= order; ++k) {
      const double expected = k % 2 == 1 ? (k % 4 == 1 ? 1.0 : -1.0) / k : 0.0;
      EXPECT_NEAR(e.at(0, k), expected, 1e-15) << k;
    }
  }
}

// FORMULAS.md 13.1: v = V tanh(s), w = w0 sech(s) / sech(s0), theta from the Gudermannian, with
// s = a m V t / (I + m a^2) + atanh(v0 / V); the Taylor polynomial of order 30 at tau <= 0.3.
TEST(TapeTaylor, SleighReducedFlowMatchesItsClosedForm) {
  const double m = 1.0, I = 0.1, a = 0.3, J = I + m * a * a;
  ExpressionGraph g;
  const NodeId th = g.state(2), v = g.state(3), w = g.state(4);
  const Tape tape =
      flow_tape(g, {g.make(OpCode::Mul, v, g.make(OpCode::Cos, th)),
                    g.make(OpCode::Mul, v, g.make(OpCode::Sin, th)), w,
                    g.make(OpCode::Mul, g.constant(a), g.make(OpCode::Mul, w, w)),
                    g.make(OpCode::Mul, g.constant(-m * a / J), g.make(OpCode::Mul, v, w))});
  for (const auto& [v0, w0, th0] :
       {std::tuple{1.0, 1.5, 0.4}, std::tuple{-0.3, -2.0, 5.0}, std::tuple{0.2, 0.7, -1.0}}) {
    const int order = 30;
    const Expansion e = expand(tape, 5, 0.0, {0.1, 0.2, th0, v0, w0}, order);
    const testing::SleighClosedForm exact{m, I, a, v0, w0, th0};
    for (double tau : {0.1, 0.2, 0.3}) {
      EXPECT_NEAR(e.value(3, tau), exact.v(tau), 1e-13);
      EXPECT_NEAR(e.value(4, tau), exact.omega(tau), 1e-13);
      EXPECT_NEAR(e.value(2, tau), exact.theta(tau), 1e-13);
    }
  }
}

// The Taylor polynomial p of the solution satisfies p'(tau) = f(t0 + tau, p(tau)) up to the
// truncation, with f evaluated by the tape in doubles (libm's functions, not the recurrences).
TEST(TapeTaylor, RandomFlowsSatisfyTheirOde) {
  std::mt19937 rng(2026112701);
  std::uniform_real_distribution<double> value(-1.5, 1.5);
  int checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    ExpressionGraph g;
    auto params = std::make_shared<std::vector<double>>(std::vector<double>{0.7, -1.3});
    g.share_parameter_values(params);
    const int n = 1 + trial % 4;
    std::vector<NodeId> leaves = {g.time(), g.parameter(0), g.parameter(1)};
    for (int i = 0; i < n; ++i) leaves.push_back(g.state(i));
    std::vector<NodeId> rhs;
    for (int i = 0; i < n; ++i) {
      // A scale keeps the radius of convergence away from tau (nested functions grow fast).
      rhs.push_back(
          g.make(OpCode::Mul, g.constant(0.3),
                 g.make(OpCode::Tanh, testing::random_expression(g, rng, leaves, 1 + trial % 3,
                                                                 testing::Kinks::Avoided))));
    }
    const Tape tape = flow_tape(g, rhs);
    TaylorTape taylor(tape, n);
    for (int s = 0; s < 5; ++s) {
      (*params)[1] = value(rng);  // a run-time parameter written after the tape was built
      std::vector<double> x0(static_cast<size_t>(n));
      for (double& v : x0) v = value(rng);
      const double t0 = value(rng);
      const int order = 24;
      const Expansion e = expand(taylor, n, t0, x0, order);
      for (int i = 0; i < n; ++i) EXPECT_EQ(e.at(i, 0), x0[static_cast<size_t>(i)]);
      for (double tau : {0.01, 0.02, 0.04}) {
        std::vector<double> x(static_cast<size_t>(n)), f(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) x[static_cast<size_t>(i)] = e.value(i, tau);
        run(tape, t0 + tau, x, x, x, [&](int k, double v) { f[static_cast<size_t>(k)] = v; });
        for (int i = 0; i < n; ++i) {
          EXPECT_NEAR(e.rate(i, tau), f[static_cast<size_t>(i)], 1e-12)
              << "trial " << trial << " start " << s << " x" << i << " tau " << tau;
        }
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 60 * 5 * 3);
}

// abs, min, max, if and comparisons follow the branch that holds just after t0, decided by the
// first coefficient where the operands differ when their values tie.
TEST(TapeTaylor, PiecewiseOperationsTakeTheBranchAfterTheStart) {
  ExpressionGraph g;
  const NodeId t = g.time(), x = g.state(0);
  // x' = abs(t) from t0 = 0 (t's value 0, then rising): x = t^2 / 2
  {
    const Tape tape = flow_tape(g, {g.make(OpCode::Abs, t)});
    const Expansion e = expand(tape, 1, 0.0, {0.0}, 4);
    EXPECT_EQ(e.at(0, 1), 0.0);
    EXPECT_EQ(e.at(0, 2), 0.5);
    const Expansion before = expand(tape, 1, -1.0, {0.0}, 4);  // |t| = -t there
    EXPECT_EQ(before.at(0, 1), 1.0);
    EXPECT_EQ(before.at(0, 2), -0.5);
  }
  // x' = max(t, -t) from 0: t is larger just after, so x = t^2 / 2; min gives -t^2 / 2
  {
    const Tape tape = flow_tape(g, {g.make(OpCode::Max, t, g.make(OpCode::Neg, t)),
                                    g.make(OpCode::Min, t, g.make(OpCode::Neg, t))});
    const Expansion e = expand(tape, 2, 0.0, {0.0, 0.0}, 4);
    EXPECT_EQ(e.at(0, 2), 0.5);
    EXPECT_EQ(e.at(1, 2), -0.5);
  }
  // x' = if(x > 1, 2 t, -3): the branch of the start's x
  {
    const Tape tape =
        flow_tape(g, {g.make(OpCode::If, g.make(OpCode::Greater, x, g.constant(1.0)),
                             g.make(OpCode::Mul, g.constant(2.0), t), g.constant(-3.0))});
    EXPECT_EQ(expand(tape, 1, 1.0, {2.0}, 3).at(0, 2), 1.0);  // 2 t: x = x0 + 2 t0 tau + tau^2
    EXPECT_EQ(expand(tape, 1, 1.0, {0.0}, 3).at(0, 1), -3.0);
    EXPECT_EQ(expand(tape, 1, 1.0, {0.0}, 3).at(0, 2), 0.0);
  }
}

// A TaylorTape keeps what it needs of its tape (the tape may be a temporary) and reads the
// run-time parameters' current values at each expansion: x' = p x gives x0 p^k / k!.
TEST(TapeTaylor, OutlivesItsTapeAndReadsParameterWrites) {
  ExpressionGraph g;
  auto params = std::make_shared<std::vector<double>>(std::vector<double>{2.0});
  g.share_parameter_values(params);
  TaylorTape taylor(flow_tape(g, {g.make(OpCode::Mul, g.parameter(0), g.state(0))}), 1);
  for (double p : {2.0, -0.5}) {
    (*params)[0] = p;
    const Expansion e = expand(taylor, 1, 0.0, {3.0}, 6);
    for (int k = 0; k <= 6; ++k) EXPECT_DOUBLE_EQ(e.at(0, k), 3.0 * std::pow(p, k) / factorial(k));
  }
}

TEST(TapeTaylor, FailuresAreNamed) {
  ExpressionGraph g;
  const NodeId x = g.state(0);
  std::vector<double> c(8);
  {
    TaylorTape sqrt_at_zero(flow_tape(g, {g.make(OpCode::Sqrt, x)}), 1);
    const double x0 = 0.0;
    EXPECT_FALSE(sqrt_at_zero.expand(0.0, &x0, 7, c.data()));
    EXPECT_NE(sqrt_at_zero.failure().find("sqrt"), std::string::npos) << sqrt_at_zero.failure();
  }
  {
    TaylorTape pole(flow_tape(g, {g.make(OpCode::Div, g.constant(1.0), x)}), 1);
    const double x0 = 0.0;
    EXPECT_FALSE(pole.expand(0.0, &x0, 7, c.data()));
    EXPECT_NE(pole.failure().find("not finite"), std::string::npos) << pole.failure();
  }
  {  // a condition slot (such as a pivot) that is not > 0
    Tape tape = compile_tape(g, {{g.make(OpCode::Neg, x), 0}, {x, 1}});
    tape.positive_from = 1;
    TaylorTape conditioned(tape, 1);
    const double bad = -0.5, good = 0.5;
    EXPECT_FALSE(conditioned.expand(0.0, &bad, 7, c.data()));
    EXPECT_NE(conditioned.failure().find("condition"), std::string::npos);
    EXPECT_TRUE(conditioned.expand(0.0, &good, 7, c.data())) << conditioned.failure();
    EXPECT_DOUBLE_EQ(c[1], -0.5);
  }
  EXPECT_THROW(TaylorTape(flow_tape(g, {g.state_rate(0)}), 1), std::invalid_argument);
  EXPECT_THROW(TaylorTape(flow_tape(g, {x}), 2), std::invalid_argument);  // x'[1] never stored
}

}  // namespace
}  // namespace saltus::model
