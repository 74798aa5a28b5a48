// Ruiz equilibration of LCPs; see include/saltus/lcp/lcp_scaling.hpp.
#include "saltus/lcp/lcp_scaling.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "lcp_balanced_scaling.hpp"
#include "lcp_general_paths.hpp"

namespace saltus::lcp {
namespace {

// Sweeps stop once the largest row/column max-norm is within kBalancedRatio of the smallest
// (lcp_balanced_scaling.hpp), or after kMaxSweeps.
constexpr int kMaxSweeps = 30;

using balanced::floor_log2;
using balanced::kBalancedRatio;
using balanced::nearest_log2;
using balanced::power_of_two;

// N > 0: the size known at compile time (n <= 8, loops the compiler unrolls); 0: any size.
template <int N>
Eigen::Index size_of(const ConstMatrixRef& m) {
  if constexpr (N > 0) return N;
  return m.rows();
}

// Max-norms of the rows and columns of R M C into row_norm, column_norm. For N > 0 the row
// maxima live in registers (a store-reload chain through row_norm cost a quarter of the
// equilibration at n = 2). Unit: R = C = I (the first sweep), read |M| without the products
// (the same values: 1 * x * 1 = x exactly).
template <int N, bool Unit = false>
void norms(const ConstMatrixRef& m, const Vector& r, const Vector& c, Eigen::Map<Vector>& row_norm,
           Eigen::Map<Vector>& column_norm) {
  const Eigen::Index n = size_of<N>(m);
  std::array<double, N> rows{};
  if constexpr (N == 0) row_norm.setZero();
  for (Eigen::Index j = 0; j < n; ++j) {
    double col = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double a = Unit ? std::abs(m(i, j)) : std::abs(r(i) * m(i, j) * c(j));
      if constexpr (N > 0) {
        rows[static_cast<std::size_t>(i)] = std::max(rows[static_cast<std::size_t>(i)], a);
      } else {
        row_norm(i) = std::max(row_norm(i), a);
      }
      col = std::max(col, a);
    }
    column_norm(j) = col;
  }
  if constexpr (N > 0) {
    for (Eigen::Index i = 0; i < n; ++i) row_norm(i) = rows[static_cast<std::size_t>(i)];
  }
}

// Ratio of the largest to the smallest non-zero entry of a and b (1 when all are zero); a and
// b have the same size (N when N > 0).
template <int N>
double spread(const Eigen::Map<Vector>& a, const Eigen::Map<Vector>& b) {
  Eigen::Index n = a.size();
  if constexpr (N > 0) n = N;
  double lo = kInfinity;
  double hi = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (a(i) > 0.0) lo = std::min(lo, a(i)), hi = std::max(hi, a(i));
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    if (b(i) > 0.0) lo = std::min(lo, b(i)), hi = std::max(hi, b(i));
  }
  return hi > 0.0 ? hi / lo : 1.0;
}

// Entries whose row (column) of M is zero take the largest factor, so no factor is fixed in
// absolute terms; then every factor becomes 2^round(log2(f / max f)) (unit-independent).
void to_relative_powers_of_two(Vector& f, const Eigen::Map<Vector>& norm) {
  double f_max = 0.0;
  for (Eigen::Index i = 0; i < f.size(); ++i) {
    if (norm(i) > 0.0) f_max = std::max(f_max, f(i));
  }
  if (f_max == 0.0) {
    f.setOnes();
    return;
  }
  for (Eigen::Index i = 0; i < f.size(); ++i) {
    f(i) = power_of_two(nearest_log2(norm(i) > 0.0 ? f(i) / f_max : 1.0));
  }
}

// Writes R M C into `scaled`, then multiplies it and the factors by the power of two that
// brings max |R M C| near 1 (exact: a power of two); symmetric: R = C keeps a congruence.
template <int N>
void finish(const ConstMatrixRef& m, LcpScaling& s, Matrix& scaled, bool symmetric) {
  const Eigen::Index n = size_of<N>(m);
  double mmax = 0.0;
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = 0; i < n; ++i) {
      scaled(i, j) = s.row(i) * m(i, j) * s.column(j);
      mmax = std::max(mmax, std::abs(scaled(i, j)));
    }
  }
  if (!(mmax > 0.0 && std::isfinite(mmax))) return;
  const int k = symmetric ? -nearest_log2(std::sqrt(mmax)) : -nearest_log2(mmax);
  if (k == 0) return;
  const double p = power_of_two(k);
  for (Eigen::Index i = 0; i < n; ++i) s.row(i) *= p;
  if (symmetric) s.column = s.row;
  scaled *= symmetric ? p * p : p;
}

