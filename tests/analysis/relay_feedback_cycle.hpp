// The limit cycle of models/relay_feedback.toml in closed form (as tests/apps/
// cli_switching_test.py derives it): x' = A x + b u, A = -I + N (N the lower shift), b = (k, 0, 0),
// u = -d sign(x3). On the symmetric cycle u switches every half period h, from x0 on x3 = 0
// (turning positive) to x(h) = -x0:
//   (e^{A h} + I) x0 = -A^-1 (e^{A h} - I) b u,  u = -d,  h: the smallest with x0_3 = 0.
// Both crossings have the saltation matrix S = I + (f+ - f-) e3^T / (e3^T f-) = I + 2 k d e1 e3^T
// / (-x0_2) (f+ - f- = -2 b u at -x0, e3^T f- = -x0_2; the same at x0 by symmetry), so the
// monodromy is (S e^{A h})^2 and its multipliers are the squares of the eigenvalues of S e^{A h}.
#pragma once

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace saltus::testing {

struct RelayCycle {
  double half_period = 0.0;
  Eigen::Vector3d x0;
  std::vector<double> exponents;  // log|mu_i| / (2 h), decreasing: 0 for the flow direction
};

inline Eigen::Matrix3d relay_expm(double h) {
  Eigen::Matrix3d e;
  e << 1, 0, 0, h, 1, 0, h * h / 2, h, 1;
  return std::exp(-h) * e;
}

inline Eigen::Vector3d relay_symmetric_start(double h, double kd) {
  Eigen::Matrix3d a = -Eigen::Matrix3d::Identity();
  a(1, 0) = a(2, 1) = 1.0;
  const Eigen::Vector3d bu(-kd, 0.0, 0.0);
  const Eigen::Matrix3d e = relay_expm(h), id = Eigen::Matrix3d::Identity();
  const Eigen::Vector3d forced = a.lu().solve((e - id) * bu);
  return (e + id).lu().solve(-forced);
}

inline RelayCycle relay_cycle(double kd = 1.0) {
  const auto y0 = [kd](double h) { return relay_symmetric_start(h, kd)(2); };
  double a = 0.0, b = 0.0;
  for (int i = 1; i < 200; ++i) {
    if (y0(0.05 * i) * y0(0.05 * (i + 1)) < 0.0) {
      a = 0.05 * i;
      b = 0.05 * (i + 1);
      break;
    }
  }
  for (int i = 0; i < 200; ++i) {
    const double m = 0.5 * (a + b);
    ((y0(m) > 0.0) == (y0(a) > 0.0) ? a : b) = m;
  }
  RelayCycle c;
  c.half_period = 0.5 * (a + b);
  c.x0 = relay_symmetric_start(c.half_period, kd);
  Eigen::Matrix3d s = Eigen::Matrix3d::Identity();
  s(0, 2) = 2.0 * kd / -c.x0(1);
  const Eigen::Matrix3d half = s * relay_expm(c.half_period);
  const Eigen::Vector3cd nu = half.eigenvalues();
  for (int i = 0; i < 3; ++i) c.exponents.push_back(std::log(std::abs(nu(i))) / c.half_period);
  std::sort(c.exponents.begin(), c.exponents.end(), std::greater<double>());
  return c;
}

}  // namespace saltus::testing
