#include "saltus/mech/mass_matrix_check.hpp"

#include <Eigen/Eigenvalues>
#include <sstream>

#include "saltus/core/error.hpp"

namespace saltus::mech {

namespace {
std::string where_q(ConstVectorRef q) {
  if (q.size() == 0) return "";
  std::ostringstream out;
  out.precision(17);
  out << " at q = (";
  for (Eigen::Index i = 0; i < q.size(); ++i) out << (i ? ", " : "") << q[i];
  out << ")";
  return out.str();
}
}  // namespace

void check_mass_matrix(ConstMatrixRef M, ConstVectorRef q, const std::string& who) {
  if (M.rows() != M.cols() || M.rows() == 0) {
    saltus::detail::throw_error(who, ": mass matrix is ", M.rows(), " x ", M.cols(),
                                "; expected a non-empty square matrix");
  }
  if (q.size() != 0 && q.size() != M.rows()) {
    saltus::detail::throw_error(who, ": mass matrix is ", M.rows(), " x ", M.cols(), " but q has ",
                                q.size(), " entries");
  }
  if (!M.allFinite()) {
    saltus::detail::throw_error(who, ": mass matrix has a non-finite entry", where_q(q));
  }
  const double scale = 1.0 + M.cwiseAbs().maxCoeff();
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    for (Eigen::Index j = i + 1; j < M.cols(); ++j) {
      if (std::abs(M(i, j) - M(j, i)) > 1e-12 * scale) {
        saltus::detail::throw_error(who, ": mass matrix is not symmetric", where_q(q), ": M(", i,
                                    ",", j, ") = ", M(i, j), " but M(", j, ",", i, ") = ", M(j, i));
      }
    }
  }
  Eigen::LLT<Matrix> llt(M);
  if (llt.info() != Eigen::Success) {
    Eigen::SelfAdjointEigenSolver<Matrix> eig(M, Eigen::EigenvaluesOnly);
    saltus::detail::throw_error(
        who, ": mass matrix is not symmetric positive definite", where_q(q),
        ": smallest eigenvalue ", eig.eigenvalues().minCoeff(),
        " <= 0; check the inertia parameters (masses, inertias) of the model");
  }
}

}  // namespace saltus::mech
