// A loaded Model as a HybridSystem: each mode's compiled expressions become the flow, guard and
// reset callables of the engine. Flows and guards are generic in their scalar, so the engine's
// forward-mode AD (core/autodiff.hpp) derives Jacobians and guard gradients from the same
// compiled programs; nothing is differenced.
#pragma once

#include <memory>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/model/model.hpp"

namespace saltus::model {

// The callables share ownership of `model`. Mode ids equal the model's mode indices.
HybridSystem build_hybrid_system(std::shared_ptr<const Model> model);

// [[sections]]: each section as an observer of every mode of `system` (after its own guards, so
// guard ids are unchanged). Called by the builders of model-file and mechanical systems.
void add_sections(HybridSystem& system, const Model& model);

// The jumps of the flows the model integrates as written (ModelMode::discontinuities, a mechanical
// model's in every mode), watched for chattering. Called by the same builders.
void add_discontinuities(HybridSystem& system, const Model& model);

}  // namespace saltus::model
