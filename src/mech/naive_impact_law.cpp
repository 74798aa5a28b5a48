#include "saltus/mech/naive_impact_law.hpp"

#include <sstream>

#include "saltus/mech/newton_impact_map.hpp"

namespace saltus::mech {

PlanarImpactResult naive_impact(const PlanarImpactInput& input, double e, double mu) {
  const Eigen::Matrix2d& A = input.A;
  const Eigen::Vector2d& v = input.v_minus;
  const double s = v[0] > 0.0 ? 1.0 : (v[0] < 0.0 ? -1.0 : 0.0);
  PlanarImpactResult r;
  // v_n+ = v_n- + A_nt P_t + A_nn P_n = -e v_n- with P_t = -mu s P_n (FORMULAS.md 6.3).
  const double effective = A(1, 1) - mu * s * A(0, 1);
  if (!(effective > 0.0)) {
    std::ostringstream msg;
    msg.precision(17);
    msg << "naive law: A_nn - mu s A_tn = " << effective
        << " <= 0, no positive normal impulse reaches v_n+ = -e v_n- (mu = " << mu << ", s = " << s
        << ")";
    r.status = ImpactStatus::Jam;
    r.message = msg.str();
    r.v_plus = v;
    return r;
  }
  const double P_n = newton_impulse(v[1], effective, e);
  r.impulse = {-mu * s * P_n, P_n};
  r.v_plus = v + A * r.impulse;
  r.dT = impact_energy_change(A, v, r.impulse);
  return r;
}

}  // namespace saltus::mech
