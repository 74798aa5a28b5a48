#include "saltus/mech/newton_impact_map.hpp"

#include <Eigen/Cholesky>
#include <cmath>

#include "saltus/core/error.hpp"
#include "saltus/mech/mass_matrix_check.hpp"

namespace saltus::mech {

NewtonImpact newton_impact(ConstMatrixRef M, ConstVectorRef w_N, ConstVectorRef qdot_minus,
                           double e, const std::string& who, bool superelastic) {
  check_mass_matrix(M, Vector(), who);
  const Eigen::Index n = M.rows();
  if (w_N.size() != n || qdot_minus.size() != n) {
    saltus::detail::throw_error(who, ": w_N has ", w_N.size(), " and qdot- ", qdot_minus.size(),
                                " entries; expected ", n);
  }
  if (!std::isfinite(e) || e < 0.0 || (e > 1.0 && !superelastic)) {
    saltus::detail::throw_error(
        who, ": restitution e = ", e, " is outside [0, 1]",
        e > 1.0 ? " (a super-elastic contact: pass superelastic = true)" : "");
  }
  if (!(w_N.norm() > 0.0) || !w_N.allFinite()) {
    saltus::detail::throw_error(who, ": the gap gradient w_N vanishes (|w_N| = ", w_N.norm(),
                                "): the contact normal is undefined here");
  }
  NewtonImpact out;
  const Vector Minv_w = M.llt().solve(w_N);
  out.delassus = w_N.dot(Minv_w);
  const double gdot = w_N.dot(qdot_minus);
  out.impulse = newton_impulse(gdot, out.delassus, e);  // (5.17)
  out.map =
      Matrix::Identity(n, n) - ((1.0 + e) / out.delassus) * Minv_w * w_N.transpose();  // (5.18)
  out.qdot_plus = qdot_minus + Minv_w * out.impulse;  // (5.15), = P qdot- (5.19)
  out.kinetic_energy_minus = 0.5 * qdot_minus.dot(M * qdot_minus);
  out.kinetic_energy_plus = 0.5 * out.qdot_plus.dot(M * out.qdot_plus);
  return out;
}

}  // namespace saltus::mech
