#include "saltus/sim/simulation_summary.hpp"

#include <sstream>

#include "saltus/core/hybrid_system.hpp"

namespace saltus {

std::string SimulationSummary::brief_report() const {
  std::ostringstream out;
  out.precision(12);
  out << to_string(termination) << ": t = " << t_final << ", " << jumps << " jumps, "
      << stepper.accepted_steps << " steps, " << stepper.rhs_evaluations << " f evaluations";
  if (zeno_time == zeno_time) {
    out << ", Zeno time " << zeno_time << " (" << events::to_string(zeno_kind.kind) << ")";
  }
  return out.str();
}

std::string SimulationSummary::full_report(const HybridSystem* system) const {
  std::ostringstream out;
  out.precision(15);
  out << "termination      " << to_string(termination) << "\n"
      << "message          " << message << "\n"
      << "integrator       " << integrator << "\n"
      << "time             " << t_start << " -> " << t_final << "\n"
      << "jumps            " << jumps << "\n";
  if (zeno_time == zeno_time) {
    out << "zeno time        " << zeno_time << " (ratio " << zeno_ratio << ", "
        << events_before_zeno << " events before, " << zeno_handovers << " hand-overs)\n"
        << "zeno kind        " << events::describe(zeno_kind) << "\n";
  }
  out << "steps            " << stepper.accepted_steps << " accepted, " << stepper.rejected_steps
      << " rejected, " << stepper.restarts << " restarts\n"
      << "evaluations      " << stepper.rhs_evaluations << " f, " << stepper.jacobian_evaluations
      << " Jacobians, " << guard_evaluations << " guards, " << root_evaluations
      << " in root finding, " << enclosure_evaluations << " enclosures\n";
  if (!sampled_guards.empty()) {
    out << "sampled guards   " << sampled_guards.size()
        << " (no enclosure: a crossing between samples can be missed)\n";
    for (const std::string& g : sampled_guards) out << "  " << g << "\n";
  }
  if (undecided_searches > 0) {
    out << "undecided        " << undecided_searches << " certified searches (samples decided)\n";
  }
  out << "events per guard\n";
  for (size_t m = 0; m < events_per_guard.size(); ++m) {
    for (size_t g = 0; g < events_per_guard[m].size(); ++g) {
      out << "  ";
      if (system != nullptr) {
        out << system->mode(static_cast<ModeId>(m)).name << "/"
            << system->mode(static_cast<ModeId>(m)).guards[g].name;
      } else {
        out << "mode " << m << "/guard " << g;
      }
      out << ": " << events_per_guard[m][g] << "\n";
    }
  }
  out << "wall time        " << wall_seconds << " s\n";
  return out.str();
}

}  // namespace saltus