// The general path (to_relative_powers_of_two, then finish) when no sweep ran, in one pass:
// R = C = I, so every factor stays 1 and max |M| is the largest row norm; only the common
// power of two of finish remains. The same bits as the general path (all products are by
// powers of two), at a third of its cost at n = 2 (docs/benchmarks_lcp.md): well-scaled
// problems, e.g. Delassus matrices, take this path.
template <int N>
void already_balanced(const ConstMatrixRef& m, LcpScaling& s, Matrix& scaled,
                      const Eigen::Map<Vector>& row_norm) {
  const Eigen::Index n = size_of<N>(m);
  double mmax = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) mmax = std::max(mmax, row_norm(i));
  const int k = mmax > 0.0 && std::isfinite(mmax) ? -nearest_log2(mmax) : 0;
  const double p = power_of_two(k);
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = 0; i < n; ++i) scaled(i, j) = m(i, j) * p;
  }
  for (Eigen::Index i = 0; i < n; ++i) s.row(i) = p;
}

// The outputs of already_balanced and scale_q for N > 0, from balanced::balanced_factors
// (decided before anything is written): R = p I, C = I, M' = p M, q' = p q / s written
// directly. Returns false, having written nothing, when a sweep would run. The same values as
// the general path (the same maxima, spread, powers of two and products):
// tests/lcp/lemke_balanced_equilibration_test.cpp checks them against the formulas.
template <int N>
bool balanced_shortcut(const ConstMatrixRef& m, const ConstVectorRef& q, LcpScaling& s,
                       Matrix& scaled, Vector& scaled_q) {
  balanced::Factors f;
  if (!balanced::balanced_factors<N>(m, q, f)) return false;
  s.row.resize(N);
  s.column.resize(N);
  scaled.resize(N, N);
  scaled_q.resize(N);
  for (int i = 0; i < N; ++i) s.row(i) = f.p, s.column(i) = 1.0;
  s.q_scale = f.q_scale;
  s.iterations = 0;
  double* out = scaled.data();
  for (int j = 0; j < N; ++j) {
    for (int i = 0; i < N; ++i) out[j * N + i] = m(i, j) * f.p;
  }
  for (int i = 0; i < N; ++i) scaled_q(i) = (f.p * q(i)) * f.q_factor;
  return true;
}

// q' = R q / s with s the power of two that brings max |q'| into [1, 2).
template <int N>
void scale_q(const ConstVectorRef& q, LcpScaling& s, Vector& scaled_q) {
  Eigen::Index n = q.size();
  if constexpr (N > 0) n = N;
  scaled_q.resize(n);
  double qmax = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    scaled_q(i) = s.row(i) * q(i);
    qmax = std::max(qmax, std::abs(scaled_q(i)));
  }
  if (qmax > 0.0 && std::isfinite(qmax)) {
    const int k = floor_log2(qmax);
    s.q_scale = power_of_two(k);  // max |q'| in [1, 2)
    if (k >= -1023) {
      // x * 2^-k is x / 2^k exactly (both round the same exact value), without n divisions.
      const double inverse = power_of_two(-k);
      for (Eigen::Index i = 0; i < n; ++i) scaled_q(i) *= inverse;
    } else {  // 2^-k would overflow
      for (Eigen::Index i = 0; i < n; ++i) scaled_q(i) /= s.q_scale;
    }
  }
}

template <int N = 0>
void start(Eigen::Index n, LcpScaling& s, Matrix& scaled) {
  if constexpr (N > 0) n = N;
  s.row.resize(n);
  s.column.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) s.row(i) = s.column(i) = 1.0;
  s.q_scale = 1.0;
  s.iterations = 0;
  scaled.resize(n, n);
}

}  // namespace

