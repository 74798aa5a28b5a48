// Parameter sensitivities d x(t_end) / d p of mechanical ([coordinates], [mechanics]) and
// Hamiltonian ([hamiltonian]) model files: the library behind `saltus sensitivity --parameters`
// for models without [modes] (docs/ANALYSIS.md).
//
// Such a model's parameters reach its system through the mech layer (mass matrix, forces, contact
// geometry, an impact law's coefficients) or Hamilton's equations and reflection maps, where a
// parameter loaded as a state (LoadOptions::parameters_as_states) cannot go. The file is instead
// loaded at p0 and again with each parameter overridden to p0 +- h_k, and the run is
// differentiated on analysis::parameter_augmented_system: the run is the nominal model's (for a
// mechanical model the plain run, differentiated in two passes; a Hamiltonian one, all ODE modes,
// in one pass, whose events agree with the plain run's to the tolerance), its derivatives in the
// states are exact as in model_sensitivity, and those in p are central
// differences of the rebuilt systems (~4e-11 relative per flow, guard or reset evaluation),
// carried through the variational equations and saltation matrices like the others. The initial
// state may depend on p (an initial value computed from it): its column adds J dx0/dp.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "saltus/run/model_sensitivity.hpp"

namespace saltus::run {

// Loads the model with these overrides appended ("name=value") to the caller's own.
using ModelLoad = std::function<model::Model(const std::vector<std::string>& overrides)>;

// The run of load({}) with parameters `parameters` appended as states (Model::parameter_states;
// parameter_sensitivity() reads their columns). Throws ModelError naming the file and parameter
// when a name is not a parameter of the file, or a parameter changes what cannot be
// differentiated: t_start, t_end, the initial mode, the modes and guards of the system.
ModelSensitivity rebuilt_parameter_sensitivity(const ModelLoad& load,
                                               const std::vector<std::string>& parameters,
                                               const analysis::SaltationOptions& saltation = {});

// true when the file's text declares [modes] (an explicit model: its parameters can be states).
bool declares_modes(const std::string& model_text);

}  // namespace saltus::run
