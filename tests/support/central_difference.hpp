// d f / d x_k by the sixth-order central difference of f along e_k (step 1e-3 (1 + |x_k|)):
// the independent reference the AD and symbolic Jacobians are tested against.
#pragma once

#include <cmath>

#include "saltus/core/types.hpp"

namespace saltus::testing {

template <class F>
Vector central_difference(const F& f, const Vector& x, int k, int n_out) {
  const double h = 1e-3 * (1.0 + std::abs(x[k]));
  const double w[3] = {3.0 / 4.0, -3.0 / 20.0, 1.0 / 60.0};
  Vector d = Vector::Zero(n_out);
  for (int j = 1; j <= 3; ++j) {
    Vector xp = x, xm = x;
    xp[k] += j * h;
    xm[k] -= j * h;
    d += w[j - 1] * (f(xp) - f(xm)) / h;
  }
  return d;
}

}  // namespace saltus::testing
