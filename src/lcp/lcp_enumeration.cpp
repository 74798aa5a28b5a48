// Enumeration of complementary bases; see include/saltus/lcp/lcp_enumeration.hpp.
#include "saltus/lcp/lcp_enumeration.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>

#include "saltus/core/error.hpp"
#include "saltus/lcp/lcp.hpp"
#include "saltus/lcp/lcp_scaling.hpp"

namespace saltus::lcp {
namespace {

using SmallMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxEnumerationSize,
                                  kMaxEnumerationSize>;
using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxEnumerationSize, 1>;

// Dense simplex tableau for  min c^T y  s.t.  A y = b, y >= 0  (m rows, p structural columns,
// m artificial columns). Bland's rule (smallest index enters, smallest basic index among tied
// rows leaves) so it terminates under degeneracy.
class DenseSimplex {
 public:
  DenseSimplex(const Matrix& a, const Vector& b, double tol)
      : m_(static_cast<int>(a.rows())), p_(static_cast<int>(a.cols())), tol_(tol) {
    t_.setZero(m_ + 1, p_ + m_ + 1);
    for (int i = 0; i < m_; ++i) {
      const double s = b(i) < 0.0 ? -1.0 : 1.0;  // rows with b >= 0
      t_.row(i).head(p_) = s * a.row(i);
      t_(i, p_ + i) = 1.0;
      t_(i, last()) = s * b(i);
    }
    basis_.resize(static_cast<std::size_t>(m_));
    for (int i = 0; i < m_; ++i) basis_[static_cast<std::size_t>(i)] = p_ + i;
  }

  // Phase 1: true when A y = b, y >= 0 is feasible; afterwards artificials are out of the
  // basis or sit at zero on redundant rows, and may not enter again.
  bool phase_one() {
    t_.row(m_).setZero();
    for (int i = 0; i < m_; ++i) {
      t_.row(m_).head(p_) -= t_.row(i).head(p_);
      t_(m_, last()) -= t_(i, last());
    }
    optimize(p_ + m_);
    const double infeasibility = -t_(m_, last());
    double bmax = 0.0;
    for (int i = 0; i < m_; ++i) bmax = std::max(bmax, std::abs(t_(i, last())));
    if (infeasibility > tol_ * (1.0 + bmax)) return false;
    // Drive basic artificials (at zero) out where a structural column allows it.
    for (int i = 0; i < m_; ++i) {
      if (basis_[static_cast<std::size_t>(i)] < p_) continue;
      for (int j = 0; j < p_; ++j) {
        if (std::abs(t_(i, j)) > tol_) {
          pivot(i, j);
          break;
        }
      }
    }
    return true;
  }

  // Phase 2 from the current feasible basis: min c^T y. Returns -infinity when unbounded.
  double minimize(const Vector& c) {
    t_.row(m_).setZero();
    t_.row(m_).head(p_) = c.transpose();
    for (int i = 0; i < m_; ++i) {
      const int v = basis_[static_cast<std::size_t>(i)];
      const double cb = v < p_ ? c(v) : 0.0;
      if (cb != 0.0) t_.row(m_) -= cb * t_.row(i);
    }
    if (!optimize(p_)) return -kInfinity;
    return -t_(m_, last());
  }

  Vector point() const {
    Vector y = Vector::Zero(p_);
    for (int i = 0; i < m_; ++i) {
      const int v = basis_[static_cast<std::size_t>(i)];
      if (v < p_) y(v) = t_(i, last());
    }
    return y;
  }

 private:
  int last() const { return p_ + m_; }

  // Bland's rule over columns [0, allowed). False when unbounded.
  bool optimize(int allowed) {
    for (int iter = 0; iter < 100000; ++iter) {
      int e = -1;
      for (int j = 0; j < allowed; ++j) {
        if (t_(m_, j) < -tol_) {
          e = j;
          break;
        }
      }
      if (e < 0) return true;
      int r = -1;
      double best = kInfinity;
      for (int i = 0; i < m_; ++i) {
        if (t_(i, e) > tol_) {
          const double ratio = t_(i, last()) / t_(i, e);
          if (ratio < best - tol_ ||
              (ratio <= best + tol_ && r >= 0 &&
               basis_[static_cast<std::size_t>(i)] < basis_[static_cast<std::size_t>(r)])) {
            best = std::min(best, ratio);
            r = i;
          }
        }
      }
      if (r < 0) return false;
      pivot(r, e);
    }
    return true;  // not reached for Bland's rule; a guard against rounding loops
  }

