// Matrix classes for LCPs; see include/saltus/lcp/matrix_classes.hpp.
#include "saltus/lcp/matrix_classes.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/lcp/lcp.hpp"
#include "saltus/lcp/lcp_scaling.hpp"

namespace saltus::lcp {
namespace {

void check_square(ConstMatrixRef m, const MatrixClassOptions& o) {
  check_lcp_input(m, Vector::Zero(m.rows()), "matrix classification");
  if (!(std::isfinite(o.tolerance) && o.tolerance > 0.0)) {
    saltus::detail::throw_error("MatrixClassOptions::tolerance = ", o.tolerance,
                                " must be finite and > 0");
  }
  if (o.max_size < 0 || o.max_size > 24) {
    saltus::detail::throw_error("MatrixClassOptions::max_size = ", o.max_size,
                                " must be in [0, 24]");
  }
}

Matrix principal(ConstMatrixRef m, std::uint32_t mask, std::vector<int>& idx) {
  idx.clear();
  for (int i = 0; i < static_cast<int>(m.rows()); ++i) {
    if ((mask >> i) & 1u) idx.push_back(i);
  }
  const auto k = static_cast<Eigen::Index>(idx.size());
  Matrix out(k, k);
  for (Eigen::Index a = 0; a < k; ++a) {
    for (Eigen::Index b = 0; b < k; ++b) {
      out(a, b) = m(idx[static_cast<std::size_t>(a)], idx[static_cast<std::size_t>(b)]);
    }
  }
  return out;
}

double max_abs(ConstMatrixRef m) {
  return m.size() ? m.cwiseAbs().maxCoeff() : 0.0;
}

// Reference magnitude of an equilibrated matrix for the tolerances (1 for the zero matrix).
double reference_scale(ConstMatrixRef scaled) {
  const double s = max_abs(scaled);
  return s > 0.0 ? s : 1.0;
}

// D M D with D from lcp_scaling.hpp: every class decided here is invariant under it.
Matrix equilibrated(ConstMatrixRef m) {
  LcpScaling scaling;
  Matrix scaled;
  equilibrate_matrix(m, scaling, scaled);
  return scaled;
}

Decision p_matrix_of_scaled(ConstMatrixRef m, const MatrixClassOptions& o) {
  const int n = static_cast<int>(m.rows());
  const Matrix sym = 0.5 * (m + m.transpose());
  const double scale = reference_scale(m);
  if (n == 0) return Decision::Yes;  // no principal minors (Eigen refuses empty matrices)
  // Positive definite symmetric part: every principal minor of M is positive.
  Eigen::SelfAdjointEigenSolver<Matrix> eig(sym, Eigen::EigenvaluesOnly);
  if (eig.eigenvalues().minCoeff() > o.tolerance * scale) return Decision::Yes;
  if (n > o.max_size) return Decision::Undecided;
  bool undecided = false;
  std::vector<int> idx;
  for (std::uint32_t mask = 1; mask < (std::uint32_t{1} << n); ++mask) {
    const Matrix sub = principal(m, mask, idx);
    const double det = Eigen::FullPivLU<Matrix>(sub).determinant();
    const double tol = o.tolerance * std::pow(scale, static_cast<double>(sub.rows()));
    if (det < -tol) return Decision::No;
    if (det <= tol) undecided = true;
  }
  return undecided ? Decision::Undecided : Decision::Yes;
}

Decision copositive_of_scaled(ConstMatrixRef m, bool strict, const MatrixClassOptions& o) {
  const int n = static_cast<int>(m.rows());
  const Matrix sym = 0.5 * (m + m.transpose());
  const double tol = o.tolerance * reference_scale(m);  // of M: S may be zero (skew M)
  if (n == 0) return Decision::Yes;                     // vacuous (Eigen refuses empty matrices)
  Eigen::SelfAdjointEigenSolver<Matrix> all(sym, Eigen::EigenvaluesOnly);
  if (all.eigenvalues().minCoeff() > tol) return Decision::Yes;               // PD: strictly
  if (!strict && all.eigenvalues().minCoeff() >= -tol) return Decision::Yes;  // PSD
  if (n > o.max_size) return Decision::Undecided;
  bool undecided = false;
  std::vector<int> idx;
  for (std::uint32_t mask = 1; mask < (std::uint32_t{1} << n); ++mask) {
    const Matrix sub = principal(sym, mask, idx);
    Eigen::SelfAdjointEigenSolver<Matrix> eig(sub);
    const auto& lambda = eig.eigenvalues();
    const auto k = sub.rows();
    for (Eigen::Index j = 0; j < k; ++j) {
      const bool offending = strict ? lambda(j) <= tol : lambda(j) < -tol;
      if (!offending) continue;
      Vector v = eig.eigenvectors().col(j);
      if (v.sum() < 0.0) v = -v;
      const double vtol = 1e-9 * v.cwiseAbs().maxCoeff();
      const bool positive = v.minCoeff() > vtol;
      const bool repeated = (j > 0 && std::abs(lambda(j) - lambda(j - 1)) <= tol) ||
                            (j + 1 < k && std::abs(lambda(j + 1) - lambda(j)) <= tol);
      if (repeated) {
        undecided = true;  // the eigenspace may hold a positive vector the basis misses
      } else if (positive) {
        return Decision::No;
      }
    }
  }
  return undecided ? Decision::Undecided : Decision::Yes;
}

}  // namespace

std::string_view to_string(Decision d) {
  switch (d) {
    case Decision::Yes:
      return "yes";
    case Decision::No:
      return "no";
    case Decision::Undecided:
      return "undecided";
  }
  return "unknown";
}

Decision is_p_matrix(ConstMatrixRef m, const MatrixClassOptions& o) {
  check_square(m, o);
  return p_matrix_of_scaled(equilibrated(m), o);
}

Decision is_copositive(ConstMatrixRef m, bool strict, const MatrixClassOptions& o) {
  check_square(m, o);
  return copositive_of_scaled(equilibrated(m), strict, o);
}

MatrixClass classify_matrix(ConstMatrixRef data, const MatrixClassOptions& o) {
  check_square(data, o);
  // Scale first, then decide: D M D keeps every class below, and its entries are near 1, so the
  // tolerances are relative to the data (diag(1e11, 1e-2) becomes the identity).
  const Matrix m = equilibrated(data);
  MatrixClass c;
  const int n = static_cast<int>(m.rows());
  const double scale = reference_scale(m);
  const double tol = o.tolerance * scale;
  c.symmetric = max_abs(m - m.transpose()) <= tol;
  const Matrix sym = 0.5 * (m + m.transpose());
  double min_eig = 0.0;
  if (n > 0) {
    Eigen::SelfAdjointEigenSolver<Matrix> eig(sym, Eigen::EigenvaluesOnly);
    min_eig = eig.eigenvalues().minCoeff();
  }
  c.positive_definite = min_eig > tol ? Decision::Yes : Decision::No;
  c.positive_semidefinite = min_eig >= -tol ? Decision::Yes : Decision::No;
  if (n == 0) c.positive_definite = c.positive_semidefinite = Decision::Yes;
  c.p_matrix = p_matrix_of_scaled(m, o);
  c.copositive = copositive_of_scaled(m, false, o);
  c.strictly_copositive = copositive_of_scaled(m, true, o);
  if (c.positive_semidefinite == Decision::Yes || c.strictly_copositive == Decision::Yes) {
    c.copositive_plus = Decision::Yes;
  } else if (c.copositive == Decision::No) {
    c.copositive_plus = Decision::No;
  } else if (c.copositive == Decision::Undecided || n > o.max_size) {
    c.copositive_plus = Decision::Undecided;
  } else {
    // Copositive, not PSD, not strictly copositive: zeros x >= 0 of x^T S x have a support J
    // on which S_JJ is PSD and singular with x_J > 0 in its null space.
    c.copositive_plus = Decision::Yes;
    std::vector<int> idx;
    for (std::uint32_t mask = 1; mask < (std::uint32_t{1} << n); ++mask) {
      const Matrix sub = principal(sym, mask, idx);
      Eigen::SelfAdjointEigenSolver<Matrix> eig(sub);
      const auto& lambda = eig.eigenvalues();
      if (lambda.minCoeff() < -tol || lambda.minCoeff() > tol) continue;  // not singular PSD
      const int nullity = static_cast<int>((lambda.array().abs() <= tol).count());
      if (nullity > 1) {
        c.copositive_plus = Decision::Undecided;
        continue;
      }
      Vector v = eig.eigenvectors().col(0);
      if (v.sum() < 0.0) v = -v;
      if (v.minCoeff() <= 1e-9 * v.cwiseAbs().maxCoeff()) continue;  // not a positive zero
      Vector x = Vector::Zero(n);
      for (std::size_t a = 0; a < idx.size(); ++a) x(idx[a]) = v(static_cast<Eigen::Index>(a));
      if ((sym * x).cwiseAbs().maxCoeff() > tol * x.cwiseAbs().maxCoeff() * 1e3) {
        c.copositive_plus = Decision::No;
        break;
      }
    }
  }
  return c;
}

}  // namespace saltus::lcp
