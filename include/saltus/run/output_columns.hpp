// A model's named outputs ([outputs], docs/MODEL_FORMAT.md) as trajectory columns
// (trajectory.csv after the states and contact forces, the Python package's trajectory table,
// the plots): y_k(t, x) at every trajectory sample, from one tape of all of them.
#pragma once

#include <string>
#include <vector>

#include "saltus/core/types.hpp"
#include "saltus/model/model_run.hpp"

namespace saltus::run {

struct OutputColumns {
  std::vector<std::string> names;
  Matrix values;  // one row per trajectory sample, one column per name
};

// Empty (no names) for a model without [outputs].
OutputColumns output_columns(const model::ModelRun& run);

// The outputs at one state: entry k is Model::outputs[k] at (t, x) (a sweep's final.<output>).
Vector output_values(const model::Model& model, double t, const ConstVectorRef& x);

}  // namespace saltus::run