  void pivot(int r, int e) {
    t_.row(r) /= t_(r, e);
    for (int i = 0; i <= m_; ++i) {
      if (i != r && t_(i, e) != 0.0) t_.row(i) -= t_(i, e) * t_.row(r);
    }
    basis_[static_cast<std::size_t>(r)] = e;
  }

  int m_;
  int p_;
  double tol_;
  Matrix t_;
  std::vector<int> basis_;
};

}  // namespace

void validate(const LcpEnumerationOptions& o) {
  if (o.max_size < 0 || o.max_size > kMaxEnumerationSize) {
    saltus::detail::throw_error("LcpEnumerationOptions::max_size = ", o.max_size,
                                " must be in [0, ", kMaxEnumerationSize, "]");
  }
  const auto positive = [](double v, const char* name) {
    if (!(std::isfinite(v) && v > 0.0)) {
      saltus::detail::throw_error("LcpEnumerationOptions::", name, " = ", v,
                                  " must be finite and > 0");
    }
  };
  positive(o.feasibility_tolerance, "feasibility_tolerance");
  positive(o.singular_tolerance, "singular_tolerance");
  positive(o.duplicate_tolerance, "duplicate_tolerance");
  if (!(std::isfinite(o.matrix_scale) && o.matrix_scale >= 0.0)) {
    saltus::detail::throw_error("LcpEnumerationOptions::matrix_scale = ", o.matrix_scale,
                                " must be finite and >= 0 (0: max |M_ij|)");
  }
}

LcpEnumerationResult enumerate_lcp_solutions(ConstMatrixRef matrix, ConstVectorRef q,
                                             const LcpEnumerationOptions& options,
                                             const Matrix* observable) {
  check_lcp_input(matrix, q, "LCP enumeration");
  validate(options);
  const int n = static_cast<int>(q.size());
  if (n > options.max_size) {
    saltus::detail::throw_error("LCP enumeration: n = ", n,
                                " exceeds LcpEnumerationOptions::max_size = ", options.max_size,
                                " (2^n = ", std::uint64_t{1} << std::min(n, 62),
                                " faces); use Lemke with a matrix class that certifies the answer");
  }
  if (observable != nullptr && observable->cols() != n) {
    saltus::detail::throw_error("LCP enumeration: observable has ", observable->cols(),
                                " columns but n = ", n);
  }
  LcpEnumerationResult out;
  out.size = n;
  // Enumerate on the equilibrated problem (same solution set, z = s C z'); every candidate is
  // certified on the caller's data.
  LcpScaling scaling;
  Matrix ms;
  Vector qs;
  equilibrate_lcp(matrix, q, scaling, ms, qs);
  const double data_max = n > 0 ? matrix.cwiseAbs().maxCoeff() : 0.0;
  const double m_max = n > 0 ? ms.cwiseAbs().maxCoeff() : 0.0;
  const double q_max = n > 0 ? qs.cwiseAbs().maxCoeff() : 0.0;
  // The caller's reference scale, carried over to the equilibrated matrix by the same ratio.
  const double scale = options.matrix_scale > 0.0 && data_max > 0.0
                           ? options.matrix_scale * (m_max / data_max)
                           : m_max;
  const std::uint32_t n_faces = std::uint32_t{1} << n;
  out.faces_checked = static_cast<int>(n_faces);

  Vector z(n);  // scaled unknown z' of the current face
  Vector z_data(n);
  Vector w(n);
  Vector inverse_row_magnitude(n);
  std::vector<Vector> scaled_points;  // z' of every accepted solution, for duplicates
  std::vector<int> idx;
  idx.reserve(static_cast<std::size_t>(n));
  const double ftol = options.feasibility_tolerance;
  // Accepts z' when its basic entries are not clearly negative and the clamped point, in the
  // caller's units, passes the certificate; false when rejected.
  const auto add_solution = [&](std::uint32_t mask, bool from_singular) {
    const double z_max = n > 0 ? z.cwiseAbs().maxCoeff() : 0.0;
    bool degenerate = false;
    for (int i = 0; i < n; ++i) {
      if (!((mask >> i) & 1u)) continue;
      if (z(i) < -ftol * z_max) return false;
      if (z(i) <= ftol * z_max) degenerate = true;
    }
    z = z.cwiseMax(0.0);
    z_data = z;
    unscale_z(scaling, z_data);
    if (!(certified_residual(matrix, q, z_data, w, inverse_row_magnitude) <= ftol)) return false;
    for (int i = 0; i < n; ++i) {
      const bool basic = (mask >> i) & 1u;
      if (!basic && std::abs(w(i)) * inverse_row_magnitude(i) <= ftol) degenerate = true;
    }
    for (const Vector& p : scaled_points) {
      const double size = std::max(p.cwiseAbs().maxCoeff(), z_max);
      if ((p - z).cwiseAbs().maxCoeff() <= options.duplicate_tolerance * size) {
        return true;  // same point from another basis
      }
    }
    scaled_points.push_back(z);
    out.solutions.push_back({z_data, w, mask, degenerate, from_singular});
    return true;
  };

  SmallMatrix maa;
  SmallVector qa;
  for (std::uint32_t mask = 0; mask < n_faces; ++mask) {
    idx.clear();
    for (int i = 0; i < n; ++i) {
      if ((mask >> i) & 1u) idx.push_back(i);
    }
    const int k = static_cast<int>(idx.size());
    z.setZero();
    if (k == 0) {
      add_solution(mask, false);
      continue;
    }
    maa.resize(k, k);
    qa.resize(k);
    for (int a = 0; a < k; ++a) {
      qa(a) = -qs(idx[static_cast<std::size_t>(a)]);
      for (int b = 0; b < k; ++b) {
        maa(a, b) = ms(idx[static_cast<std::size_t>(a)], idx[static_cast<std::size_t>(b)]);
      }
    }
    Eigen::FullPivLU<SmallMatrix> lu(maa);
    const double min_pivot = lu.matrixLU().diagonal().cwiseAbs().minCoeff();
    if (min_pivot > options.singular_tolerance * scale) {
      // One step of iterative refinement: a face mixing rates of very different size (normal
      // rates ~1e-7 beside a sliding speed ~0.3 in a frictional impact) otherwise carries the
      // large entries' round-off into the small unknowns beyond the certificate (issue 11).
      SmallVector za = lu.solve(qa);
      za += lu.solve(SmallVector(qa - maa * za));
      for (int a = 0; a < k; ++a) z(idx[static_cast<std::size_t>(a)]) = za(a);
      if (za.allFinite()) add_solution(mask, false);
      continue;
    }

    // Singular face: LP over y = (z_a, s), rows a: M_aa z_a = -q_a; rows a': M_a'a z_a - s = -q_a'.
    ++out.singular_faces_checked;
    Matrix a_lp = Matrix::Zero(n, n);
    Vector b_lp(n);
    int row = 0;
    for (int a = 0; a < k; ++a, ++row) {
      for (int b = 0; b < k; ++b) a_lp(row, b) = maa(a, b);
      b_lp(row) = qa(a);
    }
    int slack = k;
    for (int i = 0; i < n; ++i) {
      if ((mask >> i) & 1u) continue;
      for (int b = 0; b < k; ++b) a_lp(row, b) = ms(i, idx[static_cast<std::size_t>(b)]);
      a_lp(row, slack++) = -1.0;
      b_lp(row) = -qs(i);
      ++row;
    }
    // Equilibrated data: max |M'|, max |q'| are near 1, so this is relative to the data.
    const double lp_tol = 1e-11 * (1.0 + std::max(m_max, q_max));
    DenseSimplex lp(a_lp, b_lp, lp_tol);
    if (!lp.phase_one()) continue;
    const Vector y = lp.point();
    for (int a = 0; a < k; ++a) z(idx[static_cast<std::size_t>(a)]) = y(a);
    LcpFace face;
    face.basis = mask;
    lu.setThreshold(options.singular_tolerance * scale /
                    std::max(maa.cwiseAbs().maxCoeff(), 1e-300));
    face.nullity = k - static_cast<int>(lu.rank());
    if (!add_solution(mask, true)) continue;  // LP vertex rejected by the LCP tolerance
    face.vertex_z = z_data;
    if (observable != nullptr) {  // L z = L s C z': the LP's variables are z'_a
      const auto rows = observable->rows();
      face.observable_min.resize(rows);
      face.observable_max.resize(rows);
      Vector c = Vector::Zero(n);
      for (Eigen::Index r = 0; r < rows; ++r) {
        for (int a = 0; a < k; ++a) {
          const int i = idx[static_cast<std::size_t>(a)];
          c(a) = (*observable)(r, i) * scaling.q_scale * scaling.column(i);
        }
        face.observable_min(r) = lp.minimize(c);
        face.observable_max(r) = -lp.minimize(-c);
      }
    }
    out.singular_faces.push_back(std::move(face));
  }
  return out;
}

}  // namespace saltus::lcp
