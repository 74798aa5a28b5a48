#include "saltus/analysis/hybrid_sensitivity.hpp"

#include <Eigen/LU>
#include <algorithm>

#include "one_pass_sensitivity.hpp"
#include "reset_apply.hpp"
#include "reset_instants.hpp"
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

// The product of the arcs' transition matrices and each chain's saltation matrix over the
// logged run (hybrid_sensitivity.hpp): writes out.flow_map_jacobian, events, volume factors
// and arc_state_mismatch; false with out's status and message set where a matrix is undefined.
// `instead`: the saltation matrix used for the chain that starts at event `instead_at` (-1: none).
bool differentiate_chains(const HybridSystem& system, const std::vector<std::vector<long>>& chains,
                          ModeId mode, double t0, ConstVectorRef x0, ConstVectorRef z0,
                          const SimulationOptions& options, const SaltationOptions& saltation,
                          FlowMapSensitivity& out, long instead_at = -1,
                          const Saltation* instead = nullptr) {
  out.events.clear();
  out.impact_volume_factor = 1.0;
  const EventLog& log = out.run.events;
  const bool stops_at_event = out.run.termination() == Termination::TerminalEvent;
  std::vector<long> chain_starting_at(static_cast<size_t>(log.size()), -1);
  for (size_t c = 0; c < chains.size(); ++c) {
    chain_starting_at[static_cast<size_t>(chains[c].front())] = static_cast<long>(c);
  }
  ArcTransition arcs(system, options);
  Matrix jacobian = Matrix::Identity(x0.size(), x0.size()), phi;
  ModeId m = mode;
  double t = t0;
  Vector x = x0, z = z0, x_arc;
  std::string failure;
  for (long i = 0; i < log.size(); ++i) {
    const EventRecord& r = log[i];
    const bool observation_stop = r.observation && stops_at_event && i + 1 == log.size();
    const long c = chain_starting_at[static_cast<size_t>(i)];
    if (c < 0 && !observation_stop) continue;  // an observation, or a chain's later reset
    const std::span<const long> chain =
        c >= 0 ? std::span<const long>(chains[c]) : std::span<const long>(&i, 1);
    const long last = chain.back();
    const bool stops_here = stops_at_event && last + 1 == log.size();
    if (!arcs.propagate(m, t, x, z, r.t, phi, x_arc, failure)) {
      fail(out, SensitivityStatus::IntegrationFailed, failure);
      return false;
    }
    out.arc_state_mismatch = std::max(out.arc_state_mismatch, relative_gap(x_arc, log.x_before(i)));
    const Saltation s = i == instead_at && instead != nullptr
                            ? *instead
                            : instant_saltation(system, log, chain, stops_here, saltation);
    if (s.status != SensitivityStatus::Ok) {
      fail(out, s.status, s.message);
      return false;
    }
    jacobian = s.matrix * (phi * jacobian);
    if (!r.observation) {
      out.events.push_back({i, r.t, r.mode_before, log[last].mode_after, r.guard, s.matrix,
                            s.hybrid_jacobian, s.crossing_rate, s.numerical_reset_jacobian, last,
                            static_cast<int>(chain.size())});
      out.impact_volume_factor *= s.hybrid_jacobian;
    }
    m = log[last].mode_after;
    t = r.t;
    x = log.x_after(last);
    z = log.z_after(last);
  }
  if (!stops_at_event) {
    if (!arcs.propagate(m, t, x, z, out.run.t_final, phi, x_arc, failure)) {
      fail(out, SensitivityStatus::IntegrationFailed, failure);
      return false;
    }
    out.arc_state_mismatch = std::max(out.arc_state_mismatch, relative_gap(x_arc, out.run.x_final));
    jacobian = phi * jacobian;
  }
  out.flow_map_jacobian = jacobian;
  return true;
}

// Guard `guard` of `mode`'s reset applied at (t, x) (no algebraic states), which must lead to
// `target`: false where it fails or leads elsewhere.
bool apply_reset(const HybridSystem& system, ModeId mode, GuardId guard, ModeId target, double t,
                 const Vector& x, Vector& x_plus) {
  const Reset& reset = system.mode(mode).guards[static_cast<size_t>(guard)].reset;
  if (!reset.apply) {  // an identity reset
    x_plus = x;
    return (reset.target == kNoMode ? mode : reset.target) == target;
  }
  x_plus.resize(system.mode(target).flow.nx);
  detail::ApplyProbe apply(system, reset);
  return apply(t, x, Vector(), target, x_plus);
}

// Two surfaces of one mode crossed at one instant, the run taking a's reset then b's: the
// saltation matrix of the other order, b's reset then a's, where both keep to that mode, no
// algebraic states enter, and the other order ends in the same state (the map continuous at
// the corner). Status NotDifferentiable otherwise.
Saltation other_order(const HybridSystem& system, const EventLog& log, long previous, long last,
                      bool stops_here, const SaltationOptions& saltation) {
  const EventRecord& a = log[previous];
  const EventRecord& b = log[last];
  Saltation none;
  none.status = SensitivityStatus::NotDifferentiable;
  const ModeId m = a.mode_before;
  if (a.mode_after != m || b.mode_before != m || a.nz_before != 0 || b.nz_after != 0) return none;
  const Vector x = log.x_before(previous);
  Vector y1, y2;
  const ModeId to_a = log[last].mode_after;
  if (!apply_reset(system, m, b.guard, m, a.t, x, y1) ||
      !apply_reset(system, m, a.guard, to_a, a.t, y1, y2)) {
    return none;
  }
  const Vector end = log.x_after(last);
  if ((y2 - end).lpNorm<Eigen::Infinity>() > 1e-12 * (1.0 + end.lpNorm<Eigen::Infinity>())) {
    return none;
  }
  EventLog swapped;
  EventRecord first = b, second = a;
  first.mode_after = m;
  second.mode_after = to_a;
  swapped.add(first, x, Vector(), y1, Vector());
  swapped.add(second, y1, Vector(), y2, Vector());
  const Saltation sb = event_saltation(system, swapped, 0, false, saltation);
  const Saltation sa = event_saltation(system, swapped, 1, stops_here, saltation);
  if (sb.status != SensitivityStatus::Ok) return sb;
  if (sa.status != SensitivityStatus::Ok) return sa;
  Saltation out = sa;
  out.matrix = sa.matrix * sb.matrix;
  out.crossing_rate = sb.crossing_rate;
  out.numerical_reset_jacobian = sa.numerical_reset_jacobian || sb.numerical_reset_jacobian;
  if (out.matrix.rows() == out.matrix.cols()) out.hybrid_jacobian = out.matrix.determinant();
  return out;
}

