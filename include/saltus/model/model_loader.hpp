// Reads a TOML model file into a Model, collecting every problem found (docs/MODEL_FORMAT.md).
//
// Overrides ("name=value", as given to `saltus run --set`) replace a parameter's value, a state's
// initial value ("x=2"), or a solver / output setting ("rtol=1e-8", "solver.integrator=radau5",
// "t_end=10"); they are applied before the expressions are compiled (parameters are folded).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "saltus/model/diagnostic.hpp"
#include "saltus/model/model.hpp"

namespace saltus::model {

// Parses `text` as the model file `file_name`. Throws ModelError with every problem found.
Model load_model_text(std::string_view text, const std::string& file_name,
                      const std::vector<std::string>& overrides = {});
// Reads and parses `path`. Throws ModelError (an unreadable file is one diagnostic).
Model load_model_file(const std::filesystem::path& path,
                      const std::vector<std::string>& overrides = {});

// Every problem in the model (empty when it loads): what `saltus check` reports.
std::vector<Diagnostic> check_model_text(std::string_view text, const std::string& file_name,
                                         const std::vector<std::string>& overrides = {});
std::vector<Diagnostic> check_model_file(const std::filesystem::path& path,
                                         const std::vector<std::string>& overrides = {});

}  // namespace saltus::model
