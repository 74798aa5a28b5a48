// The outputs of a model's run (the library entry point behind `saltus run`, with model_run.hpp).
//
// write_run_outputs() replaces DIR by a folder holding trajectory.csv, events.csv and
// summary.json of a run, failed or not (a failed run's files cover the run up to its failure and
// summary.json says why it ended), so DIR never mixes the files of two runs (run/output_folder.hpp;
// docs/MODEL_FORMAT.md "Running").
#pragma once

#include <filesystem>
#include <string>

#include "saltus/model/model.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/sim/csv_writer.hpp"

namespace saltus::run {

// Short human-readable summary: status, message, events per guard, Zeno time, wall time.
std::string run_report(const model::ModelRun& run);

// summary.json: model, status, times, events per guard, Zeno data, units of every variable.
std::string summary_json(const model::ModelRun& run);

// The column names of trajectory.csv and events.csv: the states, then the algebraic states (the
// k-th column holds the k-th algebraic state of the active mode, named "a|b" when modes differ).
CsvColumns model_csv_columns(const model::Model& m);

// trajectory.csv with the model's output variables (all states and algebraic states when the
// model names none); events.csv with every state and [outputs] entry before and after each
// event (output_columns.hpp).
std::string model_trajectory_csv(const model::ModelRun& run);
std::string model_events_csv(const model::ModelRun& run);

// Replaces `dir` (created if needed) by a folder with the three files, for a failed run too.
// Throws saltus::Error when `dir` holds files saltus did not write or a file cannot be written;
// `dir` is then left as it was (replace_output_folder).
void write_run_outputs(const model::ModelRun& run, const std::filesystem::path& dir);

}  // namespace saltus::run
