// What the metamorphic tests (tests/validation/metamorphic_test.cpp, unit_rescaling_test.cpp)
// compare: a model file's run, its events by name, and whether its physics reads t.
#pragma once

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "saltus/lang/expression_graph.hpp"
#include "saltus/lang/operations.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/sim/csv_writer.hpp"

namespace saltus::testing {

using model::Model;
using model::ModelRun;

inline ModelRun run_file(const std::filesystem::path& file, const std::vector<std::string>& set) {
  return model::run_model(std::make_shared<const Model>(model::load_model_file(file, set)));
}
inline ModelRun run_text(const std::string& text, const std::vector<std::string>& set) {
  return model::run_model(
      std::make_shared<const Model>(model::load_model_text(text, "variant.toml", set)));
}

// Whether any expression of the model reads t (a node that has the time leaf as an operand).
inline bool reads_time(const Model& m) {
  const lang::ExpressionGraph& g = *m.graph;
  for (int id = 0; id < g.size(); ++id) {
    const lang::ExpressionNode& n = g.node(id);
    for (const lang::NodeId operand : {n.a, n.b, n.c}) {
      if (operand != lang::kNoNode && g.node(operand).op == lang::OpCode::Time) return true;
    }
  }
  return !m.sections.empty() &&
         std::any_of(m.sections.begin(), m.sections.end(),
                     [](const model::ModelSection& s) { return s.period > 0.0; });
}

// The states a translation may move without changing the physics: no expression that the
// dynamics evaluate (flows, constraints, guards and their conditions, resets, Zeno hand-overs,
// sections; a mechanical model's mass matrix, forces, gaps, contact coefficients, the gradients
// of its tangents (a tangent's value is never used: s_T = x + ... reads x, its gradient does not)
// and velocity constraints) reads them. A mechanical model's velocities are read by its
// kinematics q' = v, so only its coordinates are candidates. Energies (their derivatives are the
// mass matrix and forces), outputs and the drawing move nothing and do not count.
inline std::vector<int> unread_states(const Model& m) {
  lang::ExpressionGraph g = *m.graph;  // a copy: the tangents' gradients are added to it
  std::vector<lang::NodeId> roots;
  const auto add = [&](lang::NodeId id) {
    if (id != lang::kNoNode) roots.push_back(id);
  };
  for (const model::ModelMode& mode : m.modes) {
    for (const lang::NodeId id : mode.flow) add(id);
    for (const lang::NodeId id : mode.constraints) add(id);
    for (const model::ModelGuard& guard : mode.guards) {
      add(guard.value);
      add(guard.when);
      for (const model::ModelTarget& target : guard.targets) {
        add(target.when);
        for (const model::Assignment& a : target.reset) add(a.value);
      }
    }
    if (mode.zeno) {
      for (const model::Assignment& a : mode.zeno->reset) add(a.value);
    }
  }
  for (const model::ModelSection& s : m.sections) add(s.value);
  for (const model::ModelTermination& term : m.terminations) add(term.when);  // where a run ends
  int candidates = static_cast<int>(m.states.size());
  if (m.mechanics) {
    const model::ModelMechanics& mech = *m.mechanics;
    candidates = mech.dof;
    for (const auto& row : mech.mass) roots.insert(roots.end(), row.begin(), row.end());
    for (const lang::NodeId id : mech.forces) add(id);
    for (const lang::NodeId id : mech.applied_forces) add(id);
    for (const auto& row : mech.constraint_rows) roots.insert(roots.end(), row.begin(), row.end());
    for (const model::ModelContact& c : mech.contacts) {
      for (const lang::NodeId id : {c.gap, c.e_expression, c.mu_expression, c.e_t_expression}) {
        add(id);
      }
      if (c.tangent == lang::kNoNode) continue;
      for (int j = 0; j < mech.dof; ++j) add(g.derivative(c.tangent, {lang::OpCode::State, j}));
    }
  }
  std::vector<bool> seen(static_cast<size_t>(g.size()), false), read(m.states.size(), false);
  while (!roots.empty()) {
    const lang::NodeId id = roots.back();
    roots.pop_back();
    if (id == lang::kNoNode || seen[static_cast<size_t>(id)]) continue;
    seen[static_cast<size_t>(id)] = true;
    const lang::ExpressionNode& n = g.node(id);
    if (n.op == lang::OpCode::State) read[static_cast<size_t>(n.index)] = true;
    for (const lang::NodeId operand : {n.a, n.b, n.c}) add(operand);
  }
  std::vector<int> out;
  for (int k = 0; k < candidates; ++k) {
    if (!read[static_cast<size_t>(k)]) out.push_back(k);
  }
  return out;
}

// An event as the suite compares it: the guard's name and the modes' names, with the contacts
// of an index-set mode in sorted order ("stick:right&stick:left" = "stick:left&stick:right").
struct NamedEvent {
  double t;
  std::string guard, mode_after;
};
inline std::string sorted_parts(const std::string& name) {
  std::vector<std::string> parts;
  size_t from = 0;
  while (true) {
    const size_t at = name.find('&', from);
    parts.push_back(name.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) break;
    from = at + 1;
  }
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "&") + p;
  return out;
}
inline std::vector<NamedEvent> named_events(const ModelRun& r) {
  std::vector<NamedEvent> out;
  const EventLog& log = r.result.events;
  for (long i = 0; i < log.size(); ++i) {
    const EventRecord& e = log[i];
    // The engine's and the bridge's records by name (zeno-handover, bridge-start, ...).
    out.push_back({e.t, event_guard_name(r.system, e),
                   sorted_parts(mode_name(r.system, r.result, e.mode_after))});
  }
  return out;
}