// A run with one corner (reset_instants.hpp): its one-sided derivatives, the side the run took
// first. More corners, or a side with an undefined matrix: none.
std::vector<CornerSide> corner_sides(const HybridSystem& system, const detail::ResetInstants& in,
                                     ModeId mode, double t0, ConstVectorRef x0, ConstVectorRef z0,
                                     const SimulationOptions& options,
                                     const SaltationOptions& saltation, FlowMapSensitivity& out) {
  std::vector<CornerSide> sides;
  if (in.corners.size() != 1) return sides;
  const detail::ResetCorner& c = in.corners.front();
  const HybridSystem& s = system;
  const EventRecord& a = out.run.events[c.previous];
  const EventRecord& b = out.run.events[c.follower];
  if (a.guard < 0 || b.guard < 0) return sides;  // a layer's record: no guard to name
  const std::string first = "'" + s.mode(a.mode_before).guards[a.guard].name + "'";
  const std::string second = "'" + s.mode(b.mode_before).guards[b.guard].name + "'";
  if (c.landing && differentiate_chains(system, detail::joined_at(in, c), mode, t0, x0, z0, options,
                                        saltation, out)) {
    sides.push_back({first + ", then " + second + " at once (carried across by the jump)",
                     out.flow_map_jacobian});
  }
  if (differentiate_chains(system, in.chains, mode, t0, x0, z0, options, saltation, out)) {
    sides.push_back({c.landing ? first + ", then " + second + " after a moment in mode '" +
                                     s.mode(b.mode_before).name + "'"
                               : first + ", then " + second,
                     out.flow_map_jacobian});
  }
  if (!c.landing && sides.size() == 1) {
    const bool stops_here = out.run.termination() == Termination::TerminalEvent &&
                            c.follower + 1 == out.run.events.size();
    const Saltation swapped =
        other_order(system, out.run.events, c.previous, c.follower, stops_here, saltation);
    if (swapped.status == SensitivityStatus::Ok &&
        differentiate_chains(system, detail::joined_at(in, c), mode, t0, x0, z0, options, saltation,
                             out, c.previous, &swapped)) {
      sides.push_back({second + ", then " + first, out.flow_map_jacobian});
    }
  }
  if (c.landing && sides.size() < 2) sides.clear();
  if (sides.size() == 2 && a.t != b.t) std::swap(sides[0], sides[1]);  // the run's side first
  return sides;
}
}  // namespace

FlowMapSensitivity flow_map_sensitivity(const HybridSystem& system, ModeId mode, double t0,
                                        ConstVectorRef x0, double t_end,
                                        const SimulationOptions& options, ConstVectorRef z0,
                                        const SaltationOptions& saltation) {
  if (detail::one_pass_applicable(system)) {
    FlowMapSensitivity one =
        detail::one_pass_sensitivity(system, mode, t0, x0, t_end, options, saltation);
    // One pass applies each reset's own saltation matrix as it fires; resets that chain at one
    // instant need their composite, so such runs are differentiated in two, and so are those
    // whose reset failed in one pass at the instant of the reset before it (a carried guard's
    // own matrix may be undefined where the composite is not).
    if (!one.ok()) {
      const EventLog& log = one.run.events;
      const bool at_previous_reset = (one.status == SensitivityStatus::Grazing ||
                                      one.status == SensitivityStatus::NotDifferentiable) &&
                                     log.size() > 0 && !log[log.size() - 1].observation &&
                                     log[log.size() - 1].t == one.run.t_final;
      if (!at_previous_reset) return one;
    }
    if (one.ok() && !detail::group_resets_by_instant(system, one.run, t0, x0, options).has_chain) {
      return one;
    }
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
  const EventLog& log = out.run.events;
  for (long i = 0; i < log.size(); ++i) {
    // The impacts before a hand-over approach grazing; the hand-over itself is not differentiable.
    if (log[i].guard == kZenoHandoverGuard) {
      const Saltation s = event_saltation(system, log, i, false, saltation);
      return fail(out, s.status, s.message);
    }
  }
  const detail::ResetInstants instants =
      detail::group_resets_by_instant(system, out.run, t0, x0, options);
  if (!instants.corners.empty()) {
    std::vector<CornerSide> sides =
        corner_sides(system, instants, mode, t0, x0, z0, options, saltation, out);
    out.events.clear();
    fail(out, SensitivityStatus::NotDifferentiable, instants.corners.front().message);
    out.corner_sides = std::move(sides);
    return out;
  }
  if (!differentiate_chains(system, instants.chains, mode, t0, x0, z0, options, saltation, out)) {
    return out;
  }
  const Matrix& jacobian = out.flow_map_jacobian;
  if (jacobian.rows() == jacobian.cols()) out.volume_factor = jacobian.determinant();
  out.status = SensitivityStatus::Ok;
  return out;
}

}  // namespace saltus::analysis
