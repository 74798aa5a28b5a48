// Forward-mode automatic differentiation for user-written flows and guards.
//
// A flow or guard is written once as a generic callable (auto parameters). saltus calls it with
// double vectors to evaluate, and with Dual vectors to obtain Jacobian columns: one forward pass
// per seeded direction, so a Jacobian of an n-state flow costs n evaluations and no finite
// differences. Dual is ceres::Jet<double, 1> with an implicit conversion from double, so model
// code may assign constants (xdot[1] = -g) exactly as in the double instantiation.
//
// Dual work vectors have a fixed capacity (kMaxAutodiffSize) and live on the stack: computing a
// Jacobian never allocates. Larger systems supply their Jacobians by hand.
#pragma once

#include <ceres/jet.h>

#include <Eigen/Core>

namespace saltus {

// Largest x, z or guard-input dimension for which saltus computes derivatives automatically.
inline constexpr int kMaxAutodiffSize = 64;

struct Dual : ceres::Jet<double, 1> {
  using Base = ceres::Jet<double, 1>;
  Dual() = default;
  Dual(double value) : Base(value) {}   // NOLINT: implicit on purpose (constants)
  Dual(const Base& jet) : Base(jet) {}  // NOLINT: results of Jet arithmetic
  Dual(double value, double derivative) : Base(value) { v[0] = derivative; }
  double value() const { return a; }
  double derivative() const { return v[0]; }
};

// Stack-allocated vector with a run-time size up to kMaxAutodiffSize.
template <class T>
using SmallVector = Eigen::Matrix<T, Eigen::Dynamic, 1, 0, kMaxAutodiffSize, 1>;
using DualVector = SmallVector<Dual>;

// The value of a scalar of either instantiation (double or Dual).
inline double value_of(double x) {
  return x;
}
inline double value_of(const ceres::Jet<double, 1>& x) {
  return x.a;
}
inline double derivative_of(double) {
  return 0.0;
}
inline double derivative_of(const ceres::Jet<double, 1>& x) {
  return x.v[0];
}

}  // namespace saltus

namespace Eigen {
template <>
struct NumTraits<saltus::Dual> : NumTraits<ceres::Jet<double, 1>> {
  using Real = saltus::Dual;
  using NonInteger = saltus::Dual;
  using Nested = saltus::Dual;
  using Literal = saltus::Dual;
};
}  // namespace Eigen
