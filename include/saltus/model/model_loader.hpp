// Reads a TOML model file into a Model, collecting every problem found (docs/MODEL_FORMAT.md).
//
// Overrides ("name=value", as given to `saltus run --set`) replace a parameter's value, a state's
// initial value ("x=2"), or a solver / output setting ("rtol=1e-8", "solver.integrator=radau5",
// "t_end=10"); they are applied before the expressions are compiled (parameters are folded,
// except those LoadOptions keeps at run time).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "saltus/model/diagnostic.hpp"
#include "saltus/model/model.hpp"

namespace saltus::model {

struct LoadOptions {
  // Parameters loaded as states with x' = 0 in every mode and no reset (Model::parameter_states),
  // so that the flow-map Jacobian's columns for them are the sensitivities d x(t) / d p
  // (`saltus sensitivity --parameters`). Explicit models only; a parameter or initial value
  // computed from one of them is refused (its derivative would be lost to constant folding).
  std::vector<std::string> parameters_as_states;
  // Parameters kept as inputs of the model's tapes instead of folded into constants
  // (Model::runtime_parameters), so set_runtime_parameter (runtime_parameters.hpp) changes one
  // with a write instead of a reload. A value computed from one when the model is loaded
  // (another parameter, an initial value, a contact's e or mu, t_end) is refused: it would not
  // follow a new value.
  std::vector<std::string> runtime_parameters;
};

// Parses `text` as the model file `file_name`. Throws ModelError with every problem found.
Model load_model_text(std::string_view text, const std::string& file_name,
                      const std::vector<std::string>& overrides = {},
                      const LoadOptions& options = {});
// Reads and parses `path`. Throws ModelError (an unreadable file is one diagnostic).
Model load_model_file(const std::filesystem::path& path,
                      const std::vector<std::string>& overrides = {},
                      const LoadOptions& options = {});

// Every problem in the model (empty when it loads): what `saltus check` reports.
std::vector<Diagnostic> check_model_text(std::string_view text, const std::string& file_name,
                                         const std::vector<std::string>& overrides = {});
std::vector<Diagnostic> check_model_file(const std::filesystem::path& path,
                                         const std::vector<std::string>& overrides = {});

}  // namespace saltus::model
