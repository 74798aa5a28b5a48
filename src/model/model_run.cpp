#include "saltus/model/model_run.hpp"

#include <algorithm>

#include "saltus/core/error.hpp"
#include "saltus/mech/contact_alternatives.hpp"
#include "saltus/model/mechanical_system.hpp"
#include "saltus/model/model_system.hpp"
#include "saltus/model/model_termination.hpp"

namespace saltus::model {

std::string ModelRun::status() const {
  return to_string(result.termination());
}

std::string ModelRun::message() const {
  return result.summary.message;
}

double ModelRun::stepped_time() const {
  double out = 0.0;
  for (const bridge::BridgeStretch& s : bridge_log.stretches) out += s.t_end - s.t_start;
  return out;
}

bool ModelRun::succeeded() const {
  switch (result.termination()) {
    case Termination::EndTimeReached:
    case Termination::TerminalEvent:
    case Termination::Zeno:
      return true;
    default:
      return false;
  }
}

namespace {

// painleve = "stop" on the model and on every contact: nothing is bridged.
bool all_stop(const bridge::BridgeOptions& bridge) {
  return bridge.stop && std::none_of(bridge.contact_policy.begin(), bridge.contact_policy.end(),
                                     [](int p) { return p == 0; });
}

}  // namespace

ModelStart prepare_model_run(std::shared_ptr<const Model> model, ModelRun& run,
                             bool painleve_start) {
  run.model = model;
  ModelStart start;
  start.mode = model->initial_mode;
  if (model->mechanics) {
    MechanicalSystem m =
        build_mechanical_system(model, false, painleve_start && !all_stop(bridge_options(*model)));
    run.system = std::move(m.system);
    run.lagrangian = std::move(m.lagrangian);
    start.mode = m.initial_mode;
    start.mode_at = std::move(m.mode_at);
  } else {
    run.system = build_hybrid_system(model);
  }
  start.x0 = model->initial_state();
  // A mechanical model starts in its mode 0 ("free"), which has no algebraic state.
  start.z0.resize(0);
  if (!model->modes.empty()) {
    const ModelMode& m0 = model->modes[static_cast<size_t>(model->initial_mode)];
    start.z0.resize(static_cast<Eigen::Index>(m0.algebraic.size()));
    for (size_t i = 0; i < m0.algebraic.size(); ++i) {
      start.z0[static_cast<Eigen::Index>(i)] = m0.algebraic[i].value;
    }
  }
  return start;
}

bridge::BridgeOptions bridge_options(const Model& model) {
  bridge::BridgeOptions o;
  if (!model.mechanics) return o;
  o.stop = model.mechanics->painleve_stop;
  for (const ModelContact& c : model.mechanics->contacts) o.contact_policy.push_back(c.painleve);
  // The bridge's Moreau-Jean steps solve planar contact problems: a model with friction in space
  // stops at a Painleve situation instead (its status names it).
  const auto& contacts = model.mechanics->contacts;
  if (std::any_of(contacts.begin(), contacts.end(),
                  [](const ModelContact& c) { return c.slip[0] != lang::kNoNode; })) {
    o.stop = true;
    o.contact_policy.assign(contacts.size(), 1);
  }
  return o;
}

bridge::BridgeOptions bridge_options(const ModelRun& run) {
  bridge::BridgeOptions o = bridge_options(*run.model);
  if (run.lagrangian) {
    o.open_mode = [modes = run.lagrangian](double t, const Vector& x) {
      return modes->open_mode(t, x);
    };
  }
  return o;
}

bool runs_bridged(const ModelRun& run, const ModelStart& start) {
  if (!run.lagrangian || !start.mode_at || !run.model) return false;
  return !all_stop(bridge_options(*run.model));
}

void simulate_model_run(ModelRun& run, const ModelStart& start, std::atomic<double>* progress_t) {
  const Model& model = *run.model;
  SimulationOptions options = model.options;
  if (progress_t != nullptr) {
    options.on_progress = [progress_t](double t) {
      progress_t->store(t, std::memory_order_relaxed);
    };
  }
  run.result = SimulationResult{};
  run.parameter_values.clear();
  for (size_t i = 0; i < model.parameters.size(); ++i) {
    run.parameter_values.push_back(model.parameter_value(static_cast<int>(i)));
  }
  run.bridge_log = bridge::BridgeLog{};
  // Guards' terminate / terminate_after: the status message names the guard and the rule.
  const std::shared_ptr<std::string> terminated = add_terminations(model, options);
  const auto name_termination = [&run, &terminated] {
    if (terminated && !terminated->empty() &&
        run.result.termination() == Termination::TerminalEvent) {
      run.result.summary.message = *terminated;
    }
  };
  // Every outcome of the run is a Termination with its message (the engine throws only for
  // sizes and times the loader has already checked).
  if (runs_bridged(run, start)) {
    const mech::LagrangianModel& lm = run.lagrangian->model();
    ModeId mode0 = kNoMode;
    try {
      mode0 = start.mode_now(model.t_start);
    } catch (const Error&) {
      // A Painleve situation at t0 starts with a stretch (run_bridged); any other refusal stands.
      if (!mech::painleve_situation(lm, model.t_start, start.x0, bridge::kStopRestRate)) throw;
    }
    bridge::run_bridged(run.system, lm, start.mode_at, options, bridge_options(run), mode0,
                        model.t_start, start.x0, model.t_end, run.result, run.bridge_log);
    name_termination();
    return;
  }
  Simulator sim(run.system, options);
  sim.run(start.mode_now(model.t_start), model.t_start, start.x0, start.z0, model.t_end,
          run.result);
  name_termination();
}

ModelRun run_model(std::shared_ptr<const Model> model, std::atomic<double>* progress_t) {
  ModelRun run;
  const ModelStart start = prepare_model_run(std::move(model), run, true);
  simulate_model_run(run, start, progress_t);
  return run;
}

}  // namespace saltus::model
