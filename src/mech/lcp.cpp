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
                          Vector& row_magnitude) {
  const Eigen::Index n = q.size();
  w.resize(n);
  row_magnitude.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    w(i) = q(i);
    row_magnitude(i) = std::abs(q(i));
  }
  for (Eigen::Index j = 0; j < n; ++j) {  // column order: M is column-major
    const double zj = z(j);
    for (Eigen::Index i = 0; i < n; ++i) {
      w(i) += matrix(i, j) * zj;
      row_magnitude(i) += std::abs(matrix(i, j) * zj);
    }
  }
  double residual = 0.0;
  for (Eigen::Index j = 0; j < n; ++j) {
    const double r = row_magnitude(j);
    if (!std::isfinite(w(j)) || !std::isfinite(r)) return kInfinity;
    const double omega = r > 0.0 ? w(j) / r : 0.0;
    // c_j: the largest share z_j has in any row.
    double weight = 0.0;
    bool column_is_zero = true;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double mij = std::abs(matrix(i, j));
      if (mij == 0.0) continue;
      column_is_zero = false;
      const double ri = row_magnitude(i);
      if (ri > 0.0) weight = std::max(weight, std::min(1.0, mij * std::abs(z(j)) / ri));
    }
    if (column_is_zero && z(j) != 0.0) weight = 1.0;
    residual = std::max(residual, std::max(0.0, -omega));
    if (z(j) < 0.0) residual = std::max(residual, weight);
    residual = std::max(residual, std::min(weight, std::abs(omega)));
  }
  return residual;
}

}  // namespace saltus::mech
