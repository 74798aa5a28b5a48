#include "saltus/analysis/section_start.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include "saltus/analysis/return_map.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::analysis {
namespace {

// |p| small against its own scale: the guess lies on the section (round-off of a state written
// from a crossing), so running to the next crossing would skip a period.
bool on_section(const Guard& section, double t, const Vector& x, const Vector& z, double& p) {
  p = section.value(t, x, z);
  double scale = 0.0;
  if (section.gradient) {
    Vector dpdx(x.size()), dpdz(z.size());
    const double p_t = section.gradient(t, x, z, dpdx, dpdz);
    scale = dpdx.cwiseAbs().dot(x.cwiseAbs()) + std::abs(p_t) * std::abs(t);
  } else {
    scale = std::max(1.0, x.lpNorm<Eigen::Infinity>());
  }
  return std::abs(p) <= 1e-10 * scale || p == 0.0;
}

// The run crossed the observer named `name`: its last event is that observer's.
bool ended_on(const HybridSystem& watched, const SimulationResult& r, const std::string& name) {
  const EventLog& log = r.events;
  if (r.termination() != Termination::TerminalEvent || log.size() == 0) return false;
  const EventRecord& last = log[log.size() - 1];
  return last.observation && last.guard >= 0 &&
         watched.mode(last.mode_before).guards[static_cast<size_t>(last.guard)].name == name;
}

SimulationResult run_to(const HybridSystem& system, const Guard& section, ModeId mode, double t0,
                        const Vector& x0, const Vector& z0, double t_end,
                        const SimulationOptions& options, HybridSystem& watched,
                        std::function<CallbackResult(const EventInfo&)> on_event = {}) {
  watched = system;
  add_terminal_section(watched, section);
  SimulationOptions o = options;
  o.output = OutputOptions{};
  o.output.record_events = true;
  o.on_event = std::move(on_event);
  return simulate(watched, mode, t0, x0, t_end, o, z0);
}

}  // namespace

SectionStart start_on_section(const HybridSystem& system, ModeId mode, double t0, const Vector& x0,
                              const Vector& z0, const Guard& section, double horizon,
                              const SimulationOptions& options) {
  SectionStart out;
  out.mode = mode;
  out.t = t0;
  out.x = x0;
  out.z = z0;
  if (on_section(section, t0, x0, z0, out.section_value)) {
    out.ok = true;
    return out;
  }
  HybridSystem watched;
  const SimulationResult r =
      run_to(system, section, mode, t0, x0, z0, t0 + horizon, options, watched);
  std::ostringstream os;
  os.precision(10);
  const EventLog& log = r.events;
  if (!ended_on(watched, r, section.name)) {
    if (r.termination() == Termination::TerminalEvent) {
      const EventRecord& last = log[log.size() - 1];
      out.terminal_guard =
          last.guard < 0
              ? "Zeno hand-over"
              : watched.mode(last.mode_before).guards[static_cast<size_t>(last.guard)].name;
      os << "the guess is off the section '" << section.name << "' (value " << out.section_value
         << ") and its run to the first crossing ended: " << r.summary.message;
    } else if (r.termination() == Termination::EndTimeReached) {
      os << "the guess is off the section '" << section.name << "' (value " << out.section_value
         << ") and the section was not crossed between t = " << t0 << " and t = " << t0 + horizon;
    } else {
      os << "the guess is off the section '" << section.name << "' (value " << out.section_value
         << ") and its run to the first crossing failed: " << r.summary.message;
    }
    out.message = os.str();
    return out;
  }
  const long k = log.size() - 1;
  out.ok = true;
  out.moved = true;
  out.mode = log[k].mode_before;
  out.t = log[k].t;
  out.x = log.x_before(k);
  out.z = log.z_before(k);
  os << "the guess (off the section '" << section.name << "' by " << out.section_value
     << ") was run to its first crossing, at t = " << out.t << " in mode '"
     << watched.mode(out.mode).name << "'";
  out.message = os.str();
  return out;
}

SectionReturn first_return(const HybridSystem& system, ModeId mode, double t0, const Vector& x0,
                           const Vector& z0, const Guard& section, double horizon,
                           const SimulationOptions& options) {
  SectionReturn out;
  std::ostringstream os;
  os.precision(10);
  HybridSystem watched;
  double t = t0;
  if (section.direction != Direction::Either) {
    // Leaving: the first crossing against the section's direction, or the first reset that puts
    // the state on the section's far side (a walker's heel strike: theta jumps from - to +).
    Guard against = section;
    against.name = section.name + " (leaving)";
    against.direction =
        section.direction == Direction::Rising ? Direction::Falling : Direction::Rising;
    const double sign = section.direction == Direction::Rising ? 1.0 : -1.0;
    bool jumped_off = false;
    const auto left = [&](const EventInfo& e) {
      if (e.observation) return CallbackResult::Continue;  // the terminal observer stops itself
      jumped_off = sign * section.value(e.t, e.x_after, e.z_after) < 0.0;
      return jumped_off ? CallbackResult::Stop : CallbackResult::Continue;
    };
    const SimulationResult r =
        run_to(system, against, mode, t0, x0, z0, t0 + horizon, options, watched, left);
    if (!jumped_off && !ended_on(watched, r, against.name)) {
      os << "the start never leaves the section '" << section.name << "' (no crossing against "
         << "its direction between t = " << t0 << " and t = " << t0 + horizon
         << "): " << r.summary.message;
      out.message = os.str();
      return out;
    }
    t = r.events[r.events.size() - 1].t;
  }
  out.t_leave = t;
  // The return: the start run again to the section's first crossing after t_leave (a leaving
  // reset may be the first of several at its instant, whose state no run may start from). The
  // section watches without ending the run; the crossing after t_leave ends it.
  watched = system;
  Guard watch = section;
  watch.observe_only = true;
  watch.reset = Reset{};
  for (ModeId md = 0; md < watched.mode_count(); ++md) watched.add_guard(md, watch);
  SimulationOptions o = options;
  o.output = OutputOptions{};
  o.output.record_events = true;
  o.on_event = [&watched, &section, t](const EventInfo& e) {
    const bool returned =
        e.observation && e.guard >= 0 && e.t > t &&
        watched.mode(e.mode_before).guards[static_cast<size_t>(e.guard)].name == section.name;
    return returned ? CallbackResult::Stop : CallbackResult::Continue;
  };
  const SimulationResult r = simulate(watched, mode, t0, x0, t0 + horizon, o, z0);
  if (!ended_on(watched, r, section.name)) {
    os << "the start leaves the section '" << section.name << "' at t = " << out.t_leave
       << " and does not return to it by t = " << t0 + horizon << ": " << r.summary.message;
    out.message = os.str();
    return out;
  }
  out.t_return = r.events[r.events.size() - 1].t;
  out.min_time = 0.5 * (out.t_leave + out.t_return) - t0;
  out.ok = out.min_time > 0.0;
  if (!out.ok) out.message = "the section's first return is at its start";
  return out;
}

}  // namespace saltus::analysis
