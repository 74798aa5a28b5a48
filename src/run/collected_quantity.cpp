// Quantities collected from runs by name (docs/SWEEPS.md); see collected_quantity.hpp.
#include "saltus/run/collected_quantity.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/run/output_columns.hpp"

namespace saltus::run {

namespace {

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
using Kind = CollectedQuantity::Kind;

CollectedQuantity quantity(Kind kind, Eigen::Index index = 0) {
  CollectedQuantity q;
  q.kind = kind;
  q.index = index;
  return q;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

std::vector<std::string> state_names(const model::Model& m) {
  std::vector<std::string> out;
  for (const model::Quantity& q : m.states) out.push_back(q.name);
  return out;
}

// The guard and section names of an explicit model (a mechanical model's are made at build).
std::vector<std::string> event_names(const model::Model& m) {
  std::vector<std::string> out;
  for (const model::ModelMode& mode : m.modes) {
    for (const model::ModelGuard& g : mode.guards) out.push_back(g.name);
  }
  for (const model::ModelSection& s : m.sections) out.push_back(s.name);
  return out;
}

void check_guard(const std::string& quantity, const std::string& guard, const model::Model& m) {
  if (m.mechanics) return;
  const std::vector<std::string> known = event_names(m);
  for (const std::string& n : known) {
    if (n == guard) return;
  }
  saltus::detail::throw_error("--collect: '", quantity, "' names no guard or section '", guard,
                              "' of ", m.file, " (guards and sections: ", joined(known), ")");
}

// event.<guard>.<k>.<field>: read from the right, so that a guard's name may hold dots.
CollectedQuantity parse_event(const std::string& name, const model::Model& m) {
  const std::string rest = name.substr(6);
  const size_t field_dot = rest.rfind('.');
  const size_t k_dot = field_dot == std::string::npos || field_dot == 0
                           ? std::string::npos
                           : rest.rfind('.', field_dot - 1);
  if (k_dot == std::string::npos || k_dot == 0) {
    saltus::detail::throw_error(
        "--collect: '", name,
        "' is not event.<guard>.<k>.<t, state or output> (e.g. event.impact.3.t)");
  }
  CollectedQuantity q;
  q.guard = rest.substr(0, k_dot);
  const std::string k = rest.substr(k_dot + 1, field_dot - k_dot - 1);
  const std::string field = rest.substr(field_dot + 1);
  if (k == "last") {
    q.k = -1;
  } else {
    size_t used = 0;
    long v = 0;
    try {
      v = std::stol(k, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != k.size() || v < 1) {
      saltus::detail::throw_error("--collect: '", name, "': the event number '", k,
                                  "' is not a whole number from 1, or 'last'");
    }
    q.k = v;
  }
  check_guard(name, q.guard, m);
  if (field == "t") {
    q.kind = Kind::EventTime;
    return q;
  }
  const int state = m.state_index(field);
  if (state >= 0) {
    q.kind = Kind::EventState;
    q.index = state;
    return q;
  }
  std::vector<std::string> outputs;
  for (size_t k = 0; k < m.outputs.size(); ++k) {
    if (m.outputs[k].name == field) {
      q.kind = Kind::EventOutput;
      q.index = static_cast<Eigen::Index>(k);
      return q;
    }
    outputs.push_back(m.outputs[k].name);
  }
  saltus::detail::throw_error(
      "--collect: '", name, "': '", field, "' is neither t nor a state or output of ", m.file,
      " (states: ", joined(state_names(m)), "; outputs: ", joined(outputs), ")");
}

// The indices in run.result.events of the events of guard `name` (any mode), in order.
std::vector<long> events_of(const std::string& name, const model::ModelRun& run) {
  std::vector<long> out;
  const EventLog& log = run.result.events;
  for (long i = 0; i < log.size(); ++i) {
    const EventRecord& e = log[i];
    if (e.guard < 0 || e.mode_before < 0 || e.mode_before >= run.system.mode_count()) continue;
    const Mode& mode = run.system.mode(e.mode_before);
    if (static_cast<size_t>(e.guard) < mode.guards.size() &&
        mode.guards[static_cast<size_t>(e.guard)].name == name) {
      out.push_back(i);
    }
  }
  return out;
}

}  // namespace

CollectedQuantity parse_collected_quantity(const std::string& name, const model::Model& m) {
  if (name == "zeno_time") return quantity(Kind::ZenoTime);
  if (name == "zeno_events") return quantity(Kind::ZenoEvents);
  if (name == "events.count") return quantity(Kind::EventCount);
  if (name == "t_final") return quantity(Kind::FinalTime);
  if (name.rfind("event.", 0) == 0) return parse_event(name, m);
  if (name.rfind("return_time.", 0) == 0) {
    CollectedQuantity q = quantity(Kind::ReturnTime);
    q.guard = name.substr(12);
    check_guard(name, q.guard, m);
    return q;
  }
  const std::string prefix = "final.";
  if (name.rfind(prefix, 0) == 0) {
    const std::string rest = name.substr(prefix.size());
    const int state = m.state_index(rest);
    if (state >= 0) return quantity(Kind::FinalState, state);
    std::vector<std::string> outputs;
    for (size_t k = 0; k < m.outputs.size(); ++k) {
      if (m.outputs[k].name == rest)
        return quantity(Kind::FinalOutput, static_cast<Eigen::Index>(k));
      outputs.push_back(m.outputs[k].name);
    }
    saltus::detail::throw_error("--collect: '", name, "' names no state or output of ", m.file,
                                " (states: ", joined(state_names(m)),
                                "; outputs: ", joined(outputs), ")");
  }
  saltus::detail::throw_error(
      "--collect: unknown quantity '", name,
      "' (known: zeno_time, zeno_events, events.count, t_final, final.<state>, final.<output>, "
      "event.<guard>.<k>.t, event.<guard>.<k>.<state or output>, return_time.<guard>)");
}

double collected_value(const CollectedQuantity& q, const model::ModelRun& run) {
  const SimulationSummary& s = run.result.summary;
  switch (q.kind) {
    case Kind::ZenoTime:
      return s.zeno_time;
    case Kind::ZenoEvents:
      return std::isnan(s.zeno_time) ? kMissing : static_cast<double>(s.events_before_zeno);
    case Kind::EventCount:
      return static_cast<double>(s.jumps);
    case Kind::FinalTime:
      return s.t_final;
    case Kind::FinalState:
      return q.index < run.result.x_final.size() ? run.result.x_final[q.index] : kMissing;
    case Kind::FinalOutput:
      // The output at the run's last state in its last mode (a contact force is that mode's;
      // x_final has the model's states once it ran).
      if (run.result.x_final.size() != static_cast<Eigen::Index>(run.model->states.size())) {
        return kMissing;
      }
      return output_values(run, s.final_mode, s.t_final, run.result.x_final)[q.index];
    case Kind::EventTime:
    case Kind::EventState:
    case Kind::EventOutput: {
      const std::vector<long> events = events_of(q.guard, run);
      const long n = static_cast<long>(events.size());
      if (n == 0 || q.k > n) return kMissing;
      const long i = events[static_cast<size_t>(q.k < 0 ? n - 1 : q.k - 1)];
      const EventRecord& e = run.result.events[i];
      if (q.kind == Kind::EventTime) return e.t;
      const auto x = run.result.events.x_after(i);
      if (q.kind == Kind::EventState) return q.index < x.size() ? x[q.index] : kMissing;
      // The output after the event, in the mode after it (events.csv's <output>_after).
      if (x.size() != static_cast<Eigen::Index>(run.model->states.size())) return kMissing;
      return output_values(run, e.mode_after, e.t, Vector(x))[q.index];
    }
    case Kind::ReturnTime: {
      const std::vector<long> events = events_of(q.guard, run);
      if (events.size() < 2) return kMissing;
      return run.result.events[events.back()].t - run.result.events[events[events.size() - 2]].t;
    }
  }
  return kMissing;
}

}  // namespace saltus::run
