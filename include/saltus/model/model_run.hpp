// Running a model file: the library entry point behind `saltus run` (and its tests).
//
// run_model() simulates a loaded Model; write_run_outputs() writes DIR/trajectory.csv,
// DIR/events.csv and DIR/summary.json, each atomically (sim/csv_writer.hpp), and only for a run
// that succeeded, so a failed run leaves no output file (docs/MODEL_FORMAT.md "Running").
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/model/model.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::model {

struct ModelRun {
  std::shared_ptr<const Model> model;
  HybridSystem system;
  SimulationResult result;

  // The run reached t_end, a terminal guard, or a Zeno point it was allowed to stop at. Any
  // other termination (non-finite value, Newton failure, step-size underflow, event cap, bad
  // input) is a failed run.
  bool succeeded() const;
};

// Builds the hybrid system and simulates from the model's initial mode, state and time to t_end.
// `progress_t`, when given, receives the simulated time after every step (for a progress bar).
ModelRun run_model(std::shared_ptr<const Model> model, std::atomic<double>* progress_t = nullptr);

// Short human-readable summary: status, message, events per guard, Zeno time, wall time.
std::string run_report(const ModelRun& run);

// summary.json: model, status, times, events per guard, Zeno data, units of every variable.
std::string summary_json(const ModelRun& run);

// trajectory.csv with the model's output variables (all states and algebraic states when the
// model names none); events.csv with every state before and after each event.
std::string model_trajectory_csv(const ModelRun& run);
std::string model_events_csv(const ModelRun& run);

// Creates `dir` if needed and writes the three files atomically. Throws saltus::Error when the
// run did not succeed (nothing is written) or a file cannot be written.
void write_run_outputs(const ModelRun& run, const std::filesystem::path& dir);

}  // namespace saltus::model
