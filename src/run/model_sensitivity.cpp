#include "saltus/run/model_sensitivity.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "saltus/run/output_folder.hpp"
#include "saltus/run/run_outputs.hpp"

namespace saltus::run {
namespace {

std::string mode_name(const model::ModelRun& run, ModeId m) {
  return m >= 0 && m < run.system.mode_count() ? run.system.mode(m).name : "";
}

}  // namespace

nlohmann::ordered_json matrix_rows_json(const Matrix& m) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array();
    for (Eigen::Index k = 0; k < m.cols(); ++k) row.push_back(m(i, k));
    out.push_back(row);
  }
  return out;
}

ModelSensitivity model_sensitivity(std::shared_ptr<const model::Model> model,
                                   const analysis::SaltationOptions& saltation) {
  ModelSensitivity out;
  const model::ModelStart start = model::prepare_model_run(model, out.run);
  out.sensitivity =
      analysis::flow_map_sensitivity(out.run.system, start.mode, model->t_start, start.x0,
                                     model->t_end, model->options, start.z0, saltation);
  out.run.result = std::move(out.sensitivity.run);
  return out;
}

Matrix parameter_sensitivity(const ModelSensitivity& s) {
  const std::vector<int>& p = s.run.model->parameter_states;
  const Matrix& J = s.sensitivity.flow_map_jacobian;
  std::vector<int> own;
  for (int i = 0; i < static_cast<int>(J.rows()); ++i) {
    if (std::find(p.begin(), p.end(), i) == p.end()) own.push_back(i);
  }
  Matrix out(static_cast<Eigen::Index>(own.size()), static_cast<Eigen::Index>(p.size()));
  for (size_t r = 0; r < own.size(); ++r) {
    for (size_t c = 0; c < p.size(); ++c) out(r, c) = J(own[r], p[c]);
  }
  return out;
}

std::string sensitivity_json(const ModelSensitivity& s) {
  const analysis::FlowMapSensitivity& f = s.sensitivity;
  const model::ModelRun& run = s.run;
  nlohmann::ordered_json j;
  j["model"] = run.model->name;
  j["status"] = analysis::to_string(f.status);
  j["message"] = f.message;
  j["run_status"] = run.status();
  j["t_start"] = run.result.summary.t_start;
  j["t_end"] = run.result.summary.t_final;
  nlohmann::ordered_json states = nlohmann::ordered_json::array();
  for (const model::Quantity& q : run.model->states) states.push_back(q.name);
  j["states"] = states;
  if (f.ok()) {
    j["flow_map_jacobian"] = matrix_rows_json(f.flow_map_jacobian);
    j["volume_factor"] = f.volume_factor;
    j["impact_volume_factor"] = f.impact_volume_factor;
    j["arc_state_mismatch"] = f.arc_state_mismatch;
    if (!run.model->parameter_states.empty()) {
      nlohmann::ordered_json names = nlohmann::ordered_json::array();
      for (int i : run.model->parameter_states) {
        names.push_back(run.model->states[static_cast<size_t>(i)].name);
      }
      j["parameters"] = names;
      j["parameter_sensitivity"] = matrix_rows_json(parameter_sensitivity(s));
      j["parameter_derivatives"] = s.differenced_parameters
                                       ? "central differences of the model reloaded at p +- h"
                                       : "symbolic";
    }
  } else {
    j["flow_map_jacobian"] = nullptr;
  }
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (const analysis::EventSensitivity& e : f.events) {
    nlohmann::ordered_json ev;
    ev["event"] = e.event;
    // Resets composed with this one at its instant (carried across by it): the matrix spans them.
    if (e.last_event != e.event) ev["through_event"] = e.last_event;
    ev["t"] = e.t;
    ev["mode_before"] = mode_name(run, e.mode_before);
    ev["mode_after"] = mode_name(run, e.mode_after);
    ev["guard"] = e.guard >= 0
                      ? run.system.mode(e.mode_before).guards[static_cast<size_t>(e.guard)].name
                      : "zeno-handover";
    ev["saltation"] = matrix_rows_json(e.saltation);
    ev["hybrid_jacobian"] = e.hybrid_jacobian;  // null across a change of dimension
    ev["numerical_derivatives"] = e.numerical_reset_jacobian;
    events.push_back(ev);
  }
  j["events"] = events;
  return j.dump(2) + "\n";
}

void write_sensitivity_outputs(const ModelSensitivity& s, const std::filesystem::path& dir) {
  replace_output_folder(dir, {{"trajectory.csv", model_trajectory_csv(s.run)},
                              {"events.csv", model_events_csv(s.run)},
                              {"summary.json", summary_json(s.run)},
                              {"sensitivity.json", sensitivity_json(s)}});
}

}  // namespace saltus::run
