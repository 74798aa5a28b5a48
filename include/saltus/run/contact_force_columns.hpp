// The contact forces of a mechanical model's run as trajectory columns (trajectory.csv, the
// Python package's trajectory table, forces.png): lambda_N:<c> for every contact and
// lambda_T:<c> for a frictional one, at every trajectory sample, computed from the mode the
// sample is in by the run's own compiled model (mech::LagrangianModel::contact_forces; nothing is
// rebuilt): the closed contacts' forces (the contact-force system's for several), a compliant
// contact's push-out force while active, 0 for an open contact.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "saltus/core/types.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/model/model_run.hpp"

namespace saltus::run {

struct ContactForceColumns {
  std::vector<std::string> names;
  Matrix values;  // one row per trajectory sample, one column per name
};

// Empty (no names) for a model without contacts, a non-mechanical model or one with velocity
// constraints (whose constraint forces are not contact forces): a run without run.lagrangian.
ContactForceColumns contact_force_columns(const model::ModelRun& run);
// Every contact's forces at one state (x: the coordinates, then their velocities) in mode
// `mode` of the run's compiled model, in its contact order: the one computation behind the
// columns above and the [outputs] that read forces (output_columns.hpp). nullopt for a run
// without run.lagrangian, a mode that is not one of its modes (a sample inside a Moreau-Jean
// stretch, kNoMode) or a state where they cannot be computed (M(q) not SPD: the run says why).
std::optional<mech::ContactForces> contact_forces_at(const model::ModelRun& run, ModeId mode,
                                                     double t, ConstVectorRef x);
// contact_force_columns(run).names without the values.
std::vector<std::string> contact_force_names(const model::ModelRun& run);

}  // namespace saltus::run
