// Ruiz equilibration of LCPs; see include/saltus/mech/lcp_scaling.hpp.
#include "saltus/mech/lcp_scaling.hpp"

#include <algorithm>
#include <cmath>

namespace saltus::mech {
namespace {

// Sweeps stop once the largest row/column max-norm is within this factor of the smallest
// (a ratio, so the number of sweeps does not depend on the units), or after kMaxSweeps.
constexpr double kBalancedRatio = 4.0;
constexpr int kMaxSweeps = 30;

// Max-norms of the rows and columns of R M C into row_norm, column_norm.
void norms(ConstMatrixRef m, const Vector& r, const Vector& c, Eigen::Map<Vector>& row_norm,
           Eigen::Map<Vector>& column_norm) {
  const Eigen::Index n = m.rows();
  row_norm.setZero();
  for (Eigen::Index j = 0; j < n; ++j) {
    double col = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double a = std::abs(r(i) * m(i, j) * c(j));
      row_norm(i) = std::max(row_norm(i), a);
      col = std::max(col, a);
    }
    column_norm(j) = col;
  }
}

// Ratio of the largest to the smallest non-zero entry of a and b (1 when all are zero).
double spread(const Eigen::Map<Vector>& a, const Eigen::Map<Vector>& b) {
  double lo = kInfinity;
  double hi = 0.0;
  for (const auto* v : {&a, &b}) {
    for (Eigen::Index i = 0; i < v->size(); ++i) {
      if ((*v)(i) > 0.0) lo = std::min(lo, (*v)(i)), hi = std::max(hi, (*v)(i));
    }
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
    // ratio = m 2^e with m in [1/2, 1): log2(ratio) rounds to e, or to e - 1 when m < 2^-1/2.
    const double ratio = norm(i) > 0.0 ? f(i) / f_max : 1.0;
    int e = 0;
    const double m = std::frexp(ratio, &e);
    f(i) = std::ldexp(1.0, m < M_SQRT1_2 ? e - 1 : e);
  }
}

// Multiplies `f` by the power of two nearest 1 / sqrt(max |R M C|) (or its square for
// `whole`), writes R M C into `scaled`.
void finish(ConstMatrixRef m, LcpScaling& s, Matrix& scaled, bool symmetric) {
  const Eigen::Index n = m.rows();
  double mmax = 0.0;
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = 0; i < n; ++i) {
      mmax = std::max(mmax, std::abs(s.row(i) * m(i, j) * s.column(j)));
    }
  }
  if (mmax > 0.0 && std::isfinite(mmax)) {
    if (symmetric) {
      const int k = static_cast<int>(std::round(-0.5 * std::log2(mmax)));
      for (Eigen::Index i = 0; i < n; ++i) s.row(i) = s.column(i) = std::ldexp(s.row(i), k);
    } else {
      const int k = static_cast<int>(std::round(-std::log2(mmax)));
      for (Eigen::Index i = 0; i < n; ++i) s.row(i) = std::ldexp(s.row(i), k);
    }
  }
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = 0; i < n; ++i) scaled(i, j) = s.row(i) * m(i, j) * s.column(j);
  }
}

void start(Eigen::Index n, LcpScaling& s, Matrix& scaled) {
  s.row.resize(n);
  s.column.resize(n);
  s.row.setOnes();
  s.column.setOnes();
  s.q_scale = 1.0;
  s.iterations = 0;
  scaled.resize(n, n);
}

}  // namespace

void equilibrate_matrix(ConstMatrixRef m, LcpScaling& s, Matrix& scaled) {
  const Eigen::Index n = m.rows();
  start(n, s, scaled);
  if (n == 0) return;
  // `scaled` is free until the end: its first two columns hold the norms.
  Eigen::Map<Vector> row_norm(scaled.data(), n);
  Eigen::Map<Vector> column_norm(scaled.data() + (n > 1 ? n : 0), n);
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    norms(m, s.row, s.column, row_norm, column_norm);
    if (n > 1) row_norm = row_norm.cwiseMax(column_norm);  // symmetric: one factor per index
    if (spread(row_norm, row_norm) <= kBalancedRatio) break;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (row_norm(i) > 0.0) s.row(i) /= std::sqrt(row_norm(i));
    }
    s.column = s.row;
    s.iterations = sweep + 1;
  }
  to_relative_powers_of_two(s.row, row_norm);
  s.column = s.row;
  finish(m, s, scaled, true);
}

void equilibrate_lcp(ConstMatrixRef m, ConstVectorRef q, LcpScaling& s, Matrix& scaled_m,
                     Vector& scaled_q) {
  const Eigen::Index n = m.rows();
  start(n, s, scaled_m);
  scaled_q.resize(n);
  if (n == 0) return;
  // scaled_q and the first column of scaled_m hold the norms until the end.
  Eigen::Map<Vector> row_norm(scaled_q.data(), n);
  Eigen::Map<Vector> column_norm(scaled_m.data(), n);
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    norms(m, s.row, s.column, row_norm, column_norm);
    if (spread(row_norm, column_norm) <= kBalancedRatio) break;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (row_norm(i) > 0.0) s.row(i) /= std::sqrt(row_norm(i));
      if (column_norm(i) > 0.0) s.column(i) /= std::sqrt(column_norm(i));
    }
    s.iterations = sweep + 1;
  }
  to_relative_powers_of_two(s.row, row_norm);
  to_relative_powers_of_two(s.column, column_norm);
  finish(m, s, scaled_m, false);
  double qmax = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    scaled_q(i) = s.row(i) * q(i);
    qmax = std::max(qmax, std::abs(scaled_q(i)));
  }
  if (qmax > 0.0 && std::isfinite(qmax)) {
    int e = 0;
    std::frexp(qmax, &e);
    s.q_scale = std::ldexp(1.0, e - 1);  // max |q'| in [1, 2)
    for (Eigen::Index i = 0; i < n; ++i) scaled_q(i) /= s.q_scale;
  }
}

void unscale_z(const LcpScaling& s, VectorRef z) {
  for (Eigen::Index i = 0; i < z.size(); ++i) z(i) *= s.q_scale * s.column(i);
}

}  // namespace saltus::mech
