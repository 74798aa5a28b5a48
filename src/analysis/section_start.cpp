#include "saltus/analysis/section_start.hpp"

#include <algorithm>
#include <cmath>
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
  HybridSystem watched = system;
  add_terminal_section(watched, section);
  SimulationOptions o = options;
  o.output = OutputOptions{};
  o.output.record_events = true;
  const SimulationResult r = simulate(watched, mode, t0, x0, t0 + horizon, o, z0);
  std::ostringstream os;
  os.precision(10);
  const EventLog& log = r.events;
  const bool crossed = r.termination() == Termination::TerminalEvent && log.size() > 0 &&
                       log[log.size() - 1].observation &&
                       watched.mode(log[log.size() - 1].mode_before)
                               .guards[static_cast<size_t>(log[log.size() - 1].guard)]
                               .name == section.name;
  if (!crossed) {
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

}  // namespace saltus::analysis
