// [initial] project = tol of a mechanical model (docs/MODEL_FORMAT.md "Inconsistent initial
// states"), private to src/model: a published initial state a hair inside a contact, or with
// velocities that break a constraint by round-off, is moved onto the contacts and constraints
// when the model is loaded, by the projections the engine already uses (closed contacts:
// mech::LagrangianModel::project_onto_contacts; constraints: NonholonomicModel::project_velocity).
#pragma once

#include <vector>

#include "saltus/model/diagnostic.hpp"
#include "saltus/model/model.hpp"

namespace saltus::model {

// When model.initial_projection.tolerance > 0: the rigid contacts the initial state penetrates
// (and those it touches) are moved onto g_N = 0 keeping their normal rates; the velocity
// constraints it violates are met by the nearest velocity in the kinetic metric. The model's
// initial values become the projected ones and model.initial_projection says what moved. A
// violation larger than the tolerance, or a projection that does not converge, is a problem
// naming the model, the contact or constraint and the value.
std::vector<Diagnostic> project_initial_state(Model& model);

}  // namespace saltus::model
