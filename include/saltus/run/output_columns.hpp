// A model's named outputs ([outputs], docs/MODEL_FORMAT.md) as trajectory columns
// (trajectory.csv after the states and contact forces, the Python package's trajectory table,
// the plots) and as event columns (events.csv, the package's event table): y_k(t, x) from one
// tape of all of them. An output that reads a contact force (model/contact_quantities.hpp) has
// the force of the mode the state is in, from run/contact_force_columns.hpp's contact_forces_at;
// NaN where there is none (a sample inside a Moreau-Jean stretch).
#pragma once

#include <string>
#include <vector>

#include "saltus/core/types.hpp"
#include "saltus/model/model_run.hpp"

namespace saltus::run {

struct OutputColumns {
  std::vector<std::string> names;
  Matrix values;  // one row per trajectory sample (per event), one column per name
};

// Empty (no names) for a model without [outputs].
OutputColumns output_columns(const model::ModelRun& run);

// Per event of run.result.events, every output before and after it: <name>_before at the
// event's located state (its left limit) in the mode before, <name>_after at the state after
// the reset in the mode after; the names in pairs, in [outputs] order. Empty without [outputs].
OutputColumns event_output_columns(const model::ModelRun& run);

// The outputs at one state in mode `mode` of run.system: entry k is Model::outputs[k] at (t, x)
// (a sweep's final.<output>).
Vector output_values(const model::ModelRun& run, ModeId mode, double t, const ConstVectorRef& x);

}  // namespace saltus::run
