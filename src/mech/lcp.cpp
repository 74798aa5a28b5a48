// LCP input checks and residual; see include/saltus/mech/lcp.hpp.
#include "saltus/mech/lcp.hpp"

#include <algorithm>
#include <cmath>

#include "saltus/core/error.hpp"

namespace saltus::mech {

std::string_view to_string(LcpStatus status) {
  switch (status) {
    case LcpStatus::NotRun:
      return "not run";
    case LcpStatus::Solved:
      return "solved";
    case LcpStatus::RayTermination:
      return "ray termination";
    case LcpStatus::PivotCap:
      return "pivot cap";
    case LcpStatus::Inaccurate:
      return "inaccurate";
  }
  return "unknown";
}

void check_lcp_input(ConstMatrixRef matrix, ConstVectorRef q, std::string_view who) {
  if (matrix.rows() != matrix.cols()) {
    detail::throw_error(who, ": LCP matrix M must be square, got ", matrix.rows(), " x ",
                        matrix.cols());
  }
  if (q.size() != matrix.rows()) {
    detail::throw_error(who, ": LCP vector q has size ", q.size(), " but M is ", matrix.rows(),
                        " x ", matrix.cols());
  }
  if (matrix.allFinite() && q.allFinite()) return;  // the common case, vectorized
  for (Eigen::Index j = 0; j < matrix.cols(); ++j) {
    for (Eigen::Index i = 0; i < matrix.rows(); ++i) {
      if (!std::isfinite(matrix(i, j))) {
        detail::throw_error(who, ": LCP matrix entry M(", i, ", ", j, ") = ", matrix(i, j),
                            " is not finite");
      }
    }
  }
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    if (!std::isfinite(q(i))) {
      detail::throw_error(who, ": LCP vector entry q(", i, ") = ", q(i), " is not finite");
    }
  }
}

double natural_residual(ConstMatrixRef matrix, ConstVectorRef q, ConstVectorRef z, Vector& w) {
  w.resize(q.size());
  w.noalias() = matrix * z;
  w += q;
  double r = 0.0;
  for (Eigen::Index i = 0; i < q.size(); ++i) r = std::max(r, std::abs(std::min(z(i), w(i))));
  const double scale = 1.0 + (q.size() > 0 ? q.cwiseAbs().maxCoeff() : 0.0);
  return r / scale;
}

double certified_residual(ConstMatrixRef matrix, ConstVectorRef q, ConstVectorRef z, Vector& w) {
  Vector row_magnitude(q.size());
  return certified_residual(matrix, q, z, w, row_magnitude);
}

double certified_residual(ConstMatrixRef matrix, ConstVectorRef q, ConstVectorRef z, Vector& w,
                          Vector& inverse_row_magnitude) {
  const Eigen::Index n = q.size();
  w.resize(n);
  Vector& inv_r = inverse_row_magnitude;
  inv_r.resize(n);
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
    w(i) = wi;
    inv_r(i) = ri;  // r_i for now
  }
  double residual = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!std::isfinite(w(i)) || !std::isfinite(inv_r(i))) return kInfinity;
    inv_r(i) = inv_r(i) > 0.0 ? 1.0 / inv_r(i) : 0.0;
    if (!std::isfinite(inv_r(i))) return kInfinity;   // r_i subnormal: cannot judge row i
    residual = std::max(residual, -w(i) * inv_r(i));  // sign of w: max(0, -omega_i)
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
      weight = std::max(weight, mij * inv_r(i));
    }
    weight = column_is_zero ? 1.0 : std::min(1.0, weight * zj);
    if (z(j) < 0.0) residual = std::max(residual, weight);
    residual = std::max(residual, std::min(weight, std::abs(w(j)) * inv_r(j)));
  }
  return residual;
}

}  // namespace saltus::mech
