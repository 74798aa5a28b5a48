#include "saltus/analysis/bifurcation_diagram.hpp"

#include <cmath>
#include <sstream>

#include "saltus/core/error.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::analysis {

std::vector<DiagramColumn> bifurcation_diagram(const HybridSystem& system, ModeId mode,
                                               GuardId section, const Vector& initial,
                                               const DiagramOptions& options) {
  const Mode& m = system.mode(mode);
  if (section < 0 || section >= static_cast<GuardId>(m.guards.size()) ||
      !m.guards[static_cast<size_t>(section)].observe_only) {
    throw Error("bifurcation_diagram: guard " + std::to_string(section) + " of mode '" + m.name +
                "' is not an observer (a section)");
  }
  if (!options.set_parameter && (options.parameter < 0 || options.parameter >= initial.size())) {
    throw Error("bifurcation_diagram: parameter index " + std::to_string(options.parameter) +
                " is not a state component");
  }
  const std::string& section_name = m.guards[static_cast<size_t>(section)].name;
  const auto is_section = [&](ModeId in, GuardId g) {
    if (in == mode) return g == section;
    const Mode& other = system.mode(in);
    return g >= 0 && g < static_cast<GuardId>(other.guards.size()) &&
           other.guards[static_cast<size_t>(g)].observe_only &&
           other.guards[static_cast<size_t>(g)].name == section_name;
  };
  std::vector<DiagramColumn> out;
  const long wanted = options.discard + options.keep;
  Vector x = initial;
  ModeId from = mode;
  double t = options.t0;
  for (const double value : options.values) {
    DiagramColumn column;
    column.parameter = value;
    column.points.resize(0, initial.size());
    std::vector<Vector> kept;
    long crossings = 0;
    Vector last_x;  // the last crossing: the next value's start when following
    ModeId last_mode = kNoMode;
    double last_t = kNaN;
    SimulationOptions o = options.simulation;
    o.output = OutputOptions{};
    o.output.record_events = false;
    o.on_event = [&](const EventInfo& e) {
      if (!e.observation || !is_section(e.mode_before, e.guard) || e.t == t) {
        return CallbackResult::Continue;
      }
      if (++crossings > options.discard) {
        kept.emplace_back(e.x_before);
        column.modes.push_back(e.mode_before);
      }
      last_x = e.x_before;
      last_mode = e.mode_before;
      last_t = e.t;
      return crossings >= wanted ? CallbackResult::Stop : CallbackResult::Continue;
    };
    if (!options.follow) {
      x = initial;
      from = mode;
      t = options.t0;
    }
    if (options.set_parameter) {
      options.set_parameter(value);
    } else {
      x[options.parameter] = value;
    }
    if (!options.follow && options.start_mode) from = options.start_mode();
    const SimulationResult r = options.run ? options.run(from, t, x, t + options.horizon, o)
                                           : simulate(system, from, t, x, t + options.horizon, o);
    column.termination = r.termination();
    column.points.resize(static_cast<Eigen::Index>(kept.size()), initial.size());
    for (size_t k = 0; k < kept.size(); ++k) {
      column.points.row(static_cast<Eigen::Index>(k)) = kept[k].transpose();
    }
    if (static_cast<long>(kept.size()) < options.keep) {
      // Why, in the run's terms (issue 46 item 6): how it ended, where the section was last
      // crossed, and where the run was then (a walker that fell ends far from its gait).
      std::ostringstream os;
      os.precision(10);
      os << "only " << kept.size() << " of " << options.keep << " section points (after "
         << options.discard << " discarded; " << crossings << " crossing"
         << (crossings == 1 ? "" : "s") << " in all): the run ended " << to_string(r.termination())
         << " at t = " << r.t_final;
      if (r.final_mode >= 0 && r.final_mode < system.mode_count()) {
        os << " in mode '" << system.mode(r.final_mode).name << "'";
      }
      os << " at x = (";
      for (Eigen::Index k = 0; k < r.x_final.size(); ++k) os << (k ? ", " : "") << r.x_final[k];
      os << ")";
      if (crossings > 0) {
        os << ", the last crossing at t = " << last_t;
      } else {
        os << ", no crossing of '" << section_name << "'";
      }
      if (!r.summary.message.empty()) os << ": " << r.summary.message;
      column.message = os.str();
    }
    // A run that failed (Painleve, a non-finite state, Zeno) leaves the start for the next value
    // as it was; so does one that crossed no section or crossed it in a mode of another dimension.
    const bool ended_well = r.termination() == Termination::EndTimeReached ||
                            r.termination() == Termination::TerminalEvent;
    if (ended_well && last_mode != kNoMode && last_x.size() == x.size() && last_x.allFinite()) {
      x = last_x;
      from = last_mode;
      const double T = options.time_period;
      t = std::isnan(T) ? last_t
          : T > 0.0     ? last_t - std::round((last_t - options.t0) / T) * T
                        : options.t0;
    }
    out.push_back(std::move(column));
  }
  return out;
}

}  // namespace saltus::analysis
