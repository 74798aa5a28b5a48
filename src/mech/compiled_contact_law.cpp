// LagrangianModel::Compiled::contact_law_setter: a rigid contact's e, mu and e_t changed in a
// compiled system, whose callables all read the law from the shared context.
#include "compiled_lagrangian.hpp"
#include "saltus/core/error.hpp"

namespace saltus::mech {

LagrangianModel::Compiled::ContactLawSetter LagrangianModel::Compiled::contact_law_setter() const {
  // Weak: a model keeps its setters, and a system it outlives must not be kept alive by them.
  std::weak_ptr<detail::CompiledLagrangian> weak = context;
  return [weak](int i, const ContactImpactLaw& law) {
    const std::shared_ptr<detail::CompiledLagrangian> ctx = weak.lock();
    if (!ctx) return false;
    LagrangianContact changed = ctx->model.contact(i);
    if (!changed.rigid()) {
      saltus::detail::throw_error(changed.description,
                                  ": is compliant; its impact law cannot be set");
    }
    // Planar or in space: the closed modes were built for one of them.
    const auto has_friction = [](const LagrangianContact& c) {
      return c.frictional() || c.spatial_frictional();
    };
    const bool frictional = has_friction(changed);
    changed.law = law;
    changed.law.validate(changed.description);
    changed.check_stribeck();  // mu_s may have moved below the curve's mu_k(0)
    if (has_friction(changed) != frictional) {
      saltus::detail::throw_error(
          changed.description, ": mu = ", law.mu, " would make the contact ",
          frictional ? "frictionless" : "frictional", ", but its system was compiled ",
          frictional ? "with" : "without",
          " friction (its closed modes depend on it); expected mu ", frictional ? "> 0" : "= 0",
          ", or the model loaded again with that value");
    }
    ctx->model.set_contact_law(i, law);
    return true;
  };
}

}  // namespace saltus::mech
