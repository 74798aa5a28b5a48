// Whether a rigid contact touches; see mech/contact_state.hpp.
#include "saltus/mech/contact_state.hpp"

#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech {

bool touches(const LagrangianModel& model, int i, ConstVectorRef q) {
  const double g = model.gap(i, q);
  return g <= touching_band(model.gap_gradient(i, q), q, g);
}

}  // namespace saltus::mech
