// FORMULAS.md 13.1: v, omega, theta of the free Chaplygin sleigh at time t after (v0, omega0,
// theta0) (omega0 != 0), shared by the sleigh tests.
#pragma once

#include <cmath>

namespace saltus::testing {

struct SleighClosedForm {
  double m, I, a, v0, w0, th0;
  double J() const { return I + m * a * a; }
  double V() const { return std::sqrt(v0 * v0 + J() * w0 * w0 / m); }
  double tau(double t) const { return a * m * V() * t / J() + std::atanh(v0 / V()); }
  static double gd(double z) { return 2.0 * std::atan(std::tanh(z / 2.0)); }
  double v(double t) const { return V() * std::tanh(tau(t)); }
  double omega(double t) const { return w0 * std::cosh(tau(0.0)) / std::cosh(tau(t)); }
  double theta(double t) const {
    return th0 + std::copysign(1.0, w0) * std::sqrt(J() / m) * (gd(tau(t)) - gd(tau(0.0))) / a;
  }
};

}  // namespace saltus::testing
