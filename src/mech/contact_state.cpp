// Whether a rigid contact touches; see mech/contact_state.hpp.
#include "saltus/mech/contact_state.hpp"

#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech {

double touching_band(const LagrangianModel& model, int i, ConstVectorRef q) {
  return touching_band(model.gap_gradient(i, q), q, model.gap(i, q));
}

bool touches(const LagrangianModel& model, int i, ConstVectorRef q) {
  return model.gap(i, q) <= touching_band(model, i, q);
}

}  // namespace saltus::mech
