#include "saltus/analysis/hybrid_sensitivity.hpp"

#include <Eigen/LU>
#include <algorithm>

#include "one_pass_sensitivity.hpp"
#include "saltus/analysis/arc_transition.hpp"
#include "saltus/core/error.hpp"

namespace saltus::analysis {
namespace {

FlowMapSensitivity& fail(FlowMapSensitivity& out, SensitivityStatus status, std::string message) {
  out.status = status;
  out.message = std::move(message);
  out.flow_map_jacobian.resize(0, 0);
  return out;
}

double relative_gap(const Vector& a, ConstVectorRef b) {
  return (a - b).lpNorm<Eigen::Infinity>() / (1.0 + b.lpNorm<Eigen::Infinity>());
}

// Two resets at one instant (simultaneous crossings, or a guard the first jump carried across):
// the flow map has a corner there, its one-sided derivatives differ, and the product of the two
// saltation matrices is only one of them (issue 34: it was reported as the derivative). Returns
// the message naming both events, or "" when every reset stands alone.
std::string simultaneous_resets(const HybridSystem& system, const EventLog& log) {
  long previous = -1;
  for (long i = 0; i < log.size(); ++i) {
    if (log[i].observation || log[i].guard == kZenoHandoverGuard) continue;
    if (previous >= 0 && log[i].t == log[previous].t) {
      const auto name = [&](long k) {
        const EventRecord& r = log[k];
        return "guard '" + system.mode(r.mode_before).guards[r.guard].name + "' of mode '" +
               system.mode(r.mode_before).name + "'";
      };
      return saltus::detail::text(
          "events ", previous, " and ", i, " (", name(previous), ", then ", name(i),
          ") reset the state at the same t = ", log[i].t,
          ": the flow map has a corner there (one-sided derivatives differ) and is not "
          "differentiable at this start");
    }
    previous = i;
  }
  return "";
}

}  // namespace

FlowMapSensitivity flow_map_sensitivity(const HybridSystem& system, ModeId mode, double t0,
                                        ConstVectorRef x0, double t_end,
                                        const SimulationOptions& options, ConstVectorRef z0,
                                        const SaltationOptions& saltation) {
  if (detail::one_pass_applicable(system)) {
    FlowMapSensitivity one =
        detail::one_pass_sensitivity(system, mode, t0, x0, t_end, options, saltation);
    if (!one.ok()) return one;
    const std::string corner = simultaneous_resets(system, one.run.events);
    return corner.empty() ? one : fail(one, SensitivityStatus::NotDifferentiable, corner);
  }
  FlowMapSensitivity out;
  SimulationOptions run_options = options;
  run_options.output.record_events = true;
  out.run = simulate(system, mode, t0, x0, t_end, run_options, z0);
  const Termination termination = out.run.termination();
  if (termination == Termination::Zeno) {
    return fail(out, SensitivityStatus::ZenoPoint, out.run.summary.message);
  }
  if (!out.run.summary.ok()) {
    return fail(out, SensitivityStatus::SimulationFailed, out.run.summary.message);
  }
  const bool stops_at_event = termination == Termination::TerminalEvent;
  const EventLog& log = out.run.events;
  if (const std::string corner = simultaneous_resets(system, log); !corner.empty()) {
    return fail(out, SensitivityStatus::NotDifferentiable, corner);
  }
  for (long i = 0; i < log.size(); ++i) {
    // The impacts before a hand-over approach grazing; the hand-over itself is not differentiable.
    if (log[i].guard == kZenoHandoverGuard) {
      const Saltation s = event_saltation(system, log, i, false, saltation);
      return fail(out, s.status, s.message);
    }
  }
  ArcTransition arcs(system, options);
  Matrix jacobian = Matrix::Identity(x0.size(), x0.size()), phi;
  ModeId m = mode;
  double t = t0;
  Vector x = x0, z = z0, x_arc;
  std::string failure;
  for (long i = 0; i < log.size(); ++i) {
    const EventRecord& r = log[i];
    const bool stops_here = stops_at_event && i + 1 == log.size();
    if (r.observation && !stops_here) continue;
    if (!arcs.propagate(m, t, x, z, r.t, phi, x_arc, failure)) {
      return fail(out, SensitivityStatus::IntegrationFailed, failure);
    }
    out.arc_state_mismatch = std::max(out.arc_state_mismatch, relative_gap(x_arc, log.x_before(i)));
    const Saltation s = event_saltation(system, log, i, stops_here, saltation);
    if (s.status != SensitivityStatus::Ok) return fail(out, s.status, s.message);
    jacobian = s.matrix * (phi * jacobian);
    if (!r.observation) {
      out.events.push_back({i, r.t, r.mode_before, r.mode_after, r.guard, s.matrix,
                            s.hybrid_jacobian, s.crossing_rate, s.numerical_reset_jacobian});
      out.impact_volume_factor *= s.hybrid_jacobian;
    }
    m = r.mode_after;
    t = r.t;
    x = log.x_after(i);
    z = log.z_after(i);
  }
  if (!stops_at_event) {
    if (!arcs.propagate(m, t, x, z, out.run.t_final, phi, x_arc, failure)) {
      return fail(out, SensitivityStatus::IntegrationFailed, failure);
    }
    out.arc_state_mismatch = std::max(out.arc_state_mismatch, relative_gap(x_arc, out.run.x_final));
    jacobian = phi * jacobian;
  }
  out.flow_map_jacobian = jacobian;
  if (jacobian.rows() == jacobian.cols()) out.volume_factor = jacobian.determinant();
  out.status = SensitivityStatus::Ok;
  return out;
}

}  // namespace saltus::analysis
