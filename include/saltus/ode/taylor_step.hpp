// One step of a Taylor-series integrator from the solution's coefficients (such as
// model::TaylorTape's): the step size from the series' last terms, and the step's dense output,
// which is the polynomial itself (value and derivative anywhere in the step, no extra stage).
//
// Step size: the series truncated after order p errs by about its first omitted term; the
// last two kept terms stand in for it (a single one may vanish by symmetry, as odd terms of an
// even function do): h is the largest step with |c_{i,q}| h^q <= atol + rtol |x_i| for
// q = p - 1 and p and every component i, times `safety` (Jorba & Zou 2005, section 3.2, with a
// tolerance per component instead of their fixed order-dependent factor).
//
// Layout: coefficients[i * (order + 1) + k] is the coefficient of tau^k in x_i(t0 + tau).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace saltus::ode {

// The step size for the series (see above); +infinity when every term it reads is zero (a
// polynomial solution of lower degree, exact over any step).
inline double taylor_step_size(const double* coefficients, int n, int order, double rtol,
                               double atol, double safety = 0.9) {
  double h = std::numeric_limits<double>::infinity();
  const int width = order + 1;
  for (int i = 0; i < n; ++i) {
    const double* c = coefficients + static_cast<long>(i) * width;
    const double tol = atol + rtol * std::abs(c[0]);
    for (int q = std::max(1, order - 1); q <= order; ++q) {
      const double term = std::abs(c[q]);
      if (term > 0.0) h = std::min(h, std::pow(tol / term, 1.0 / q));
    }
  }
  return safety * h;
}

// x_i(t0 + tau) for every component (Horner).
inline void taylor_value(const double* coefficients, int n, int order, double tau, double* x) {
  const int width = order + 1;
  for (int i = 0; i < n; ++i) {
    const double* c = coefficients + static_cast<long>(i) * width;
    double s = c[order];
    for (int k = order - 1; k >= 0; --k) s = s * tau + c[k];
    x[i] = s;
  }
}

// x_i'(t0 + tau) for every component.
inline void taylor_derivative(const double* coefficients, int n, int order, double tau,
                              double* xdot) {
  const int width = order + 1;
  for (int i = 0; i < n; ++i) {
    const double* c = coefficients + static_cast<long>(i) * width;
    double s = order * c[order];
    for (int k = order - 1; k >= 1; --k) s = s * tau + k * c[k];
    xdot[i] = order >= 1 ? s : 0.0;
  }
}

}  // namespace saltus::ode
