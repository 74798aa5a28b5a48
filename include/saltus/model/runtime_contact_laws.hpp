// Contact coefficients that follow run-time parameters: a rigid contact's e, mu or e_t written
// as an expression of [parameters] kept at run time (LoadOptions::runtime_parameters), e.g.
// `e = "e"` with `saltus bifurcation --vary e=...`. The mech layer holds a law's coefficients
// as numbers, so each compiled system built from the model registers a setter of its laws
// (build_mechanical_system), and set_runtime_parameter evaluates the coefficients at the new
// values and sets them in every such system: its next run is the run of the model loaded with
// that value (tests/model/runtime_contact_laws_test.cpp).
//
// Not followed (refused when the model is loaded, naming the contact): compliant laws' k, c, n
// and mu, and the walls of models with velocity constraints.
#pragma once

#include <vector>

#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/model/model.hpp"

namespace saltus::model {

struct RuntimeContactLaws {
  std::vector<mech::LagrangianModel::Compiled::ContactLawSetter> systems;
};

// Rigid contact i's law with its coefficients at the run-time parameters' current values.
mech::ContactImpactLaw current_rigid_law(const Model& model, int contact);

// Makes the compiled system of `setter` follow the model's run-time contact coefficients; does
// nothing for a model without them.
void follow_runtime_contact_laws(const Model& model,
                                 mech::LagrangianModel::Compiled::ContactLawSetter setter);

// Sets every registered system's laws from the current values (set_runtime_parameter calls it).
// Throws saltus::Error naming the file and the contact for a law that is invalid there or that
// a system cannot take (a frictional contact made frictionless).
void update_runtime_contact_laws(const Model& model);

}  // namespace saltus::model
