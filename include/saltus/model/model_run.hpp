// Running a model file: builds the model's hybrid system and simulates it (the outputs of a run
// are written by run/run_outputs.hpp).
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "saltus/bridge/bridged_run.hpp"
#include "saltus/core/hybrid_system.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/model/model.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::model {

struct ModelRun {
  std::shared_ptr<const Model> model;
  HybridSystem system;
  // A mechanical model without velocity constraints: its compiled LagrangianModel (the modes of
  // `system`), from which the outputs read the contact forces; null otherwise.
  std::shared_ptr<const mech::LagrangianModel::Compiled> lagrangian;
  SimulationResult result;
  // The Moreau-Jean stretches and lift-offs of a bridged run (bridge/bridged_run.hpp); empty
  // when the event-driven run needed none (or the model says painleve = "stop").
  bridge::BridgeLog bridge_log;
  // Every parameter's value when the run was made (a run-time parameter may change later).
  std::vector<double> parameter_values;

  // to_string(result.termination()) and the message that goes with it.
  std::string status() const;
  std::string message() const;

  // The run reached t_end, a terminal guard, or a Zeno point it was allowed to stop at. Any
  // other termination (non-finite value, Newton failure, step-size underflow, event cap, bad
  // input, a reset without post-event state, a model error) is a failed run.
  bool succeeded() const;

  // Some of the run was stepped at first order (Moreau-Jean stretches of the bridge) instead of
  // integrated event-driven at the run's tolerances: the report's status line, summary.json
  // `degraded` and `saltus run --strict` say so. stepped_time(): their total duration.
  bool degraded() const { return !bridge_log.stretches.empty(); }
  double stepped_time() const;
};

// Where a model's run starts: its initial mode, state and algebraic guess.
struct ModelStart {
  ModeId mode = kNoMode;
  Vector x0, z0;
  // A mechanical model's start mode with the current run-time values (MechanicalSystem::mode_at);
  // simulate_model_run starts there. Null: `mode`.
  std::function<ModeId(double t, const Vector& x)> mode_at;
  ModeId mode_now(double t) const { return mode_at ? mode_at(t, x0) : mode; }
};
// Builds the model's hybrid system into `run` (run.model, run.system) without running it.
// painleve_start: an initial state in a Painleve situation of a bridged model (painleve not
// "stop" everywhere) is built with start.mode = kNoMode, for simulate_model_run to start with a
// Moreau-Jean stretch (bridge/bridged_run.hpp); false: such a start throws the refusal, as it does
// for the callers that run the engine themselves (sensitivities, orbits, bifurcations).
ModelStart prepare_model_run(std::shared_ptr<const Model> model, ModelRun& run,
                             bool painleve_start = false);

// Simulates the system built in `run` (prepare_model_run) from `start` and the model's t_start to
// its t_end into run.result (replaced): a built model runs again, e.g. after a run-time parameter
// changed (runtime_parameters.hpp). `progress_t` as for run_model. A Lagrangian model (rigid
// contacts, no velocity constraints) runs bridged (bridge/bridged_run.hpp) unless every contact's
// painleve policy is "stop"; the stretches and lift-offs go to run.bridge_log. A bridged model
// whose initial state the mode choice refuses as a Painleve situation (mech::painleve_situation)
// starts with a stretch at t0.
void simulate_model_run(ModelRun& run, const ModelStart& start,
                        std::atomic<double>* progress_t = nullptr);

// The bridge's options for a model: its [mechanics] and per-contact painleve policies.
bridge::BridgeOptions bridge_options(const Model& model);
// ... and the lift-off choice's mode (BridgeOptions::open_mode) of a built Lagrangian model.
bridge::BridgeOptions bridge_options(const ModelRun& run);

// Whether the built model runs bridged (bridge/bridged_run.hpp): a Lagrangian model (rigid
// contacts, no velocity constraints) whose painleve policy is not "stop" for the model and every
// contact.
bool runs_bridged(const ModelRun& run, const ModelStart& start);

// Builds the hybrid system and simulates from the model's initial mode, state and time to t_end.
// `progress_t`, when given, receives the simulated time after every step (for a progress bar).
ModelRun run_model(std::shared_ptr<const Model> model, std::atomic<double>* progress_t = nullptr);

}  // namespace saltus::model
