// Weighted RMS norm of a local error estimate (Hairer-Norsett-Wanner I, II.4 (4.11)):
//   ||err|| = sqrt(1/n sum_i (err_i / sc_i)^2),  sc_i = atol_i + rtol_i max(|x0_i|, |x1_i|).
// A step is accepted when ||err|| <= 1.
#pragma once

#include <algorithm>
#include <cmath>

#include "saltus/ode/stepper_options.hpp"

namespace saltus::ode {

inline double component_scale(const StepperOptions& o, Eigen::Index i, double x0, double x1) {
  const double rtol = o.rtol_per_component.size() > i ? o.rtol_per_component[i] : o.rtol;
  const double atol = o.atol_per_component.size() > i ? o.atol_per_component[i] : o.atol;
  return atol + rtol * std::max(std::abs(x0), std::abs(x1));
}

// On n entries of plain arrays: the explicit pairs' hot path builds no Eigen::Ref for it.
inline double error_norm(const double* err, const double* x0, const double* x1, Eigen::Index n,
                         const StepperOptions& o) {
  if (n == 0) return 0.0;
  double sum = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double r = err[i] / component_scale(o, i, x0[i], x1[i]);
    sum += r * r;
  }
  return std::sqrt(sum / static_cast<double>(n));
}

// The norms of two error estimates of one step (DOP853's 5th- and 3rd-order ones) with the
// scales computed once: each equals error_norm() of its estimate bit for bit.
inline void error_norms(const double* err_a, const double* err_b, const double* x0,
                        const double* x1, Eigen::Index n, const StepperOptions& o, double& norm_a,
                        double& norm_b) {
  if (n == 0) {
    norm_a = norm_b = 0.0;
    return;
  }
  double sum_a = 0.0, sum_b = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double scale = component_scale(o, i, x0[i], x1[i]);
    const double a = err_a[i] / scale, b = err_b[i] / scale;
    sum_a += a * a;
    sum_b += b * b;
  }
  norm_a = std::sqrt(sum_a / static_cast<double>(n));
  norm_b = std::sqrt(sum_b / static_cast<double>(n));
}

inline double error_norm(ConstVectorRef err, ConstVectorRef x0, ConstVectorRef x1,
                         const StepperOptions& o) {
  return error_norm(err.data(), x0.data(), x1.data(), err.size(), o);
}

// Smallest step allowed near time t: the user's h_min, or 16 ulps of t.
inline double minimum_step(double t, const StepperOptions& o) {
  const double ulps = 16.0 * std::abs(std::nextafter(t, kInfinity) - t);
  return std::max(o.h_min, std::max(ulps, 1e-300));
}

// Shortens h to land exactly on t_limit when it would reach it (within a relative 1e-12, so a
// step never leaves a sliver behind); returns whether this is the last step before t_limit.
inline bool fit_step_to_limit(double& h, double t, double t_limit) {
  const double remaining = t_limit - t;
  if (h < remaining * (1.0 - 1e-12)) return false;
  h = remaining;
  return true;
}

// The error-controlled step fell below the minimum (a last step that only lands on t_limit may
// be shorter).
inline bool step_underflows(double h, bool last, double t, const StepperOptions& o) {
  return h < minimum_step(t, o) && !(last && h > 0.0);
}

}  // namespace saltus::ode
