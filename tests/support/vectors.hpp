// Small helpers for writing states in tests: vec({1.0, 0.0}).
#pragma once

#include <initializer_list>

#include "saltus/core/types.hpp"

namespace saltus::testing {

inline Vector vec(std::initializer_list<double> values) {
  Vector x(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double v : values) x[i++] = v;
  return x;
}

}  // namespace saltus::testing