// How run b (the same model written otherwise) compares with run a: the first difference in the
// event sequence ("" when the same), whether b's times and states taken back to a's writing
// (`time_back`, `state_back(k, x_k)`) are a's bits, and the largest relative differences. State
// `skip` (a translated coordinate, whose error scale differs between the runs) is not compared.
struct RunComparison {
  std::string first_difference;
  bool bit_identical = true;
  double worst_time = 0.0, worst_state = 0.0;
};
template <class TimeBack, class StateBack>
inline RunComparison compare_runs(const ModelRun& a, const ModelRun& b, TimeBack time_back,
                                  StateBack state_back, bool compare_zeno_states,
                                  Eigen::Index skip = -1) {
  RunComparison c;
  const std::vector<NamedEvent> ea = named_events(a), eb = named_events(b);
  if (a.result.termination() != b.result.termination()) {
    c.first_difference = "ends " + b.message() + " instead of " + a.message();
  }
  if (ea.size() != eb.size()) {
    c.first_difference =
        std::to_string(eb.size()) + " events instead of " + std::to_string(ea.size());
  }
  for (size_t i = 0; i < std::min(ea.size(), eb.size()); ++i) {
    if (ea[i].guard != eb[i].guard || ea[i].mode_after != eb[i].mode_after) {
      c.first_difference = "event " + std::to_string(i) + ": " + eb[i].guard + " -> " +
                           eb[i].mode_after + " instead of " + ea[i].guard + " -> " +
                           ea[i].mode_after;
      break;
    }
    const double tb = time_back(eb[i].t);
    c.bit_identical = c.bit_identical && tb == ea[i].t;
    c.worst_time =
        std::max(c.worst_time, std::abs(tb - ea[i].t) / std::max(std::abs(ea[i].t), 1e-300));
    // A run stopped at a spasmodic Zeno point (status zeno: rates without bound, 1e9 m/s at the
    // superelastic interval's last walls) has events where a time's round-off moves the state
    // by any amount: their times are compared; their states only bit for bit, in powers of two.
    if (a.result.termination() == Termination::Zeno && !compare_zeno_states) continue;
    const Vector xa = a.result.events.x_after(static_cast<long>(i)),
                 xb = b.result.events.x_after(static_cast<long>(i));
    // States in units of the error test's scale of each, atol_k + rtol max |x_k| (its largest
    // value over the samples and events): a state that stays at round-off (an angle of a box
    // sliding flat) is compared with its atol.
    for (Eigen::Index k = 0; k < std::min(xa.size(), xb.size()); ++k) {
      if (k == skip) continue;
      const double xbk = state_back(k, xb[k]);
      c.bit_identical = c.bit_identical && xbk == xa[k];
      double scale = 0.0;
      const Trajectory& tr = a.result.trajectory;
      for (long j = 0; j < tr.size(); ++j) {
        if (tr.x(j).size() > k) scale = std::max(scale, std::abs(tr.x(j)[k]));
      }
      for (size_t j = 0; j < ea.size(); ++j) {  // a speed that grows between samples (Zeno)
        const Vector after = a.result.events.x_after(static_cast<long>(j));
        if (after.size() > k) scale = std::max(scale, std::abs(after[k]));
      }
      const ode::StepperOptions& o = a.model->options.stepper;
      const double atol = o.atol_per_component.size() > k ? o.atol_per_component[k] : o.atol;
      c.worst_state = std::max(c.worst_state, std::abs(xbk - xa[k]) / (atol + o.rtol * scale));
    }
  }
  return c;
}

}  // namespace saltus::testing
