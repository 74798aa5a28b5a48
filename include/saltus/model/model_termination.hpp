// A model's `terminate` and `terminate_after` (docs/MODEL_FORMAT.md, [[modes.M.guards]]) as the
// run's SimulationOptions::on_event: after an event of such a guard (its reset applied) the run
// ends with status terminal-event where the guard's condition holds at the state after the reset,
// or where this is the guard's N-th event (counted over the modes a mode with switches is split
// into). DifferentialEquations.jl's terminate! in an affect!, SciPy's terminal = N.
//
// Read by the runs of run_model and simulate_model_run (`saltus run`, `saltus sweep`, the Python
// package), not by the analyses that run the engine themselves (orbits, sensitivities,
// bifurcation diagrams), for which a run that stops is no periodic orbit or return map.
#pragma once

#include <memory>
#include <string>

#include "saltus/model/model.hpp"
#include "saltus/sim/simulation_options.hpp"

namespace saltus::model {

// Chains the check of `model`'s terminations for one run after options.on_event (one already
// there is called first and may stop the run itself). Returns the slot that receives the status
// message when a termination ends the run ("" until then); null, with options unchanged, when
// no guard of the model has one.
std::shared_ptr<std::string> add_terminations(const Model& model, SimulationOptions& options);

}  // namespace saltus::model
