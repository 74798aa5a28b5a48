// The certificate of lcp.hpp (certified_residual) with the size as a template parameter, so
// that Lemke's code for n <= 8 (lemke.cpp) gets it unrolled and inlined: at n = 2 the
// run-time-size loops cost a seventh of a solve (bench/lcp_bench.cpp). One implementation:
// certified_residual in lcp.cpp is the N = 0 instance. Private to src/mech.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "saltus/core/types.hpp"

namespace saltus::lcp {

// N > 0: n = N known at compile time; N = 0: n = q.size(). Writes w = M z + q (n entries) and
// returns the residual (lcp.hpp's formulas); for N = 0 also the inverse row magnitudes 1 / r_i
// into inv_r (n entries), for N > 0 they stay on the stack and inv_r is not written.
// Arguments by reference: a copy of an Eigen::Ref<const> builds and frees an empty matrix.
template <int N, class ZVector>
double certified_residual_sized(const ConstMatrixRef& matrix, const ConstVectorRef& q,
                                const ZVector& z, double* w_out, double* inv_r_out) {
  Eigen::Index n = q.size();
  if constexpr (N > 0) n = N;
  // For N > 0, w and 1 / r_i in local arrays: the compiler knows they alias nothing, so the
  // loops need no run-time overlap checks between w, M, q and z (about 40 instructions of a
  // 150-instruction certificate at n = 2), and w is copied out once. Same arithmetic.
  std::array<double, N> w_local{};
  std::array<double, N> inv_r_local{};
  double* w = N > 0 ? w_local.data() : w_out;
  double* inv_r = N > 0 ? inv_r_local.data() : inv_r_out;
  // Row by row with the sums in registers (w and the rows of M could alias as far as the
  // compiler knows, so column order would store and reload w_i for every entry).
  for (Eigen::Index i = 0; i < n; ++i) {
    double wi = q(i);
    double ri = std::abs(q(i));
    for (Eigen::Index j = 0; j < n; ++j) {
      const double t = matrix(i, j) * z(j);
      wi += t;
      ri += std::abs(t);
    }
    w[i] = wi;
    inv_r[i] = ri;  // r_i for now
  }
  if constexpr (N > 0) {
    for (Eigen::Index i = 0; i < n; ++i) w_out[i] = w[i];
  }
  // r_i >= |w_i| in floating point too (rounding is monotone), and a NaN term makes both NaN:
  // r_i finite means w_i finite. r_i >= 0, so one comparison each tells finite.
  constexpr double kMax = std::numeric_limits<double>::max();
  double residual = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!(inv_r[i] <= kMax)) return kInfinity;
    inv_r[i] = inv_r[i] > 0.0 ? 1.0 / inv_r[i] : 0.0;
    if (!(inv_r[i] <= kMax)) return kInfinity;        // r_i subnormal: cannot judge row i
    residual = std::max(residual, -w[i] * inv_r[i]);  // sign of w: max(0, -omega_i)
  }
  for (Eigen::Index j = 0; j < n; ++j) {
    const double zj = std::abs(z(j));
    if (zj == 0.0) continue;  // c_j = 0: nothing to check beyond the sign of w_j
    // c_j: the largest share z_j has in any row (a zero column of M: 1).
    double weight = 0.0;
    bool column_is_zero = true;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double mij = std::abs(matrix(i, j));
      column_is_zero = column_is_zero && mij == 0.0;
      weight = std::max(weight, mij * inv_r[i]);
    }
    weight = column_is_zero ? 1.0 : std::min(1.0, weight * zj);
    if (z(j) < 0.0) residual = std::max(residual, weight);
    residual = std::max(residual, std::min(weight, std::abs(w[j]) * inv_r[j]));
  }
  return residual;
}

}  // namespace saltus::lcp
