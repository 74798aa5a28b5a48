// The contact quantities a mechanical model's [outputs] read by name (docs/MODEL_FORMAT.md
// "[outputs]"): for a contact c of [[contacts]],
//   normal_force(c)   lambda_N, the normal force of the mode the state is in (0 while open)
//   tangent_force(c)  lambda_T, the friction force along w_T (contacts with a `tangent`)
//   gap(c)            g_N(q)
//   gap_rate(c)       gdot_N = w_N(q)^T q'
//   tangent_rate(c)   gdot_T = w_T(q)^T q', the signed sliding velocity (with a `tangent`)
//   slip_speed(c)     |gdot_T|                                          (with a `tangent`)
// The loader makes gaps and rates expressions of q and q' in the model's graph
// (src/model/loader/outputs_reader.cpp). The forces depend on the mode, not on the state alone:
// they are inputs of the outputs' tapes, the algebraic leaves z[normal_force_input(k)] and
// z[tangent_force_input(k)] of contact k of ModelMechanics::contacts (outputs read no algebraic
// state of their own), which run/output_columns.hpp fills from the sample's mode through
// run/contact_force_columns.hpp (mech::LagrangianModel::contact_forces).
#pragma once

namespace saltus::model {

enum class ContactQuantity { NormalForce, TangentForce, Gap, GapRate, TangentRate, SlipSpeed };

struct ContactQuantityName {
  const char* name;  // the function's name in an expression
  ContactQuantity quantity;
  bool tangential;  // reads the contact's tangent (refused for a contact without one)
};

inline constexpr ContactQuantityName kContactQuantities[] = {
    {"normal_force", ContactQuantity::NormalForce, false},
    {"tangent_force", ContactQuantity::TangentForce, true},
    {"gap", ContactQuantity::Gap, false},
    {"gap_rate", ContactQuantity::GapRate, false},
    {"tangent_rate", ContactQuantity::TangentRate, true},
    {"slip_speed", ContactQuantity::SlipSpeed, true},
};

// The algebraic leaves of the outputs' tapes that hold contact k's forces.
constexpr int normal_force_input(int contact) {
  return 2 * contact;
}
constexpr int tangent_force_input(int contact) {
  return 2 * contact + 1;
}

}  // namespace saltus::model
