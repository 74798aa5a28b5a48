#include "saltus/model/runtime_parameters.hpp"

#include <cmath>
#include <string>

#include "saltus/core/error.hpp"

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
    detail::throw_error(model.file, ": '", name, "' is not a run-time parameter of the model ",
                        "(run-time parameters: ", known.empty() ? "none" : known, ")");
  }
  if (!std::isfinite(value)) {
    detail::throw_error(model.file, ": run-time parameter '", name, "' = ", value,
                        " is not finite");
  }
  (*model.graph->parameter_values())[static_cast<size_t>(k)] = value;
}

}  // namespace saltus::model
