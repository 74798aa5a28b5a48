// What `saltus orbit` and `saltus bifurcation` share: loading a model into a system and its start,
// and reading NAME=A:B[:N] ranges.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "saltus/model/model_run.hpp"

namespace saltus::cli {

struct LoadedModel {
  model::ModelRun run;  // run.model, run.system (nothing simulated)
  model::ModelStart start;
};

// False after printing every problem of the file (exit status 1). `runtime`: parameters kept at
// run time (model/runtime_parameters.hpp); `as_states`: parameters loaded as states of rate 0
// (LoadOptions::parameters_as_states; models with [modes] only).
bool load_for_analysis(const std::string& path, const std::vector<std::string>& set,
                       LoadedModel& out, const std::vector<std::string>& runtime = {},
                       const std::vector<std::string>& as_states = {});

// True when `name` is one of the file's [parameters].
bool is_parameter(const model::Model& m, const std::string& name);

struct Range {
  std::string name;
  double a = 0.0, b = 0.0;
  long n = 0;  // with_count only
};

// "NAME=A:B" (with_count: "NAME=A:B:N", N >= 1); throws saltus::Error naming what is wrong.
Range parse_range(const std::string& text, bool with_count);

}  // namespace saltus::cli
