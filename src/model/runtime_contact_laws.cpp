#include "saltus/model/runtime_contact_laws.hpp"

#include <memory>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/lang/tape.hpp"

namespace saltus::model {
namespace {

// The value of a coefficient expression (it reads run-time parameters only) now.
double value_now(const Model& model, lang::NodeId node) {
  const lang::Tape tape = lang::compile_tape(*model.graph, {{node, 0}});
  const double* none = nullptr;
  return lang::evaluate(tape, 0.0, none, none);
}

bool follows_parameters(const ModelContact& c) {
  return c.e_expression != lang::kNoNode || c.mu_expression != lang::kNoNode ||
         c.mu_s_expression != lang::kNoNode || c.e_t_expression != lang::kNoNode;
}

}  // namespace

mech::ContactImpactLaw current_rigid_law(const Model& model, int contact) {
  const ModelContact& c = model.mechanics->contacts[static_cast<size_t>(contact)];
  mech::ContactImpactLaw law = c.rigid_law;
  if (c.e_expression != lang::kNoNode) law.e = value_now(model, c.e_expression);
  if (c.mu_expression != lang::kNoNode) law.mu = value_now(model, c.mu_expression);
  if (c.mu_s_expression != lang::kNoNode) law.mu_s = value_now(model, c.mu_s_expression);
  if (c.e_t_expression != lang::kNoNode) law.e_t = value_now(model, c.e_t_expression);
  return law;
}

void follow_runtime_contact_laws(const Model& model,
                                 mech::LagrangianModel::Compiled::ContactLawSetter setter) {
  if (model.runtime_contact_laws) model.runtime_contact_laws->systems.push_back(std::move(setter));
}

void update_runtime_contact_laws(const Model& model) {
  if (!model.runtime_contact_laws) return;
  auto& systems = model.runtime_contact_laws->systems;
  const auto& contacts = model.mechanics->contacts;
  for (size_t i = 0; i < contacts.size(); ++i) {
    if (!follows_parameters(contacts[i])) continue;
    const mech::ContactImpactLaw law = current_rigid_law(model, static_cast<int>(i));
    try {
      // Checked here too, so that a bad value is refused before any system is built.
      law.validate("contact '" + contacts[i].name + "'");
      for (size_t k = 0; k < systems.size();) {
        if (systems[k](static_cast<int>(i), law)) {
          ++k;
        } else {
          systems.erase(systems.begin() + static_cast<std::ptrdiff_t>(k));  // the system is gone
        }
      }
    } catch (const Error& e) {
      // file:line of the refused coefficient's key (of the table when it has none).
      const ModelContact::Lines& at = contacts[i].lines;
      const std::string key = law.invalid_key() != nullptr ? law.invalid_key() : "";
      const int line = key == "e" && at.e > 0         ? at.e
                       : key == "e_t" && at.e_t > 0   ? at.e_t
                       : key == "mu" && at.mu > 0     ? at.mu
                       : key == "mu_s" && at.mu_s > 0 ? at.mu_s
                                                      : at.table;
      if (line > 0) saltus::detail::throw_error(model.file, ":", line, ": ", e.what());
      saltus::detail::throw_error(model.file, ": ", e.what());
    }
  }
}

}  // namespace saltus::model
