#include "saltus/mech/nonholonomic_impact.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>

#include "saltus/core/error.hpp"

namespace saltus::mech {

namespace {

// The map with its work matrices of type Mat, Vec: of bounded size on the stack for models
// (no allocation per impact), heap-sized beyond kMaxImpactSize. `where()` makes the messages'
// prefix, only when one is thrown.
template <class Mat, class Vec, class Where>
NonholonomicImpact impact_with(ConstMatrixRef M, ConstVectorRef dh, ConstMatrixRef eta,
                               ConstVectorRef qdot_minus, double restitution, const Where& where) {
  const Eigen::Index n = M.rows();
  if (M.cols() != n || dh.size() != n || qdot_minus.size() != n || eta.cols() != n) {
    saltus::detail::throw_error(where(), ": sizes do not match (M ", M.rows(), "x", M.cols(),
                                ", dh ", dh.size(), ", eta ", eta.rows(), "x", eta.cols(),
                                ", qdot ", qdot_minus.size(), ")");
  }
  if (!(restitution >= 0.0 && restitution <= 1.0)) {
    saltus::detail::throw_error(where(), ": restitution e = ", restitution, " is outside [0, 1]");
  }
  const Eigen::LLT<Mat> chol{Mat(M)};
  if (chol.info() != Eigen::Success) {
    saltus::detail::throw_error(where(), ": mass matrix is not positive definite");
  }
  const Vec grad_h = chol.solve(dh);
  const Mat W = chol.solve(eta.transpose());  // column a = W^a
  const Eigen::Index k = eta.rows();
  const Vec W_dh = W.transpose() * dh;  // dh(W^a)
  Vec y = Vec::Zero(k);                 // m_ab dh(W^b)
  if (k > 0) {
    const Mat m_up = eta * W;  // m^{ab}
    const Eigen::SelfAdjointEigenSolver<Mat> eig(m_up, Eigen::EigenvaluesOnly);
    const double lo = eig.eigenvalues().minCoeff(), hi = eig.eigenvalues().maxCoeff();
    if (!(lo > 1e-12 * hi)) {
      saltus::detail::throw_error(
          where(), ": the constraint rows are dependent (eta M^-1 eta^T has eigenvalues ", lo,
          " and ", hi, ")");
    }
    y = Eigen::LLT<Mat>(m_up).solve(W_dh);
  }
  const double G = dh.dot(grad_h);
  NonholonomicImpact out;
  out.denominator = G - y.dot(W_dh);
  if (!(out.denominator > 1e-12 * G)) {
    saltus::detail::throw_error(where(), ": trivial impact: D = ", out.denominator,
                                " (dh(grad h) = ", G,
                                "): the constraints annihilate the wall's normal");
  }
  out.dh_minus = dh.dot(qdot_minus);
  out.S = k > 0 ? y.dot(eta * qdot_minus) : 0.0;
  const double c = 1.0 + restitution;
  const double scale = c * (out.S - out.dh_minus) / out.denominator;
  out.epsilon = scale;
  out.lambda = -scale * y;
  out.qdot_plus = qdot_minus + W * out.lambda + out.epsilon * grad_h;
  out.dh_plus = dh.dot(out.qdot_plus);
  out.energy_change =
      0.5 * out.qdot_plus.dot(M * out.qdot_plus) - 0.5 * qdot_minus.dot(M * qdot_minus);
  return out;
}

template <class Where>
NonholonomicImpact impact_sized(ConstMatrixRef M, ConstVectorRef dh, ConstMatrixRef eta,
                                ConstVectorRef qdot_minus, double restitution, const Where& where) {
  using SmallMatrix =
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxImpactSize, kMaxImpactSize>;
  using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxImpactSize, 1>;
  if (M.rows() <= kMaxImpactSize && eta.rows() <= kMaxImpactSize) {
    return impact_with<SmallMatrix, SmallVector>(M, dh, eta, qdot_minus, restitution, where);
  }
  return impact_with<Matrix, Vector>(M, dh, eta, qdot_minus, restitution, where);
}

}  // namespace

NonholonomicImpact nonholonomic_impact(ConstMatrixRef M, ConstVectorRef dh, ConstMatrixRef eta,
                                       ConstVectorRef qdot_minus, double restitution,
                                       const std::string& where) {
  return impact_sized(M, dh, eta, qdot_minus, restitution, [&where] { return where; });
}

NonholonomicImpact nonholonomic_impact(ConstMatrixRef M, ConstVectorRef dh, ConstMatrixRef eta,
                                       ConstVectorRef qdot_minus, double restitution,
                                       const std::function<std::string()>& where) {
  return impact_sized(M, dh, eta, qdot_minus, restitution, where);
}

}  // namespace saltus::mech
