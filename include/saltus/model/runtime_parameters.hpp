// Run-time parameters of a loaded Model (LoadOptions::runtime_parameters): instead of being
// folded into constants when the file is loaded, they stay inputs of the model's tapes, which
// read their values from one vector shared with the model's graph. Setting one is a write into
// that vector: every flow, guard, reset and Jacobian built from the model computes with the new
// value from its next call, with no reload and no recompilation (`saltus sweep` and the Python
// package's sweeps use this; docs/SWEEPS.md).
//
// The values belong to the model's graph, so set them between runs, never during one, and give
// each thread its own loaded model (as run_sweep does).
#pragma once

#include <string_view>

#include "saltus/model/model.hpp"

namespace saltus::model {

// Sets run-time parameter `name` of `model` to `value`, and the contact laws whose e, mu or e_t
// read it in every system built from the model (runtime_contact_laws.hpp). Throws
// saltus::Error naming the model's run-time parameters when `name` is not one of them, for a
// value that is not finite, and for one that makes a contact's law invalid (the value is then
// not set).
void set_runtime_parameter(const Model& model, std::string_view name, double value);

// The index in model.parameters of run-time parameter `name`; -1 when `name` is not one.
int runtime_parameter_index(const Model& model, std::string_view name);

}  // namespace saltus::model
