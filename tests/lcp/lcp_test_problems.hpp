// Seeded generators of LCP test problems by matrix class, shared by the Lemke / enumeration
// cross-checks and the scaling property tests. Doubles are drawn from raw 64-bit words, so the
// problems are the same on every platform.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>

#include "saltus/core/error.hpp"
#include "saltus/core/types.hpp"

namespace saltus::lcp::lcp_problems {

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}
  double uniform(double a, double b) {
    return a + (b - a) * static_cast<double>(rng_() >> 11) * 0x1.0p-53;
  }
  int integer(int a, int b) {
    return a + static_cast<int>(rng_() % static_cast<std::uint64_t>(b - a + 1));
  }
  Matrix matrix(int r, int c, double a, double b) {
    Matrix m(r, c);
    for (int j = 0; j < c; ++j) {
      for (int i = 0; i < r; ++i) m(i, j) = uniform(a, b);
    }
    return m;
  }
  Eigen::PermutationMatrix<Eigen::Dynamic> permutation(int n) {
    Eigen::PermutationMatrix<Eigen::Dynamic> perm(n);
    perm.setIdentity();
    for (int i = n - 1; i > 0; --i) std::swap(perm.indices()(i), perm.indices()(integer(0, i)));
    return perm;
  }

 private:
  std::mt19937_64 rng_;
};

// P-matrix: D1 P T P^T D2 with T upper triangular, positive diagonal (all principal minors of
// T are products of diagonal entries), P a permutation, D1, D2 positive diagonal; or a
// nonsymmetric positive definite matrix. Alternates with k.
inline Matrix p_matrix(Generator& g, int n, int k) {
  if (k % 2 == 1) {
    const Matrix a = g.matrix(n, n, -1, 1);
    const Matrix s = g.matrix(n, n, -1, 1);
    return a * a.transpose() + 0.05 * Matrix::Identity(n, n) + (s - s.transpose());
  }
  Matrix t = g.matrix(n, n, -3, 3).triangularView<Eigen::Upper>();
  for (int i = 0; i < n; ++i) t(i, i) = g.uniform(0.2, 2.0);
  const auto perm = g.permutation(n);
  Vector d1(n), d2(n);
  for (int i = 0; i < n; ++i) d1(i) = g.uniform(0.5, 2.0), d2(i) = g.uniform(0.5, 2.0);
  return d1.asDiagonal() * (perm * t * perm.transpose()) * d2.asDiagonal();
}

inline Matrix symmetric_positive_definite(Generator& g, int n) {
  const Matrix a = g.matrix(n, n, -1, 1);
  return a * a.transpose() + 0.1 * Matrix::Identity(n, n);
}

// Copositive-plus, three kinds by k: skew-symmetric (infeasible for some q); PSD symmetric part
// of rank < n plus a skew part; nonnegative with positive diagonal (strictly copositive).
inline Matrix copositive_plus(Generator& g, int n, int k) {
  if (k % 3 == 2) {
    const Matrix s = g.matrix(n, n, -1, 1);
    return s - s.transpose();
  }
  if (k % 3 == 0) {
    const int r = std::max(1, n - 1 - k % 2);
    const Matrix b = g.matrix(n, r, -1, 1);
    const Matrix s = g.matrix(n, n, -1, 1);
    return b * b.transpose() + (s - s.transpose());
  }
  Matrix m = g.matrix(n, n, 0, 2);
  for (int i = 0; i < n; ++i) m(i, i) = g.uniform(0.1, 1.0);
  return m;
}

// Small-integer P-matrices (triangular with unit diagonal, permuted; or integer PD) for
// problems with many degenerate pivots and ratio ties (q from small_integer_q).
inline Matrix small_integer_p_matrix(Generator& g, int n, int k) {
  if (k % 2 == 0) {
    Matrix t = Matrix::Identity(n, n);
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) t(i, j) = g.integer(-2, 2);
    }
    const auto perm = g.permutation(n);
    return perm * t * perm.transpose();
  }
  Matrix b(n, n), s(n, n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) b(i, j) = g.integer(-1, 1), s(i, j) = g.integer(-1, 1);
  }
  return b * b.transpose() + Matrix::Identity(n, n) + (s - s.transpose());
}

// q in {-1, 0, 1}^n: repeated values and zeros.
inline Vector small_integer_q(Generator& g, int n) {
  Vector q(n);
  for (int i = 0; i < n; ++i) q(i) = g.integer(-1, 1);
  return q;
}

// Symmetric, strictly diagonally dominant (so SPD), entries of order 1: Delassus-like; each
// diagonal exceeds its row's off-diagonal sum by a margin in [min_margin, 1).
inline Matrix diagonally_dominant(Generator& g, int n, double min_margin) {
  Matrix m = Matrix::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) m(i, j) = m(j, i) = g.uniform(-1.0, 1.0);
  }
  for (int i = 0; i < n; ++i) m(i, i) = m.row(i).cwiseAbs().sum() + g.uniform(min_margin, 1.0);
  return m;
}

// The message of the saltus::Error that f() throws, or "no error".
template <class F>
std::string error_message(const F& f) {
  try {
    f();
  } catch (const saltus::Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace saltus::lcp::lcp_problems
