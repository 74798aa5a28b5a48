#include "saltus/model/runtime_parameters.hpp"

#include <cmath>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/model/runtime_contact_laws.hpp"

namespace saltus::model {
namespace {

// Position of `name` among the model's Parameter leaves; -1 when it is not run-time.
int leaf_of(const Model& model, std::string_view name) {
  for (size_t k = 0; k < model.runtime_parameters.size(); ++k) {
    const int i = model.runtime_parameters[k];
    if (model.parameters[static_cast<size_t>(i)].name == name) return static_cast<int>(k);
  }
  return -1;
}

}  // namespace

int runtime_parameter_index(const Model& model, std::string_view name) {
  const int k = leaf_of(model, name);
  return k < 0 ? -1 : model.runtime_parameters[static_cast<size_t>(k)];
}

void set_runtime_parameter(const Model& model, std::string_view name, double value) {
  const int k = leaf_of(model, name);
  if (k < 0) {
    std::string known;
    for (int i : model.runtime_parameters) {
      known += (known.empty() ? "" : ", ") + model.parameters[static_cast<size_t>(i)].name;
    }
    saltus::detail::throw_error(model.file, ": '", name,
                                "' is not a run-time parameter of the model ",
                                "(run-time parameters: ", known.empty() ? "none" : known, ")");
  }
  if (!std::isfinite(value)) {
    saltus::detail::throw_error(model.file, ": run-time parameter '", name, "' = ", value,
                                " is not finite");
  }
  double& slot = (*model.graph->parameter_values())[static_cast<size_t>(k)];
  const double before = slot;
  slot = value;
  try {
    update_runtime_contact_laws(model);  // contacts whose e, mu or e_t read it
  } catch (const Error&) {
    slot = before;  // refused: the model and its systems keep the value they had
    update_runtime_contact_laws(model);
    throw;
  }
}

}  // namespace saltus::model
