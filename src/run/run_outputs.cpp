// GCC 12 reports a false -Wrestrict inside std::string's operator+ at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "saltus/run/run_outputs.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "saltus/model/mechanical_system.hpp"
#include "saltus/model/model_system.hpp"
#include "saltus/run/body_frames.hpp"
#include "saltus/run/contact_force_columns.hpp"
#include "saltus/run/drawing_table.hpp"
#include "saltus/run/output_columns.hpp"
#include "saltus/run/output_folder.hpp"
#include "saltus/sim/csv_writer.hpp"

namespace saltus::run {

CsvColumns model_csv_columns(const model::Model& m) {
  CsvColumns c;
  for (const model::Quantity& q : m.states) c.x_names.push_back(q.name);
  // Column k of z holds the k-th algebraic state of whichever mode is active; name it after the
  // modes' names joined by '|' when they differ.
  size_t nz = 0;
  for (const model::ModelMode& mode : m.modes) nz = std::max(nz, mode.algebraic.size());
  for (size_t k = 0; k < nz; ++k) {
    std::string name;
    for (const model::ModelMode& mode : m.modes) {
      if (k >= mode.algebraic.size()) continue;
      const std::string& n = mode.algebraic[k].name;
      if (name.empty()) {
        name = n;
      } else if (("|" + name + "|").find("|" + n + "|") == std::string::npos) {
        name += "|" + n;
      }
    }
    c.z_names.push_back(name);
  }
  return c;
}

namespace {

// The observer guards (sections, observations) of the run's system: the Moreau-Jean stretches
// step the state without evaluating them, so their crossings inside a stretch are not recorded
// (issue 44 item 4 asks for them; until then the outputs say which were not evaluated).
std::vector<std::string> observers_of(const HybridSystem& system) {
  std::vector<std::string> out;
  for (ModeId m = 0; m < system.mode_count(); ++m) {
    for (const Guard& g : system.mode(m).guards) {
      if (g.observe_only && std::find(out.begin(), out.end(), g.name) == out.end()) {
        out.push_back(g.name);
      }
    }
  }
  return out;
}

// Keeps the columns t, j, mode and those named in `keep` (all when empty).
std::string select_columns(const std::string& csv, const std::vector<std::string>& keep) {
  if (keep.empty()) return csv;
  std::istringstream in(csv);
  std::string line, out;
  std::vector<bool> use;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream ls(line);
    while (std::getline(ls, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    if (use.empty()) {
      for (const std::string& h : cells) {
        bool u = h == "t" || h == "j" || h == "mode";
        for (const std::string& k : keep) {
          // A joined z column "a|b" is kept when one of its names is requested.
          u = u || h == k || ("|" + h + "|").find("|" + k + "|") != std::string::npos;
        }
        use.push_back(u);
      }
    }
    std::string row;
    for (size_t i = 0; i < cells.size() && i < use.size(); ++i) {
      if (!use[i]) continue;
      if (!row.empty()) row += ',';
      row += cells[i];
    }
    out += row + '\n';
  }
  return out;
}

std::string unit_of(const model::Model& m, const std::string& name) {
  for (const model::Quantity& q : m.states) {
    if (q.name == name) return q.unit;
  }
  for (const model::ModelMode& mode : m.modes) {
    for (const model::Quantity& q : mode.algebraic) {
      if (q.name == name && !q.unit.empty()) return q.unit;
    }
  }
  return "";
}

// Calls fn("mode/guard", count) for every guard of the system (the system's names: a mechanical
// model's modes and guards come from mech, not from the file). Guards that never fired in a
// mode that was never entered are skipped.
template <class Fn>
void for_each_guard_count(const model::ModelRun& run, Fn fn) {
  const auto& per_mode = run.result.summary.events_per_guard;
  const bool mechanical = run.model->mechanics.has_value();
  for (size_t i = 0; i < per_mode.size() && i < static_cast<size_t>(run.system.mode_count()); ++i) {
    const Mode& mode = run.system.mode(static_cast<ModeId>(i));
    for (size_t g = 0; g < per_mode[i].size() && g < mode.guards.size(); ++g) {
      if (mechanical && per_mode[i][g] == 0) continue;  // many generated modes: list what fired
      fn(mode.name + "/" + mode.guards[g].name, per_mode[i][g]);
    }
  }
}

}  // namespace

std::string run_report(const model::ModelRun& run) {
  const SimulationSummary& s = run.result.summary;
  const model::Model& m = *run.model;
  std::ostringstream out;
  out.precision(12);
  out << "model      " << (m.name.empty() ? m.file : m.name) << "\n"
      << "status     " << run.status() << (run.succeeded() ? "" : " (failed)");
  if (run.degraded()) {
    out << " (degraded: " << run.bridge_log.stretches.size() << " Moreau-Jean stretch"
        << (run.bridge_log.stretches.size() == 1 ? "" : "es") << ", " << run.stepped_time() << " "
        << m.time_unit << " stepped at first order)";
  }
  out << "\n";
  if (const std::vector<std::string> unseen = observers_of(run.system);
      run.degraded() && !unseen.empty()) {
    out << "note       not evaluated inside the Moreau-Jean stretches:";
    for (size_t k = 0; k < unseen.size(); ++k) out << (k ? ", '" : " '") << unseen[k] << "'";
    out << " (their crossings there are not recorded)\n";
  }
  if (!run.message().empty()) out << "message    " << run.message() << "\n";
  out << "time       " << s.t_start << " -> " << s.t_final << " " << m.time_unit << ", " << s.jumps
      << " jumps, " << s.stepper.accepted_steps << " steps\n";
  if (const model::InitialProjection& p = m.initial_projection; p.tolerance > 0.0) {
    // [initial] project: how far the start was moved, and off what.
    out << "projected  initial state moved by " << p.size() << " (largest change of a state)";
    for (size_t k = 0; k < p.violated.size(); ++k) {
      out << (k ? ", " : " onto ") << p.violated[k] << " (violated by " << p.violation[k] << ")";
    }
    out << "; tolerance " << p.tolerance << "\n";
  }
  for (const std::string& note : m.notes) out << "note       " << note << "\n";
  if (s.zeno_time == s.zeno_time) {
    out << "zeno time  " << s.zeno_time << " " << m.time_unit << " (after " << s.events_before_zeno
        << " events";
    if (s.zeno_handovers > 0) out << ", " << s.zeno_handovers << " hand-over(s)";
    out << ")\n";
    out << "zeno kind  " << events::describe(s.zeno_kind) << "\n";
  }
  out << "events per guard\n";
  for_each_guard_count(run, [&out](const std::string& guard, long count) {
    out << "  " << guard << ": " << count << "\n";
  });
  if (s.zeno_handovers > 0) out << "  zeno-handover: " << s.zeno_handovers << "\n";
  // Guards event location samples instead of searching with a certificate
  // (docs/ARCHITECTURE.md "Event semantics", step 1): named, or counted when there are many.
  if (!s.sampled_guards.empty()) {
    out << "sampled    " << s.sampled_guards.size()
        << " guard(s) located by samples only (no enclosure: a crossing and return between two "
           "samples can be missed)";
    if (s.sampled_guards.size() <= 4) {
      for (size_t k = 0; k < s.sampled_guards.size(); ++k) {
        out << (k ? ", " : ": ") << s.sampled_guards[k];
      }
    } else {
      out << "; summary.json sampled_guards names them";
    }
    out << "\n";
  }
  if (s.undecided_searches > 0) {
    out << "undecided  " << s.undecided_searches
        << " certified event search(es) ran out of pieces; the step's samples decided there\n";
  }
  // A bridged run's lift-offs at Painleve situations (bridge/bridged_run.hpp).
  const EventLog& events = run.result.events;
  for (long i = 0; i < events.size(); ++i) {
    if (events[i].guard != bridge::kPainleveChoiceGuard) continue;
    out << "painleve   at t = " << events[i].t << " " << m.time_unit << ": " << events.note(i)
        << "\n";
  }
  // The Moreau-Jean stretches of a bridged run (bridge/bridged_run.hpp).
  for (const bridge::BridgeStretch& b : run.bridge_log.stretches) {
    out << "bridge     " << b.reason << " at t = " << b.t_start << " -> " << b.t_end << " "
        << m.time_unit << " (" << b.steps << " Moreau-Jean steps of " << b.step << "), "
        << (b.settled ? "handed back in '" + b.handed_back_to + "'"
                      : std::string("not handed back"))
        << "; contacts " << b.end_state << "\n";
  }
  out << "wall time  " << s.wall_seconds << " s\n";
  return out.str();
}

std::string summary_json(const model::ModelRun& run) {
  const SimulationSummary& s = run.result.summary;
  const model::Model& m = *run.model;
  nlohmann::ordered_json j;
  j["model"] = m.name;
  j["file"] = m.file;
  j["description"] = m.description;
  j["status"] = run.status();
  j["succeeded"] = run.succeeded();
  j["message"] = run.message();
  j["integrator"] = s.integrator;
  j["t_start"] = s.t_start;
  j["t_final"] = s.t_final;
  j["jumps"] = s.jumps;
  j["final_mode"] = s.final_mode >= 0 && s.final_mode < run.system.mode_count()
                        ? run.system.mode(s.final_mode).name
                        : "";
  if (s.zeno_time == s.zeno_time) {
    j["zeno_time"] = s.zeno_time;
    j["zeno_ratio"] = s.zeno_ratio;
    j["zeno_kind"] = events::to_string(s.zeno_kind.kind);
    j["zeno_kind_evidence"] = {{"resets", s.zeno_kind.resets},
                               {"size_growth_per_reset", s.zeno_kind.growth},
                               {"first_size", s.zeno_kind.first_size},
                               {"last_size", s.zeno_kind.last_size},
                               {"increment_ratio", s.zeno_kind.increment_ratio},
                               {"text", events::describe(s.zeno_kind)}};
  } else {
    j["zeno_time"] = nullptr;
  }
  j["zeno_handovers"] = s.zeno_handovers;
  // The Moreau-Jean stretches of a bridged run: where, why and for how long.
  nlohmann::ordered_json stretches = nlohmann::ordered_json::array();
  for (const bridge::BridgeStretch& b : run.bridge_log.stretches) {
    nlohmann::ordered_json contacts = nlohmann::ordered_json::array();
    if (run.lagrangian) {
      for (int c : b.contacts) contacts.push_back(run.lagrangian->model().contact(c).name);
    }
    stretches.push_back(
        {{"reason", b.reason},
         {"stopped_with", b.stop_status},
         {"stop_message", b.stop_message},
         {"contacts", contacts},
         {"t_start", b.t_start},
         {"t_end", b.t_end},
         {"duration", b.t_end - b.t_start},
         {"steps", b.steps},
         {"step", b.step},
         {"accuracy", {{"scheme", "moreau-jean"}, {"theta", b.theta}, {"order", 1}}},
         {"steps_with_several_motions", b.chosen_steps},
         {"settled", b.settled},
         {"contact_states", b.end_state},
         {"handed_back_to", b.handed_back_to}});
    // A painleve stretch: the motions the contact forces allowed and the one it took.
    if (!b.motions.empty()) {
      stretches.back()["consistent_motions"] = b.motions;
      stretches.back()["taken"] = b.taken;
    }
  }
  j["bridge_stretches"] = stretches;
  // Where the run was stepped at first order instead of integrated at its tolerances.
  nlohmann::ordered_json intervals = nlohmann::ordered_json::array();
  for (const bridge::BridgeStretch& b : run.bridge_log.stretches)
    intervals.push_back({b.t_start, b.t_end});
  j["degraded"] = run.degraded();
  j["degraded_intervals"] = intervals;
  // Observers (sections) whose crossings inside those intervals were not looked for.
  j["not_evaluated_in_stretches"] =
      run.degraded() ? observers_of(run.system) : std::vector<std::string>{};
  // Where a bridged run took the free motion among several (bridge/bridged_run.hpp).
  nlohmann::ordered_json lift_offs = nlohmann::ordered_json::array();
  const EventLog& events = run.result.events;
  for (long i = 0; i < events.size(); ++i) {
    if (events[i].guard != bridge::kPainleveChoiceGuard) continue;
    lift_offs.push_back({{"t", events[i].t}, {"note", events.note(i)}});
  }
  j["painleve_lift_offs"] = lift_offs;
  if (const model::InitialProjection& p = m.initial_projection; p.tolerance > 0.0) {
    nlohmann::ordered_json violated = nlohmann::ordered_json::object();
    for (size_t k = 0; k < p.violated.size(); ++k) violated[p.violated[k]] = p.violation[k];
    nlohmann::ordered_json change = nlohmann::ordered_json::object();
    for (Eigen::Index i = 0; i < p.change.size(); ++i) {
      if (p.change[i] != 0.0) change[m.states[static_cast<size_t>(i)].name] = p.change[i];
    }
    j["initial_projection"] = {
        {"tolerance", p.tolerance}, {"size", p.size()}, {"violated", violated}, {"change", change}};
  }
  if (!m.notes.empty()) j["notes"] = m.notes;
  nlohmann::ordered_json per_guard = nlohmann::ordered_json::object();
  for_each_guard_count(
      run, [&per_guard](const std::string& guard, long count) { per_guard[guard] = count; });
  j["events_per_guard"] = per_guard;
  j["steps"] = s.stepper.accepted_steps;
  // Event location (docs/ARCHITECTURE.md "Events"): guards searched by samples only, and the
  // cost of the certified search.
  j["sampled_guards"] = s.sampled_guards;
  j["enclosure_evaluations"] = s.enclosure_evaluations;
  j["undecided_searches"] = s.undecided_searches;
  j["rejected_steps"] = s.stepper.rejected_steps;
  j["rhs_evaluations"] = s.stepper.rhs_evaluations;
  j["wall_seconds"] = s.wall_seconds;
  j["time_unit"] = m.time_unit;
  nlohmann::ordered_json units = nlohmann::ordered_json::object();
  nlohmann::ordered_json states = nlohmann::ordered_json::array();
  for (const model::Quantity& q : m.states) {
    states.push_back(q.name);
    units[q.name] = q.unit;
  }
  nlohmann::ordered_json algebraic = nlohmann::ordered_json::array();
  for (const model::ModelMode& mode : m.modes) {
    for (const model::Quantity& q : mode.algebraic) {
      if (!units.contains(q.name)) {
        algebraic.push_back(q.name);
        units[q.name] = unit_of(m, q.name);
      }
    }
  }
  j["states"] = states;
  // The states that are discrete variables ([discrete]: rate 0, changed by resets only).
  nlohmann::ordered_json discrete = nlohmann::ordered_json::array();
  for (int i : m.discrete_states) discrete.push_back(m.states[static_cast<size_t>(i)].name);
  j["discrete_states"] = discrete;
  j["algebraic_states"] = algebraic;
  // trajectory.csv's contact-force columns (contact_force_columns.hpp); units from the model's.
  j["contact_forces"] = contact_force_names(run);
  // trajectory.csv's [outputs] columns, after the contact forces.
  nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
  for (const model::ModelOutput& o : m.outputs) {
    outputs.push_back(o.name);
    units[o.name] = o.unit;
  }
  j["outputs"] = outputs;
  j["units"] = units;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (size_t i = 0; i < m.parameters.size(); ++i) {
    const model::Quantity& q = m.parameters[i];
    const double value = i < run.parameter_values.size() ? run.parameter_values[i] : q.value;
    params[q.name] = {{"value", value}, {"unit", q.unit}};
  }
  j["parameters"] = params;
  nlohmann::ordered_json modes = nlohmann::ordered_json::array();
  for (ModeId i = 0; i < run.system.mode_count(); ++i) modes.push_back(run.system.mode(i).name);
  j["modes"] = modes;
  j["output_variables"] = m.output_variables;
  return j.dump(2) + "\n";
}

std::string model_trajectory_csv(const model::ModelRun& run) {
  CsvColumns columns = model_csv_columns(*run.model);
  ContactForceColumns forces = contact_force_columns(run);
  const OutputColumns outputs = output_columns(run);
  columns.extra_names = std::move(forces.names);
  columns.extra_names.insert(columns.extra_names.end(), outputs.names.begin(), outputs.names.end());
  columns.extra.resize(forces.values.rows() ? forces.values.rows() : outputs.values.rows(),
                       static_cast<Eigen::Index>(columns.extra_names.size()));
  if (forces.values.cols() > 0) columns.extra.leftCols(forces.values.cols()) = forces.values;
  if (outputs.values.cols() > 0) columns.extra.rightCols(outputs.values.cols()) = outputs.values;
  // [outputs] columns are kept whatever [output] variables chooses among the states.
  std::vector<std::string> keep = run.model->output_variables;
  if (!keep.empty()) keep.insert(keep.end(), outputs.names.begin(), outputs.names.end());
  return select_columns(trajectory_csv(run.system, run.result, columns), keep);
}

std::string model_events_csv(const model::ModelRun& run) {
  CsvColumns columns = model_csv_columns(*run.model);
  OutputColumns outputs = event_output_columns(run);  // [outputs] before and after each event
  columns.event_extra_names = std::move(outputs.names);
  columns.event_extra = std::move(outputs.values);
  return events_csv(run.system, run.result, columns);
}

void write_run_outputs(const model::ModelRun& run, const std::filesystem::path& dir) {
  // Rendered first, then swapped in as one folder: a failure anywhere leaves the old folder.
  std::vector<OutputFile> files = {{"trajectory.csv", model_trajectory_csv(run)},
                                   {"events.csv", model_events_csv(run)},
                                   {"summary.json", summary_json(run)}};
  if (run.model->drawing) {
    files.push_back({"drawing.csv", drawing_csv(run)});
    files.push_back({"drawing.json", drawing_json(run)});
  }
  if (run.model->mechanics && !run.model->mechanics->bodies.empty()) {
    files.push_back({"bodies.csv", bodies_csv(run)});
    files.push_back({"bodies.json", bodies_json(run)});
  }
  replace_output_folder(dir, files);
}

}  // namespace saltus::run
