// The sums of an explicit Runge-Kutta step over its stage derivatives, for the steppers in
// src/ode: a tableau row is a list of (stage, coefficient) terms, summed left to right. The
// stage derivatives are the columns of K (leading dimension ld, stages numbered from 1).
//
// Components go two at a time as one SSE2 packet (Eigen::Array2d; every x86-64 has SSE2): each
// lane does the scalar sum's operations in the same order, so the results are the scalar loop's
// bits at about half its instructions. Plain loops, not Eigen expressions over column blocks:
// for the small systems saltus mostly integrates those cost several times the arithmetic
// (callgrind, sleigh billiard n = 6, bouncing ball n = 2).
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstddef>

namespace saltus::ode {

struct Term {
  int stage;  // 1-based
  double a;
};
template <size_t M>
using Row = std::array<Term, M>;

// sum_m a_m K(stage_m)[i].
template <size_t M>
inline double weighted(const Row<M>& row, const double* K, Eigen::Index ld, int i) {
  double s = row[0].a * K[(row[0].stage - 1) * ld + i];
  for (size_t m = 1; m < M; ++m) s += row[m].a * K[(row[m].stage - 1) * ld + i];
  return s;
}

// Two adjacent components as one packet.
using Pair = Eigen::Array2d;
inline Pair pair_at(const double* p) {
  return Eigen::Map<const Pair>(p);
}
inline void store_pair(double* p, const Pair& v) {
  Eigen::Map<Pair>{p} = v;
}

// weighted() of components i and i + 1 at once.
template <size_t M>
inline Pair weighted_pair(const Row<M>& row, const double* K, Eigen::Index ld, int i) {
  Pair s = row[0].a * pair_at(K + (row[0].stage - 1) * ld + i);
  for (size_t m = 1; m < M; ++m) s += row[m].a * pair_at(K + (row[m].stage - 1) * ld + i);
  return s;
}

// Y = X0 + h sum_m a_m K(stage_m) for n components: the argument of a stage.
template <size_t M>
inline void stage_point(const Row<M>& row, const double* X0, double h, const double* K,
                        Eigen::Index ld, int n, double* Y) {
  int i = 0;
  for (; i + 1 < n; i += 2) store_pair(Y + i, pair_at(X0 + i) + h * weighted_pair(row, K, ld, i));
  if (i < n) Y[i] = X0[i] + h * weighted(row, K, ld, i);
}

// out = scale sum_m a_m K(stage_m) for n components.
template <size_t M>
inline void scaled_sum(const Row<M>& row, double scale, const double* K, Eigen::Index ld, int n,
                       double* out) {
  int i = 0;
  for (; i + 1 < n; i += 2) store_pair(out + i, scale * weighted_pair(row, K, ld, i));
  if (i < n) out[i] = scale * weighted(row, K, ld, i);
}

}  // namespace saltus::ode
