#include "saltus/mech/chatterjee_ruina_law.hpp"

#include <Eigen/LU>
#include <cmath>

namespace saltus::mech {

PlanarImpactResult chatterjee_ruina_impact(const PlanarImpactInput& input, double e, double e_t,
                                           double mu) {
  const Eigen::Matrix2d& A = input.A;
  const Eigen::Vector2d& v = input.v_minus;
  PlanarImpactResult r;
  // Reference impulses (FORMULAS.md 8).
  r.P_frictionless = {0.0, -v[1] / A(1, 1)};
  r.P_stick = -A.inverse() * v;  // 2x2 closed-form inverse (A SPD, validated by the caller)
  const Eigen::Vector2d d = r.P_stick - r.P_frictionless;
  r.P_candidate = (1.0 + e) * r.P_frictionless + (1.0 + e_t) * d;
  if (std::abs(r.P_candidate[0]) <= mu * r.P_candidate[1]) {
    r.kappa = 1.0 + e_t;
    r.impulse = r.P_candidate;
  } else {
    // Project along P_s - P_f onto the cone edge on the side of P_s,t.
    r.projected_onto_cone = true;
    r.kappa = mu * (1.0 + e) * r.P_frictionless[1] / (std::abs(r.P_stick[0]) - mu * d[1]);
    r.impulse = (1.0 + e) * r.P_frictionless + r.kappa * d;
  }
  r.v_plus = v + A * r.impulse;
  r.dT = impact_energy_change(A, v, r.impulse);
  return r;
}

}  // namespace saltus::mech
