// Automatic starting step size (Hairer-Norsett-Wanner I, II.4, "Starting Step Size"):
// h0 = 0.01 ||x0|| / ||f0||, one explicit Euler trial, then h1 from the estimated second
// derivative, h = min(100 h0, h1). Costs one extra f evaluation. Never below twice the clock's
// resolution (minimum_step): a state at round-off level with a large rate (a block stuck on a belt
// at u = 1e-17 starting to slip) gave h0 = 0.01 ||x0|| / ||f0|| ~ 1e-20, a step the clock cannot
// take, and the run ended in a step-size underflow before its first try; from there the step
// controller grows the step as the error allows.
#pragma once

#include <algorithm>
#include <cmath>

#include "saltus/ode/error_norm.hpp"
#include "saltus/ode/flow_evaluator.hpp"

namespace saltus::ode {

// `work` must hold at least 2 columns of x's size. Returns a step for a method of order `order`.
inline double initial_step(FlowEvaluator& eval, double t, ConstVectorRef x, ConstVectorRef f0,
                           int order, const StepperOptions& o, MatrixRef work,
                           long& rhs_evaluations) {
  const Eigen::Index n = x.size();
  if (n == 0) return std::min(o.h_max, 1.0);
  auto x1 = work.col(0);
  auto f1 = work.col(1);
  double dnf = 0.0, dny = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double sk = component_scale(o, i, x[i], x[i]);
    dnf += (f0[i] / sk) * (f0[i] / sk);
    dny += (x[i] / sk) * (x[i] / sk);
  }
  double h = (dnf <= 1e-10 || dny <= 1e-10) ? 1e-6 : std::sqrt(dny / dnf) * 0.01;
  h = std::min(h, o.h_max);
  x1 = x + h * f0;
  ++rhs_evaluations;
  if (!eval.derivative(t + h, x1, f1)) return std::max(h * 1e-3, 2.0 * minimum_step(t, o));
  double der2 = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double sk = component_scale(o, i, x[i], x[i]);
    const double d = (f1[i] - f0[i]) / sk;
    der2 += d * d;
  }
  der2 = std::sqrt(der2) / h;
  const double der12 = std::max(der2, std::sqrt(dnf));
  const double h1 =
      der12 <= 1e-15 ? std::max(1e-6, h * 1e-3) : std::pow(0.01 / der12, 1.0 / (order + 1));
  return std::max(std::min({100.0 * h, h1, o.h_max}), 2.0 * minimum_step(t, o));
}

}  // namespace saltus::ode
