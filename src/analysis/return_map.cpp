#include "saltus/analysis/return_map.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>

#include "saltus/core/error.hpp"

namespace saltus::analysis {
namespace {

constexpr const char* kApexPrefix = "apex of ";

// "section 'midstance'" for messages: a section's guard may already be named "section midstance"
// (model/model_section.hpp), which quoted whole read "section 'section midstance'".
std::string section_label(const std::string& name) {
  constexpr std::string_view kPrefix = "section ";
  const std::string_view bare =
      name.rfind(kPrefix, 0) == 0 ? std::string_view(name).substr(kPrefix.size()) : name;
  return "section '" + std::string(bare) + "'";
}

// Observers on dp/dt = p_t + p_x f for every guard of every ODE mode with a gradient: they fire
// at the guard's local extrema towards its firing side (a local maximum of p for Rising).
void add_guard_apexes(HybridSystem& system) {
  for (ModeId m = 0; m < system.mode_count(); ++m) {
    const Mode& mode = system.mode(m);
    if (mode.flow.kind != FlowKind::Ode || !mode.flow.rhs) continue;
    const auto guards = mode.guards;  // copies: add_guard may move the mode's vector
    for (const Guard& g : guards) {
      if (g.observe_only || !g.gradient || g.direction == Direction::Either) continue;
      Guard apex;
      apex.name = kApexPrefix + g.name;
      apex.observe_only = true;
      apex.direction = g.direction == Direction::Rising ? Direction::Falling : Direction::Rising;
      const int nx = mode.flow.nx;
      apex.value = [flow = mode.flow, gradient = g.gradient, nx](double t, ConstVectorRef x,
                                                                 ConstVectorRef z) {
        Vector xdot(nx), dpdx(nx), dpdz(z.size());
        flow.rhs(t, x, z, xdot);
        const double p_t = gradient(t, x, z, dpdx, dpdz);
        return p_t + dpdx.dot(xdot);
      };
      system.add_guard(m, std::move(apex));
    }
  }
}

bool is_apex(const Guard& g) {
  return g.observe_only && g.name.rfind(kApexPrefix, 0) == 0;
}

// The name of the guard whose terminal event ended `run` when it is not the section (a model's
// own terminal guard, or an on_event stop): such a stop is no return; empty otherwise.
std::string foreign_terminal(const HybridSystem& system, const SimulationResult& run,
                             const std::string& section_name) {
  if (run.termination() != Termination::TerminalEvent) return "";
  const EventLog& log = run.events;
  if (log.size() == 0) return "(no event logged)";
  const EventRecord& r = log[log.size() - 1];
  if (r.guard < 0) return "Zeno hand-over";
  const Guard& g = system.mode(r.mode_before).guards[static_cast<size_t>(r.guard)];
  if (!section_name.empty() && r.observation && g.name == section_name) return "";
  return g.name;
}

constexpr const char* kLeavingSuffix = " (leaving)";

// The section's returns in a map's first phase (section_map adds its observers to every mode):
// a crossing in its direction counts once the state has left the section since the start or the
// last return, by a crossing against its direction or by a reset onto its far side (as
// section_start.hpp's first_return). So the start's own crossing (a start a rounding error
// before the section) is no return; one per instant (a model's [[sections]] entry of that name
// may watch it too).
long returns_on_the_way(const HybridSystem& system, const EventLog& log,
                        const std::string& section_name, double t0) {
  long count = 0;
  bool left = false;
  double counted_at = kNaN;
  for (long i = 0; i < log.size(); ++i) {
    const EventRecord& r = log[i];
    if (r.guard < 0) continue;
    const Guard& g = system.mode(r.mode_before).guards[static_cast<size_t>(r.guard)];
    if (r.observation && g.name == section_name + kLeavingSuffix) {
      left = true;
    } else if (r.observation && g.name == section_name) {
      // A section of either direction has no far side: every crossing after the start returns.
      const bool returns = g.direction == Direction::Either ? r.t != t0 : left;
      if (returns && r.t != counted_at) ++count;
      counted_at = r.t;
      left = false;
    } else if (!r.observation) {
      for (const Guard& watch : system.mode(r.mode_after).guards) {
        if (!watch.observe_only || watch.name != section_name) continue;
        const double p = watch.value(r.t, log.x_after(i), log.z_after(i));
        left = left || (watch.direction == Direction::Rising ? p < 0.0 : p > 0.0);
        break;
      }
    }
  }
  return count;
}

// P(x) from a run that starts at (t0, x) and ends at t_end or a terminal section.
// `must_return`: the run has to end in `mode` (a map's whole evaluation; the stroboscopic map).
MapValue evaluate(const HybridSystem& system, ModeId mode, double t0, const Vector& x, double t_end,
                  bool ends_on_section, const std::string& section_name,
                  const SimulationOptions& options, const SaltationOptions& saltation,
                  const Vector& algebraic_guess, bool must_return) {
  MapValue out;
  FlowMapSensitivity s =
      flow_map_sensitivity(system, mode, t0, x, t_end, options, algebraic_guess, saltation);
  out.status = s.status;
  out.message = s.message;
  out.x = s.run.x_final;
  out.return_time = s.run.t_final - t0;
  out.resets = 0;
  for (const EventSensitivity& e : s.events) out.resets += e.resets;
  const EventLog& log = s.run.events;
  for (long i = 0; i < log.size(); ++i) {
    const EventRecord& r = log[i];
    if (!r.observation || r.guard < 0) continue;
    const Guard& g = system.mode(r.mode_before).guards[static_cast<size_t>(r.guard)];
    if (!is_apex(g)) continue;
    // An extremum at a reset instant is the reset's own jump of dp/dt, not an approach.
    bool at_reset = false;
    // (The same instant is the same double: both come from the loop's t0 + tau, rounded once; an
    // absolute 1e-12 s was no instant at all from t0 = 1e9.)
    for (const EventSensitivity& e : s.events) at_reset = at_reset || e.t == r.t;
    if (at_reset) continue;
    const Mode& m = system.mode(r.mode_before);
    for (const Guard& guard : m.guards) {
      if (kApexPrefix + guard.name != g.name) continue;
      // Outside its jump set the guard cannot fire: its surface may be crossed there (a
      // walker's swing foot beside the scuff), which is no approach to an event.
      if (guard.when && guard.when(r.t, log.x_before(i), log.z_before(i)) == 0.0) continue;
      const double p = guard.value(r.t, log.x_before(i), log.z_before(i));
      const double distance = guard.direction == Direction::Rising ? -p : p;
      out.closest_approach = std::min(out.closest_approach, distance);
    }
  }
  if (!ends_on_section && !section_name.empty()) {
    out.section_crossings = returns_on_the_way(system, log, section_name, t0);
  }
  for (const EventSensitivity& e : s.events) {
    out.min_crossing_rate = std::min(out.min_crossing_rate, std::abs(e.crossing_rate));
    out.reset_times.push_back(e.t);
  }
  for (long i = 0; i < log.size(); ++i) {
    const EventRecord& r = log[i];
    if (r.observation) continue;
    const char* kind = record_kind_name(r);
    out.sequence.push_back(
        kind != nullptr ? std::string(kind)
                        : system.mode(r.mode_before).guards[static_cast<size_t>(r.guard)].name);
  }
  // At a corner the map's value stands and each side's derivative is known (corner_sides).
  const bool corner = !s.ok() && !s.corner_sides.empty();
  if (!s.ok() && !corner) return out;
  if (corner) {
    out.resets = 0;
    for (long i = 0; i < log.size(); ++i) out.resets += log[i].observation ? 0 : 1;
  }
  out.mode = s.run.final_mode;
  out.terminal_guard = foreign_terminal(system, s.run, ends_on_section ? section_name : "");
  if (!out.terminal_guard.empty()) {
    // A terminal event before the section (or before t0 + T) is not the map's value.
    std::ostringstream os;
    os.precision(10);
    os << s.run.summary.message << " before "
       << (ends_on_section ? "the section '" + section_name + "' was crossed"
                           : std::string("the end of the period"))
       << ": the run stopped, no return";
    out.status = SensitivityStatus::SimulationFailed;
    out.message = os.str();
    return out;
  }
  if (ends_on_section && s.run.termination() != Termination::TerminalEvent) {
    std::ostringstream os;
    os.precision(6);
    os << "the " << section_label(section_name) << " was not crossed between t = " << t0
       << " and t = " << t_end << " (" << out.resets << " resets on the way)";
    out.status = SensitivityStatus::SimulationFailed;
    out.message = os.str();
    return out;
  }
  const long rows = corner ? s.corner_sides.front().jacobian.rows() : s.flow_map_jacobian.rows();
  if ((must_return && s.run.final_mode != mode) || rows != x.size()) {
    out.status = SensitivityStatus::SimulationFailed;
    out.message = "the orbit returns in mode '" + system.mode(s.run.final_mode).name +
                  "', not in '" + system.mode(mode).name + "'";
    return out;
  }
  out.jacobian = std::move(s.flow_map_jacobian);
  out.corner_sides = std::move(s.corner_sides);
  return out;
}

// second's derivatives after first's (the map through first.x): a corner's sides in either
// piece are composed with the other's derivative; a corner in both is not differentiated.
void compose_after(MapValue& second, const MapValue& first) {
  if (second.ok() && first.ok()) {
    second.jacobian = second.jacobian * first.jacobian;
    return;
  }
  if (second.ok() && first.at_corner()) {
    for (const CornerSide& side : first.corner_sides) {
      second.corner_sides.push_back({side.sequence, second.jacobian * side.jacobian});
    }
    second.jacobian = Matrix();
    second.status = first.status;
    second.message = first.message;
  } else if (second.at_corner() && first.ok()) {
    for (CornerSide& side : second.corner_sides) side.jacobian = side.jacobian * first.jacobian;
  } else if (second.at_corner() && first.at_corner()) {
    second.corner_sides.clear();
    second.message = first.message + "; and " + second.message;
  }
}

}  // namespace

void add_terminal_section(HybridSystem& system, Guard section) {
  section.observe_only = true;
  section.terminal = true;
  section.reset = Reset{};
  for (ModeId m = 0; m < system.mode_count(); ++m) system.add_guard(m, section);
}

ReturnMap stroboscopic_map(const HybridSystem& system, ModeId mode, double t0, double period,
                           const SimulationOptions& options, const SaltationOptions& saltation,
                           const Vector& algebraic_guess) {
  auto sys = std::make_shared<HybridSystem>(system);
  add_guard_apexes(*sys);
  return [sys, mode, t0, period, options, saltation, algebraic_guess](const Vector& x) {
    return evaluate(*sys, mode, t0, x, t0 + period, false, "", options, saltation, algebraic_guess,
                    true);
  };
}

ReturnMap transit_map(const HybridSystem& system, ModeId mode, double t0, double t1,
                      const SimulationOptions& options, const SaltationOptions& saltation,
                      const Vector& algebraic_guess) {
  auto sys = std::make_shared<HybridSystem>(system);
  return [sys, mode, t0, t1, options, saltation, algebraic_guess](const Vector& x) {
    return evaluate(*sys, mode, t0, x, t1, false, "", options, saltation, algebraic_guess, false);
  };
}

ReturnMap section_map(const HybridSystem& system, ModeId mode, double t0, Guard section,
                      double min_time, double horizon, const SimulationOptions& options,
                      const SaltationOptions& saltation, const Vector& algebraic_guess) {
  if (!(min_time > 0.0) || !(horizon > min_time)) {
    std::ostringstream os;
    os << section_label(section.name) << ": min_time = " << min_time << " must be > 0 (the flow "
       << "must leave the section before a crossing counts) and below horizon = " << horizon;
    throw Error(os.str());
  }
  // Two systems: the first min_time without the section (leaving it), then up to the section.
  auto free = std::make_shared<HybridSystem>(system);
  add_guard_apexes(*free);
  auto to_section = std::make_shared<HybridSystem>(*free);
  const std::string name = section.name;
  // The first min_time watches the section too (not terminal): its crossings there are returns
  // the map skips, counted in section_crossings.
  Guard watch = section;
  watch.observe_only = true;
  watch.terminal = false;
  watch.reset = Reset{};
  Guard leaving = watch;  // against the section's direction (none for either direction)
  leaving.name += kLeavingSuffix;
  leaving.direction =
      section.direction == Direction::Rising ? Direction::Falling : Direction::Rising;
  for (ModeId m = 0; m < free->mode_count(); ++m) {
    free->add_guard(m, watch);
    if (section.direction != Direction::Either) free->add_guard(m, leaving);
  }
  add_terminal_section(*to_section, std::move(section));
  return [free, to_section, mode, t0, min_time, horizon, name, options, saltation,
          algebraic_guess](const Vector& x) {
    MapValue first = evaluate(*free, mode, t0, x, t0 + min_time, false, name, options, saltation,
                              algebraic_guess, false);
    if (!first.ok() && !first.at_corner()) return first;
    // The section ends the run in whichever mode first.x has reached.
    MapValue second = evaluate(*to_section, first.mode, t0 + min_time, first.x, t0 + horizon, true,
                               name, options, saltation, algebraic_guess, false);
    if ((second.ok() || second.at_corner()) && second.mode != mode) {
      second.status = SensitivityStatus::SimulationFailed;
      second.message = "the orbit returns to the section in mode '" +
                       to_section->mode(second.mode).name + "', not in '" +
                       to_section->mode(mode).name + "'";
      second.jacobian = Matrix();
      second.corner_sides.clear();
    }
    compose_after(second, first);
    second.return_time += min_time;
    second.resets += first.resets;
    second.section_crossings += first.section_crossings;
    second.reset_times.insert(second.reset_times.begin(), first.reset_times.begin(),
                              first.reset_times.end());
    second.sequence.insert(second.sequence.begin(), first.sequence.begin(), first.sequence.end());
    second.min_crossing_rate = std::min(second.min_crossing_rate, first.min_crossing_rate);
    second.closest_approach = std::min(second.closest_approach, first.closest_approach);
    return second;
  };
}

}  // namespace saltus::analysis