void equilibrate_matrix(const ConstMatrixRef& m, LcpScaling& s, Matrix& scaled) {
  const Eigen::Index n = m.rows();
  start(n, s, scaled);
  if (n == 0) return;
  // `scaled` is free until the end: its first two columns hold the norms.
  Eigen::Map<Vector> row_norm(scaled.data(), n);
  Eigen::Map<Vector> column_norm(scaled.data() + (n > 1 ? n : 0), n);
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    norms<0>(m, s.row, s.column, row_norm, column_norm);
    if (n > 1) row_norm = row_norm.cwiseMax(column_norm);  // symmetric: one factor per index
    if (spread<0>(row_norm, row_norm) <= kBalancedRatio) break;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (row_norm(i) > 0.0) s.row(i) /= std::sqrt(row_norm(i));
    }
    s.column = s.row;
    s.iterations = sweep + 1;
  }
  to_relative_powers_of_two(s.row, row_norm);
  s.column = s.row;
  finish<0>(m, s, scaled, true);
}

namespace {

template <int N>
void equilibrate_two_sided(const ConstMatrixRef& m, const ConstVectorRef& q, LcpScaling& s,
                           Matrix& scaled_m, Vector& scaled_q) {
  const Eigen::Index n = size_of<N>(m);
  if constexpr (N > 0) {
    if (balanced_shortcut<N>(m, q, s, scaled_m, scaled_q)) return;
  }
  start<N>(n, s, scaled_m);
  scaled_q.resize(n);
  if (n == 0) return;
  // scaled_q and the first column of scaled_m hold the norms until the end.
  Eigen::Map<Vector> row_norm(scaled_q.data(), n);
  Eigen::Map<Vector> column_norm(scaled_m.data(), n);
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    if (sweep == 0) {
      norms<N, true>(m, s.row, s.column, row_norm, column_norm);
    } else {
      norms<N>(m, s.row, s.column, row_norm, column_norm);
    }
    if (spread<N>(row_norm, column_norm) <= kBalancedRatio) break;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (row_norm(i) > 0.0) s.row(i) /= std::sqrt(row_norm(i));
      if (column_norm(i) > 0.0) s.column(i) /= std::sqrt(column_norm(i));
    }
    s.iterations = sweep + 1;
  }
  if (s.iterations == 0) {
    already_balanced<N>(m, s, scaled_m, row_norm);
  } else {
    to_relative_powers_of_two(s.row, row_norm);
    to_relative_powers_of_two(s.column, column_norm);
    finish<N>(m, s, scaled_m, false);
  }
  scale_q<N>(q, s, scaled_q);
}

}  // namespace

void equilibrate_lcp(const ConstMatrixRef& m, const ConstVectorRef& q, LcpScaling& s,
                     Matrix& scaled_m, Vector& scaled_q) {
  switch (m.rows()) {  // contact sets are small: unrolled code up to n = 8
    case 1:
      return equilibrate_two_sided<1>(m, q, s, scaled_m, scaled_q);
    case 2:
      return equilibrate_two_sided<2>(m, q, s, scaled_m, scaled_q);
    case 3:
      return equilibrate_two_sided<3>(m, q, s, scaled_m, scaled_q);
    case 4:
      return equilibrate_two_sided<4>(m, q, s, scaled_m, scaled_q);
    case 5:
      return equilibrate_two_sided<5>(m, q, s, scaled_m, scaled_q);
    case 6:
      return equilibrate_two_sided<6>(m, q, s, scaled_m, scaled_q);
    case 7:
      return equilibrate_two_sided<7>(m, q, s, scaled_m, scaled_q);
    case 8:
      return equilibrate_two_sided<8>(m, q, s, scaled_m, scaled_q);
    default:
      return equilibrate_two_sided<0>(m, q, s, scaled_m, scaled_q);
  }
}

void equilibrate_lcp_general_path(const ConstMatrixRef& m, const ConstVectorRef& q, LcpScaling& s,
                                  Matrix& scaled_m, Vector& scaled_q) {
  equilibrate_two_sided<0>(m, q, s, scaled_m, scaled_q);
}

void unscale_z(const LcpScaling& s, VectorRef z) {
  for (Eigen::Index i = 0; i < z.size(); ++i) z(i) *= s.q_scale * s.column(i);
}

}  // namespace saltus::lcp
