// Forward-mode automatic differentiation for user-written flows and guards.
//
// A flow or guard is written once as a generic callable (auto parameters). saltus calls it with
// double vectors to evaluate, with Dual vectors (one seeded direction) for guard gradients and
// rates, and with ChunkDual vectors for the Jacobians of flows: one forward pass carries
// kJacobianChunk seeded directions, so the Jacobian of an n-state flow costs
// ceil(n / kJacobianChunk) passes instead of n (a single column: one Dual pass), and no finite
// differences. Both are
// ceres::Jet<double, N> with an implicit conversion from double, so model code may assign
// constants (xdot[1] = -g) exactly as in the double instantiation.
//
// Work vectors have a fixed capacity (kMaxAutodiffSize) and live on the stack: computing a
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

// A forward-mode scalar carrying N directional derivatives at once (the Jacobian chunks).
template <int N>
struct MultiDual : ceres::Jet<double, N> {
  using Base = ceres::Jet<double, N>;
  MultiDual() = default;
  MultiDual(double value) : Base(value) {}   // NOLINT: implicit on purpose (constants)
  MultiDual(const Base& jet) : Base(jet) {}  // NOLINT: results of Jet arithmetic
  double value() const { return this->a; }
};

// Directions per forward pass of a flow's Jacobian. 8 covers the 6 states of a planar rigid body
// in one pass: the bouncing rod's Jacobian 2.8x faster than 6 Dual passes, its whole sensitivity
// run 2.2x (bench/jacobian_chunk_bench.cpp, bench/sensitivity_bench.cpp, docs/BENCHMARKS.md).
inline constexpr int kJacobianChunk = 8;
using ChunkDual = MultiDual<kJacobianChunk>;

// How the Jacobians of flows are computed on this thread: Automatic (the default) takes chunks of
// kJacobianChunk directions per pass where they pay (detail::chunked_jacobian_pays, core/flow.hpp)
// and one direction per pass below; OneDirection and Chunked force one way, for the tests and
// benchmarks that compare the two (the results agree to rounding).
enum class JacobianPasses { Automatic, OneDirection, Chunked };

namespace detail {
inline thread_local JacobianPasses jacobian_passes = JacobianPasses::Automatic;
}

// Sets this thread's JacobianPasses while the object lives (tests and benchmarks).
class ScopedJacobianPasses {
 public:
  explicit ScopedJacobianPasses(JacobianPasses passes) : previous_(detail::jacobian_passes) {
    detail::jacobian_passes = passes;
  }
  ~ScopedJacobianPasses() { detail::jacobian_passes = previous_; }
  ScopedJacobianPasses(const ScopedJacobianPasses&) = delete;
  ScopedJacobianPasses& operator=(const ScopedJacobianPasses&) = delete;

 private:
  JacobianPasses previous_;
};

// Stack-allocated vector with a run-time size up to kMaxAutodiffSize.
template <class T>
using SmallVector = Eigen::Matrix<T, Eigen::Dynamic, 1, 0, kMaxAutodiffSize, 1>;
using DualVector = SmallVector<Dual>;

// The value of a scalar of any instantiation (double, Dual, ChunkDual).
inline double value_of(double x) {
  return x;
}
template <int N>
double value_of(const ceres::Jet<double, N>& x) {
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
template <int N>
struct NumTraits<saltus::MultiDual<N>> : NumTraits<ceres::Jet<double, N>> {
  using Real = saltus::MultiDual<N>;
  using NonInteger = saltus::MultiDual<N>;
  using Nested = saltus::MultiDual<N>;
  using Literal = saltus::MultiDual<N>;
};
}  // namespace Eigen
