#include "saltus/mech/collision_matrix.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <cmath>

#include "saltus/core/error.hpp"
#include "saltus/mech/mass_matrix_check.hpp"

namespace saltus::mech {

Eigen::Matrix2d collision_matrix(ConstMatrixRef M, ConstVectorRef w_T, ConstVectorRef w_N,
                                 const std::string& who) {
  check_mass_matrix(M, Vector(), who);
  if (w_T.size() != M.rows() || w_N.size() != M.rows()) {
    saltus::detail::throw_error(who, ": w_T has ", w_T.size(), " and w_N ", w_N.size(),
                                " entries; expected ", M.rows());
  }
  Matrix W(M.rows(), 2);
  W.col(0) = w_T;
  W.col(1) = w_N;
  const Matrix MinvW = M.llt().solve(W);
  return W.transpose() * MinvW;  // (7.1)
}

Eigen::Matrix2d rigid_body_collision_matrix(double m, double rho2, double r_t, double r_n) {
  Eigen::Matrix2d A;  // (7.2)
  A << 1.0 + r_n * r_n / rho2, -r_t * r_n / rho2, -r_t * r_n / rho2, 1.0 + r_t * r_t / rho2;
  return A / m;
}

PlasticStickingImpulse plastic_sticking_impulse(const Eigen::Matrix2d& A,
                                                const Eigen::Vector2d& v_minus, double mu) {
  PlasticStickingImpulse out;
  out.impulse = -A.inverse() * v_minus;                // (7.4)
  out.dT = -0.5 * v_minus.dot(A.inverse() * v_minus);  // (7.4)
  out.inside_friction_cone = std::abs(out.impulse[0]) <= mu * out.impulse[1];
  return out;
}

}  // namespace saltus::mech
