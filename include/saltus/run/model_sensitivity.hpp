// The sensitivity of a model file's run: the library entry point behind `saltus sensitivity`.
//
// Runs the model as `saltus run` does and differentiates the run (analysis::flow_map_sensitivity:
// the Jacobian of the hybrid flow map x(t_start) -> x(t_end) as the product of the arcs'
// state-transition matrices and the events' saltation matrices, all derivatives symbolic or AD).
// write_sensitivity_outputs() writes the run's usual files and sensitivity.json (docs/ANALYSIS.md).
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "saltus/analysis/hybrid_sensitivity.hpp"
#include "saltus/model/model_run.hpp"

namespace saltus::run {

struct ModelSensitivity {
  model::ModelRun run;                       // the run (run.result: its trajectory and event log)
  analysis::FlowMapSensitivity sensitivity;  // its `run` member is moved into `run.result`
  // The parameter columns are central differences of the model reloaded at p +- h
  // (rebuilt_parameter_sensitivity.hpp), not symbolic: sensitivity.json says which.
  bool differenced_parameters = false;
};

ModelSensitivity model_sensitivity(std::shared_ptr<const model::Model> model,
                                   const analysis::SaltationOptions& saltation = {});

// sensitivity.json: status, message, the flow-map Jacobian (rows: x(t_end), columns: x(t_start)),
// its determinant (volume factor), with parameters loaded as states their names and
// parameter_sensitivity, and per event its index in events.csv, time, modes, guard,
// saltation matrix and hybrid Jacobian det S. A failed differentiation has no matrices (never a
// NaN matrix): status and message say which event and why.
std::string sensitivity_json(const ModelSensitivity& s);

// d x(t_end) / d p for the parameters loaded as states (Model::parameter_states): rows the other
// states in order, columns the parameters; the flow-map Jacobian's columns for them.
Matrix parameter_sensitivity(const ModelSensitivity& s);

// A matrix as a JSON array of its rows (sensitivity.json, orbit.json).
nlohmann::ordered_json matrix_rows_json(const Matrix& m);

// Replaces `dir` by trajectory.csv, events.csv, summary.json and sensitivity.json.
void write_sensitivity_outputs(const ModelSensitivity& s, const std::filesystem::path& dir);

}  // namespace saltus::run
