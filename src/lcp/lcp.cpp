// LCP input checks and residual; see include/saltus/lcp/lcp.hpp.
#include "saltus/lcp/lcp.hpp"

#include <algorithm>
#include <cmath>

#include "lcp_certificate.hpp"
#include "saltus/core/error.hpp"

namespace saltus::lcp {

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
    saltus::detail::throw_error(who, ": LCP matrix M must be square, got ", matrix.rows(), " x ",
                                matrix.cols());
  }
  if (q.size() != matrix.rows()) {
    saltus::detail::throw_error(who, ": LCP vector q has size ", q.size(), " but M is ",
                                matrix.rows(), " x ", matrix.cols());
  }
  if (matrix.allFinite() && q.allFinite()) return;  // the common case, vectorized
  for (Eigen::Index j = 0; j < matrix.cols(); ++j) {
    for (Eigen::Index i = 0; i < matrix.rows(); ++i) {
      if (!std::isfinite(matrix(i, j))) {
        saltus::detail::throw_error(who, ": LCP matrix entry M(", i, ", ", j, ") = ", matrix(i, j),
                                    " is not finite");
      }
    }
  }
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    if (!std::isfinite(q(i))) {
      saltus::detail::throw_error(who, ": LCP vector entry q(", i, ") = ", q(i), " is not finite");
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
  w.resize(q.size());
  inverse_row_magnitude.resize(q.size());
  return certified_residual_sized<0>(matrix, q, z, w.data(), inverse_row_magnitude.data());
}

}  // namespace saltus::lcp
