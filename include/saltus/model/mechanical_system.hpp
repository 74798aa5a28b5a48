// A mechanical model file ([coordinates], [mechanics], [[contacts]]) as a HybridSystem: its
// symbolic M(q), h(t, q, q'), gaps and tangents become tapes (tape.hpp) behind the generic
// callables of a mech::LagrangianModel, which compile() turns into free flight, impacts with
// each contact's law, closed and compliant contacts (lagrangian_model.hpp).
#pragma once

#include <functional>
#include <memory>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/mech/nonholonomic_model.hpp"
#include "saltus/model/model.hpp"

namespace saltus::model {

// The LagrangianModel of `model` (which must have mechanics). With check_start, throws
// saltus::Error (naming the model, body and contact) when the initial configuration penetrates a
// contact or M(q0) is not symmetric positive definite.
mech::LagrangianModel lagrangian_model(std::shared_ptr<const Model> model, bool check_start = true);

// The gap within which rigid contact i of `lm` counts as touching at q0 rather than penetrated:
// guard_tolerance times the gap's scale sum_j |dg/dq_j| |q0_j| (the run's scales start at q0).
double initial_gap_band(const mech::LagrangianModel& lm, int i, const Vector& q0,
                        double guard_tolerance);

// The NonholonomicModel of a model with [mechanics] constraints (its contacts become walls);
// throws saltus::Error when the model has none.
mech::NonholonomicModel nonholonomic_model(std::shared_ptr<const Model> model);

// The compiled system and the mode the model's initial state starts in ("free", or a closed or
// compliant contact mode when the initial state rests on a contact).
struct MechanicalSystem {
  HybridSystem system;
  ModeId initial_mode = 0;
  // The compiled LagrangianModel behind `system` (its mode table and forces; its own `system`
  // moved into the one above); null for a model with velocity constraints.
  std::shared_ptr<const mech::LagrangianModel::Compiled> lagrangian;
  // The mode a state starts in with the contact laws' current coefficients (they may follow
  // run-time parameters: a tip sticks or slips at t0 by the cone of its current mu); null for a
  // model with velocity constraints.
  std::function<ModeId(double t, const Vector& x)> mode_at;
};
// project_invariants: for a model with constraints, keep its kinetic energy and constraints by
// projection (NonholonomicModel::CompileOptions; long billiard runs); ignored otherwise.
// painleve_start: an initial state the mode choice refuses as a Painleve situation
// (mech::painleve_situation) gets initial_mode = kNoMode instead of the refusal (a bridged run
// starts there with a Moreau-Jean stretch, model_run.hpp).
MechanicalSystem build_mechanical_system(std::shared_ptr<const Model> model,
                                         bool project_invariants = false,
                                         bool painleve_start = false);

}  // namespace saltus::model
