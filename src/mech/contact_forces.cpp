// LagrangianModel::contact_forces (lagrangian_model.hpp): each contact's force in a mode, read
// from the mode's dynamics (closed forms for one closed contact, the index-set system for
// several: contact_dynamics.hpp) and the compliant contacts' laws.
#include <algorithm>
#include <vector>

#include "compiled_lagrangian.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech {

ContactForces LagrangianModel::contact_forces(const LagrangianMode& mode, double t,
                                              ConstVectorRef q, ConstVectorRef qdot) const {
  const ContactDynamics d = dynamics(mode, t, q, qdot);
  const int k = contact_count();
  ContactForces out{Vector::Zero(k), Vector::Zero(k), Vector::Zero(k),
                    Vector::Zero(k), Vector::Zero(k), Vector::Zero(k)};
  for (int c = 0; c < k; ++c) {
    double normal = 0.0, tangential = 0.0;
    const auto slot = std::find(compliant_.begin(), compliant_.end(), c);
    if (slot != compliant_.end()) {
      if ((mode.compliant_mask >> (slot - compliant_.begin())) & 1u) {
        normal = compliant_force(c, q, qdot);
        if (contact(c).compliant_frictional()) tangential = d.lambda_T_each[c];
      }
    } else if (mode.kind == ClosedKind::IndexSets) {
      normal = d.lambda_N_each[c];
      tangential = d.lambda_T_each[c];
      if (d.lambda_T2_each.size() > c) out.tangential_2[c] = d.lambda_T2_each[c];
      if (d.lambda_T3_each.size() > c) out.drilling[c] = d.lambda_T3_each[c];
    } else if (mode.closed_contact == c && mode.kind != ClosedKind::PostZeno) {
      normal = d.lambda_N;
      tangential = d.lambda_T;
      out.tangential_2[c] = d.lambda_T2;  // 0 but in space
      out.drilling[c] = d.lambda_T3;      // 0 but with drilling friction
      out.rolling_1[c] = d.lambda_R1;     // 0 but with rolling resistance
      out.rolling_2[c] = d.lambda_R2;
    }
    out.normal[c] = normal;
    out.tangential[c] = tangential;
  }
  return out;
}

const LagrangianModel& LagrangianModel::Compiled::model() const {
  return context->model;
}

}  // namespace saltus::mech
