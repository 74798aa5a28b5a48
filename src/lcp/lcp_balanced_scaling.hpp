// The factors of the equilibration (lcp_scaling.hpp) when no Ruiz sweep is needed, decided for
// a size known at compile time without writing anything, and the powers of two they are made
// of. Shared by equilibrate_lcp's balanced shortcut (lcp_scaling.cpp) and by Lemke for n <= 8
// (lemke.cpp), which writes the scaled copy in the same pass as its tableau instead of
// copying it twice. One implementation, so both give the same bits. Private to src/mech.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "saltus/core/types.hpp"

namespace saltus::lcp::balanced {

// Sweeps stop once the largest row/column max-norm is within this factor of the smallest
// (a ratio, so the number of sweeps does not depend on the units).
inline constexpr double kBalancedRatio = 16.0;

// Powers of two by their bits: std::frexp / ldexp / log2 are library calls, and at n = 2 they
// cost more than the rest of the equilibration (bench/lcp_bench.cpp). Normal doubles only;
// others go to the library.
inline constexpr std::uint64_t kExponentMask = 0x7FF0000000000000ull;
inline constexpr std::uint64_t kMantissaMask = 0x000FFFFFFFFFFFFFull;

// 2^k.
inline double power_of_two(int k) {
  if (k < -1022 || k > 1023) return std::ldexp(1.0, k);
  return std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
}

// round(log2(x)) for x > 0: the exponent of x, plus one when its mantissa is >= sqrt(2).
inline int nearest_log2(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const auto biased = static_cast<int>((bits & kExponentMask) >> 52);
  if (biased == 0 || biased == 0x7FF) return static_cast<int>(std::round(std::log2(x)));
  const double mantissa = std::bit_cast<double>((bits & kMantissaMask) | 0x3FF0000000000000ull);
  return biased - 1023 + (mantissa >= M_SQRT2 ? 1 : 0);
}

// floor(log2(x)) for x > 0.
inline int floor_log2(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const auto biased = static_cast<int>((bits & kExponentMask) >> 52);
  if (biased == 0 || biased == 0x7FF) return static_cast<int>(std::floor(std::log2(x)));
  return biased - 1023;
}

// M' = p M (R = p I, C = I) and q' = (p q_i) * q_factor, q_factor = 1 / s exactly.
struct Factors {
  double p = 1.0;
  double q_scale = 1.0;   // s
  double q_factor = 1.0;  // 2^-k = 1 / s (1 when q' = p q, s = 1)
};

// The first Ruiz sweep's row and column norms of M and their spread in local arrays
// (registers); when no sweep would run (spread <= kBalancedRatio) the factors of the general
// path with R = C = I: p brings max |M'| (the largest row norm) near 1, s brings max |q'| into
// [1, 2). Returns false otherwise, and also when 1 / s is not a double (max |p q_i| below
// 2^-1023), where scale_q divides instead: the general path then takes the problem.
template <int N>
bool balanced_factors(const ConstMatrixRef& m, const ConstVectorRef& q, Factors& f) {
  std::array<double, N> rows{};
  std::array<double, N> cols{};
  for (int j = 0; j < N; ++j) {
    double col = 0.0;
    for (int i = 0; i < N; ++i) {
      const double a = std::abs(m(i, j));
      rows[static_cast<std::size_t>(i)] = std::max(rows[static_cast<std::size_t>(i)], a);
      col = std::max(col, a);
    }
    cols[static_cast<std::size_t>(j)] = col;
  }
  double lo = kInfinity;
  double hi = 0.0;
  for (const double r : rows) {
    if (r > 0.0) lo = std::min(lo, r), hi = std::max(hi, r);
  }
  for (const double c : cols) {
    if (c > 0.0) lo = std::min(lo, c), hi = std::max(hi, c);
  }
  const double spread = hi > 0.0 ? hi / lo : 1.0;
  if (!(spread <= kBalancedRatio)) return false;
  double mmax = 0.0;
  for (const double r : rows) mmax = std::max(mmax, r);
  const int k = mmax > 0.0 && std::isfinite(mmax) ? -nearest_log2(mmax) : 0;
  f.p = power_of_two(k);
  double qmax = 0.0;
  for (int i = 0; i < N; ++i) qmax = std::max(qmax, std::abs(f.p * q(i)));
  f.q_scale = 1.0;
  f.q_factor = 1.0;  // x * 1 = x exactly: q' = p q when s stays 1
  if (qmax > 0.0 && std::isfinite(qmax)) {
    const int kq = floor_log2(qmax);
    if (kq < -1023) return false;
    f.q_scale = power_of_two(kq);  // max |q'| in [1, 2)
    // x * 2^-k is x / 2^k exactly (both round the same exact value), without n divisions.
    f.q_factor = power_of_two(-kq);
  }
  return true;
}

}  // namespace saltus::lcp::balanced
