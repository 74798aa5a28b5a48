// What `saltus run` evaluates at the start of a run, checked without running it (`saltus check`):
// a model that would fail at t0 is reported by check, naming the file and the cause.
#pragma once

#include <memory>
#include <vector>

#include "saltus/model/diagnostic.hpp"
#include "saltus/model/model.hpp"

namespace saltus::model {

// Finite start and end times, parameters and initial values (a parameter written 1/0 loads as
// inf). Used by load and check alike.
std::vector<Diagnostic> check_model_values(const Model& model);

// Runs the model over a vanishing interval after t0: builds the system (and a mechanical model's
// mass matrix at q0), makes the algebraic states consistent and evaluates the initial mode's
// flow and guards at the initial state, exactly as `saltus run` does. One diagnostic naming the
// status and the engine's message when that start fails.
std::vector<Diagnostic> check_model_start(const Model& model);

}  // namespace saltus::model
