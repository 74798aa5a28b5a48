// Running a model file: the library entry point behind `saltus run` (and its tests).
//
// run_model() simulates a loaded Model; write_run_outputs() replaces DIR by a folder holding
// trajectory.csv, events.csv and summary.json of that run, failed or not (a failed run's files
// cover the run up to its failure and summary.json says why it ended), so DIR never mixes the
// files of two runs (model/output_folder.hpp; docs/MODEL_FORMAT.md "Running").
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/model/model.hpp"
#include "saltus/sim/csv_writer.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::model {

struct ModelRun {
  std::shared_ptr<const Model> model;
  HybridSystem system;
  SimulationResult result;
  // Every parameter's value when the run was made (a run-time parameter may change later).
  std::vector<double> parameter_values;

  // to_string(result.termination()) and the message that goes with it.
  std::string status() const;
  std::string message() const;

  // The run reached t_end, a terminal guard, or a Zeno point it was allowed to stop at. Any
  // other termination (non-finite value, Newton failure, step-size underflow, event cap, bad
  // input, a reset without post-event state, a model error) is a failed run.
  bool succeeded() const;
};

// Where a model's run starts: its initial mode, state and algebraic guess.
struct ModelStart {
  ModeId mode = kNoMode;
  Vector x0, z0;
};
// Builds the model's hybrid system into `run` (run.model, run.system) without running it.
ModelStart prepare_model_run(std::shared_ptr<const Model> model, ModelRun& run);

// Simulates the system built in `run` (prepare_model_run) from `start` and the model's t_start to
// its t_end into run.result (replaced): a built model runs again, e.g. after a run-time parameter
// changed (runtime_parameters.hpp). `progress_t` as for run_model.
void simulate_model_run(ModelRun& run, const ModelStart& start,
                        std::atomic<double>* progress_t = nullptr);

// Builds the hybrid system and simulates from the model's initial mode, state and time to t_end.
// `progress_t`, when given, receives the simulated time after every step (for a progress bar).
ModelRun run_model(std::shared_ptr<const Model> model, std::atomic<double>* progress_t = nullptr);

// Short human-readable summary: status, message, events per guard, Zeno time, wall time.
std::string run_report(const ModelRun& run);

// summary.json: model, status, times, events per guard, Zeno data, units of every variable.
std::string summary_json(const ModelRun& run);

// The column names of trajectory.csv and events.csv: the states, then the algebraic states (the
// k-th column holds the k-th algebraic state of the active mode, named "a|b" when modes differ).
CsvColumns model_csv_columns(const Model& m);

// trajectory.csv with the model's output variables (all states and algebraic states when the
// model names none); events.csv with every state before and after each event.
std::string model_trajectory_csv(const ModelRun& run);
std::string model_events_csv(const ModelRun& run);

// Replaces `dir` (created if needed) by a folder with the three files, for a failed run too.
// Throws saltus::Error when `dir` holds files saltus did not write or a file cannot be written;
// `dir` is then left as it was (replace_output_folder).
void write_run_outputs(const ModelRun& run, const std::filesystem::path& dir);

}  // namespace saltus::model
