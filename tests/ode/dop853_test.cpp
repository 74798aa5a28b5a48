// Dormand-Prince 8(5,3) (DOP853): order, dense output, tolerance proportionality, DAEs, restart,
// failure statuses.
#include "saltus/ode/dop853.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "saltus/ode/dense_stepper.hpp"
#include "saltus/ode/dopri5.hpp"
#include "saltus/ode/error_norm.hpp"

namespace saltus::ode {
namespace {

// DOP853 takes the norms of its two error estimates in one pass (error_norms): each equals
// error_norm() of its estimate bit for bit, with scalar and per-component tolerances, on seeded
// random estimates and states of 1 to 9 components.
TEST(Dop853, BothErrorNormsInOnePassAreEachNormsBits) {
  std::mt19937 rng(2611);
  std::uniform_real_distribution<double> value(-10.0, 10.0), log_tol(-12.0, -2.0);
  const auto same_bits = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  int checked = 0;
  for (int c = 0; c < 200; ++c) {
    const int n = 1 + c % 9;
    StepperOptions o;
    o.rtol = std::pow(10.0, log_tol(rng));
    o.atol = std::pow(10.0, log_tol(rng));
    if (c % 2 == 1) {
      o.rtol_per_component = Vector::Constant(n - c % 3 / 2, 0.0);  // some shorter than n
      for (double& r : o.rtol_per_component) r = std::pow(10.0, log_tol(rng));
      o.atol_per_component = Vector::Constant(n, 0.0);
      for (double& a : o.atol_per_component) a = std::pow(10.0, log_tol(rng));
    }
    std::vector<double> ea(n), eb(n), x0(n), x1(n);
    for (int i = 0; i < n; ++i) {
      ea[i] = 1e-6 * value(rng), eb[i] = 1e-6 * value(rng);
      x0[i] = value(rng), x1[i] = value(rng);
    }
    double na = -1.0, nb = -1.0;
    error_norms(ea.data(), eb.data(), x0.data(), x1.data(), n, o, na, nb);
    EXPECT_TRUE(same_bits(na, error_norm(ea.data(), x0.data(), x1.data(), n, o))) << "case " << c;
    EXPECT_TRUE(same_bits(nb, error_norm(eb.data(), x0.data(), x1.data(), n, o))) << "case " << c;
    EXPECT_GT(na, 0.0);
    ++checked;
  }
  EXPECT_EQ(checked, 200);
}

static_assert(DenseStepper<Dop853>);

// Nonlinear limit cycle x' = -y + x (1 - r^2), y' = x + y (1 - r^2): in polar coordinates
// r' = r (1 - r^2), theta' = 1, so r(t) = 1 / sqrt(1 + (1 / r0^2 - 1) e^(-2t)), theta = t.
// Nonlinear, so every elementary differential (not only the linear ones) enters the error.
Flow limit_cycle() {
  return ode_flow(2, [](const auto&, const auto& x, auto& xdot) {
    const auto s = 1.0 - (x[0] * x[0] + x[1] * x[1]);
    xdot[0] = -x[1] + x[0] * s;
    xdot[1] = x[0] + x[1] * s;
  });
}
constexpr double kR0 = 0.5;
Vector limit_cycle_exact(double t) {
  const double r = 1.0 / std::sqrt(1.0 + (1.0 / (kR0 * kR0) - 1.0) * std::exp(-2.0 * t));
  Vector x(2);
  x << r * std::cos(t), r * std::sin(t);
  return x;
}
Vector limit_cycle_exact_derivative(double t) {
  const Vector x = limit_cycle_exact(t);
  const double s = 1.0 - x.squaredNorm();
  Vector v(2);
  v << -x[1] + x[0] * s, x[0] + x[1] * s;
  return v;
}

// Exactly `steps` steps of size T / steps: each step is limited to the next grid point and the
// proposed step is never smaller (huge tolerance), so every step is the grid step.
double fixed_step_error(int steps, double t_end) {
  const Flow flow = limit_cycle();
  StepperOptions o;
  o.h_initial = 10.0 * t_end;
  o.rtol = 1e10;
  o.atol = 1e10;
  Dop853 s(o, 2, 0);
  s.set_flow(flow);
  EXPECT_EQ(s.restart(0.0, limit_cycle_exact(0.0), Vector(), false), StepStatus::Accepted);
  for (int i = 1; i <= steps; ++i) {
    EXPECT_EQ(s.step(t_end * i / steps), StepStatus::Accepted);
  }
  EXPECT_EQ(s.stats().accepted_steps, steps);
  EXPECT_EQ(s.stats().rejected_steps, 0);
  return (s.state() - limit_cycle_exact(t_end)).norm();
}

// Global error at T = 4 with h = 0.5, 0.25, 0.125: the order is log2(e(h) / e(h/2)).
// Measured (Release, x86-64): 7.78 and 7.97 (errors 1.8e-8, 8.3e-11, 3.3e-13).
TEST(Dop853, ConvergesWithOrderEight) {
  const double e1 = fixed_step_error(8, 4.0);
  const double e2 = fixed_step_error(16, 4.0);
  const double e3 = fixed_step_error(32, 4.0);
  const double p1 = std::log2(e1 / e2), p2 = std::log2(e2 / e3);
  std::printf("dop853 fixed-step errors %.3e %.3e %.3e, orders %.2f %.2f\n", e1, e2, e3, p1, p2);
  EXPECT_NEAR(p1, 8.0, 0.4) << "errors " << e1 << " " << e2 << " " << e3;
  EXPECT_NEAR(p2, 8.0, 0.4) << "errors " << e1 << " " << e2 << " " << e3;
}

// Local error of the continuous extension (order 7: error O(h^8) inside one step started on the
// exact solution), measured as the max over 20 interior points for h and h/2.
double one_step_dense_error(double h, double* derivative_error) {
  const Flow flow = limit_cycle();
  StepperOptions o;
  o.h_initial = h;
  o.rtol = 1e10;
  o.atol = 1e10;
  Dop853 s(o, 2, 0);
  s.set_flow(flow);
  const double t0 = 0.3;
  EXPECT_EQ(s.restart(t0, limit_cycle_exact(t0), Vector(), false), StepStatus::Accepted);
  EXPECT_EQ(s.step(t0 + h), StepStatus::Accepted);
  Vector x(2), v(2);
  double worst = 0.0;
  *derivative_error = 0.0;
  for (int i = 1; i < 20; ++i) {
    const double t = t0 + h * i / 20.0;
    s.interpolate(t, x);
    s.interpolate_derivative(t, v);
    worst = std::max(worst, (x - limit_cycle_exact(t)).norm());
    *derivative_error = std::max(*derivative_error, (v - limit_cycle_exact_derivative(t)).norm());
  }
  return worst;
}

TEST(Dop853, DenseOutputHasOrderSeven) {
  double d1 = 0.0, d2 = 0.0;
  const double e1 = one_step_dense_error(0.2, &d1);
  const double e2 = one_step_dense_error(0.1, &d2);
  std::printf("dop853 dense local errors %.3e %.3e (exponent %.2f), derivative %.3e %.3e (%.2f)\n",
              e1, e2, std::log2(e1 / e2), d1, d2, std::log2(d1 / d2));
  // Local error of an order-7 interpolant: O(h^8), ratio 2^8 per halving.
  EXPECT_NEAR(std::log2(e1 / e2), 8.0, 0.5) << e1 << " " << e2;
  // Its derivative is one order lower: O(h^7).
  EXPECT_NEAR(std::log2(d1 / d2), 7.0, 0.5) << d1 << " " << d2;
}

TEST(Dop853, DenseOutputMatchesSolutionInsideSteps) {
  const Flow flow = limit_cycle();
  StepperOptions o;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  Dop853 s(o, 2, 0);
  s.set_flow(flow);
  Vector x(2), v(2);
  ASSERT_EQ(s.restart(0.0, limit_cycle_exact(0.0), Vector(), false), StepStatus::Accepted);
  double worst = 0.0, worst_derivative = 0.0;
  while (s.time() < 8.0) {
    ASSERT_EQ(s.step(8.0), StepStatus::Accepted);
    const StepSpan iv = s.interval();
    for (int i = 0; i <= 10; ++i) {
      const double t = iv.t0 + i * iv.length() / 10;
      s.interpolate(t, x);
      s.interpolate_derivative(t, v);
      worst = std::max(worst, (x - limit_cycle_exact(t)).norm());
      worst_derivative = std::max(worst_derivative, (v - limit_cycle_exact_derivative(t)).norm());
    }
    // The interpolant reproduces the step ends.
    s.interpolate(iv.t1, x);
    EXPECT_LT((x - s.state()).norm(), 1e-14);
  }
  EXPECT_LT(worst, 1e-9);
  EXPECT_LT(worst_derivative, 1e-8);
  EXPECT_LT(s.stats().accepted_steps, 100);
}

TEST(Dop853, ReachesToleranceAdaptively) {
  const Flow flow = limit_cycle();
  for (double rtol : {1e-6, 1e-9, 1e-12}) {
    StepperOptions o;
    o.rtol = rtol;
    o.atol = rtol;
    Dop853 s(o, 2, 0);
    s.set_flow(flow);
    ASSERT_EQ(s.restart(0.0, limit_cycle_exact(0.0), Vector(), false), StepStatus::Accepted);
    while (s.time() < 10.0) ASSERT_EQ(s.step(10.0), StepStatus::Accepted);
    EXPECT_DOUBLE_EQ(s.time(), 10.0);
    const double error = (s.state() - limit_cycle_exact(10.0)).norm();
    std::printf("dop853 rtol %.0e: error %.2e (%.2f rtol), %ld steps\n", rtol, error, error / rtol,
                s.stats().accepted_steps);
    EXPECT_LT(error, 10 * rtol) << "rtol " << rtol;
  }
}

TEST(Dop853, FewerStepsThanDopri5AtTightTolerance) {
  const Flow flow = limit_cycle();
  StepperOptions o;
  o.rtol = 1e-11;
  o.atol = 1e-11;
  Dop853 a(o, 2, 0);
  Dopri5 b(o, 2, 0);
  a.set_flow(flow);
  b.set_flow(flow);
  ASSERT_EQ(a.restart(0.0, limit_cycle_exact(0.0), Vector(), false), StepStatus::Accepted);
  ASSERT_EQ(b.restart(0.0, limit_cycle_exact(0.0), Vector(), false), StepStatus::Accepted);
  while (a.time() < 10.0) ASSERT_EQ(a.step(10.0), StepStatus::Accepted);
  while (b.time() < 10.0) ASSERT_EQ(b.step(10.0), StepStatus::Accepted);
  EXPECT_LT(a.stats().rhs_evaluations, b.stats().rhs_evaluations);
}

// Semi-explicit index-1 DAE with a nonlinear constraint:
//   x1' = z, x2' = -x1, 0 = z^3 + z - (x2^3 + x2)  =>  z = x2, x1 = cos t, x2 = -sin t.
Flow semi_explicit_oscillator() {
  return semi_explicit_flow(
      2, 1,
      [](const auto&, const auto& x, const auto& z, auto& xdot) {
        xdot[0] = z[0];
        xdot[1] = -x[0];
      },
      [](const auto&, const auto& x, const auto& z, auto& g) {
        g[0] = z[0] * z[0] * z[0] + z[0] - (x[1] * x[1] * x[1] + x[1]);
      });
}
// The same in implicit form: F1 = x1'^3 + x1' - (z^3 + z), F2 = x2' + x1, g = z - x2.
Flow implicit_oscillator() {
  return implicit_flow(
      2, 1,
      [](const auto&, const auto& x, const auto& xdot, const auto& z, auto& res) {
        res[0] = xdot[0] * xdot[0] * xdot[0] + xdot[0] - (z[0] * z[0] * z[0] + z[0]);
        res[1] = xdot[1] + x[0];
      },
      [](const auto&, const auto& x, const auto& z, auto& g) { g[0] = z[0] - x[1]; });
}

template <class Stepper>
void expect_dae_solution(const Flow& flow, double rtol, double tolerance) {
  StepperOptions o;
  o.rtol = rtol;
  o.atol = rtol;
  Stepper s(o, 2, 1);
  s.set_flow(flow);
  Vector x0(2), z0(1);
  x0 << 1.0, 0.0;
  z0 << 0.3;  // inconsistent guess: restart() solves g = 0
  ASSERT_EQ(s.restart(0.0, x0, z0, false), StepStatus::Accepted);
  EXPECT_NEAR(s.evaluator().algebraic()[0], 0.0, 1e-12) << Stepper::kName;
  double worst_z = 0.0;
  while (s.time() < 5.0) {
    ASSERT_EQ(s.step(5.0), StepStatus::Accepted);
    // The algebraic state at each step end is consistent with the new x.
    worst_z = std::max(worst_z, std::abs(s.evaluator().algebraic()[0] - s.state()[1]));
  }
  EXPECT_NEAR(s.state()[0], std::cos(5.0), tolerance);
  EXPECT_NEAR(s.state()[1], -std::sin(5.0), tolerance);
  EXPECT_LT(worst_z, 1e-11);
}

TEST(Dop853, SemiExplicitDaeMatchesAnalyticSolution) {
  const Flow flow = semi_explicit_oscillator();
  expect_dae_solution<Dop853>(flow, 1e-10, 1e-9);
  expect_dae_solution<Dopri5>(flow, 1e-10, 1e-8);
}

TEST(Dop853, ImplicitDaeMatchesAnalyticSolution) {
  const Flow flow = implicit_oscillator();
  expect_dae_solution<Dop853>(flow, 1e-10, 1e-9);
  expect_dae_solution<Dopri5>(flow, 1e-10, 1e-8);
}

}  // namespace
}  // namespace saltus::ode
