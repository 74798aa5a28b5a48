#include "one_pass_sensitivity.hpp"

#include <memory>
#include <vector>

#include "variational_flow.hpp"

namespace saltus::analysis::detail {
namespace {

// What the lifted resets share with the caller: each reset's saltation, in order, and why the
// last one failed.
struct Shared {
  const HybridSystem* system = nullptr;
  SaltationOptions saltation;
  std::vector<int> nx_of_mode;
  std::vector<EventSensitivity> events;
  SensitivityStatus failure = SensitivityStatus::Ok;
  std::string failure_message;
};

Guard lifted_guard(const Guard& g, ModeId mode, GuardId index, int n,
                   const std::shared_ptr<Shared>& shared) {
  Guard lg;
  lg.name = g.name;
  lg.direction = g.direction;
  lg.observe_only = g.observe_only;
  lg.terminal = g.terminal;
  lg.value = [value = g.value, n](double t, ConstVectorRef y, ConstVectorRef z) {
    return value(t, y.head(n), z);
  };
  lg.when_text = g.when_text;
  lg.period = g.period;
  lg.period_origin = g.period_origin;
  lg.scale_offset = g.scale_offset;
  lg.steps_land_on_crossing = g.steps_land_on_crossing;
  // The guard reads x, the first n of the lifted states: the certified search encloses those
  // alone, not the n^2 of the state-transition matrix.
  lg.reads_states = g.reads_states;
  if (lg.reads_states.empty()) {
    for (int i = 0; i < n; ++i) lg.reads_states.push_back(i);
  }
  if (g.enclosure) {
    lg.enclosure = [enclosure = g.enclosure, n](const IntervalJet& t, const IntervalJet* y, int) {
      return enclosure(t, y, n);
    };
  }
  if (g.when) {
    lg.when = [when = g.when, n](double t, ConstVectorRef y, ConstVectorRef z) {
      return when(t, y.head(n), z);
    };
  }
  if (g.gradient) {
    lg.gradient = [gradient = g.gradient, n](double t, ConstVectorRef y, ConstVectorRef z,
                                             VectorRef dpdy, VectorRef dpdz) {
      dpdy.setZero();
      return gradient(t, y.head(n), z, dpdy.head(n), dpdz);
    };
  }
  if (g.observe_only) return lg;
  const Reset original = g.reset;
  const bool terminal = g.terminal;
  lg.reset = Reset::custom(
      original.target, original.chooses_target,
      [original, terminal, mode, index, n, shared](double t, ConstVectorRef y, ConstVectorRef z,
                                                   Jump& jump) {
        const HybridSystem& sys = *shared->system;
        Vector buffer(sys.max_nx()),
            outputs(static_cast<Eigen::Index>(original.output_names.size()));
        Jump inner{original.target, buffer, outputs, jump.failure, shared->nx_of_mode.data()};
        if (original.apply) {
          if (!original.apply(t, y.head(n), z, inner)) {
            jump.cause = inner.cause;
            return false;
          }
        } else {
          buffer.head(n) = y.head(n);
        }
        const int n_plus = shared->nx_of_mode[static_cast<size_t>(inner.target)];
        EventLog log;
        EventRecord r;
        r.t = t;
        r.j = 1;
        r.mode_before = mode;
        r.mode_after = inner.target;
        r.guard = index;
        log.add(r, y.head(n), z, buffer.head(n_plus), Vector());
        const Saltation s = event_saltation(sys, log, 0, terminal, shared->saltation);
        if (s.status != SensitivityStatus::Ok) {
          shared->failure = s.status;
          shared->failure_message = s.message;
          jump.failure = s.message;
          return false;
        }
        jump.target = inner.target;
        jump.x_plus.head(n_plus) = buffer.head(n_plus);
        Eigen::Map<Matrix>(jump.x_plus.data() + n_plus, n_plus, n).noalias() =
            s.matrix * Eigen::Map<const Matrix>(y.data() + n, n, n);
        jump.outputs.head(outputs.size()) = outputs;
        shared->events.push_back({-1, t, mode, inner.target, index, s.matrix, s.hybrid_jacobian,
                                  s.crossing_rate, s.numerical_reset_jacobian});
        return true;
      });
  lg.reset.output_names = original.output_names;
  return lg;
}

}  // namespace

bool one_pass_applicable(const HybridSystem& system) {
  if (system.mode_count() == 0) return false;
  const int n = system.mode(0).flow.nx;
  for (const Mode& m : system.modes()) {
    if (m.flow.kind != FlowKind::Ode || m.flow.nz != 0 || m.flow.nx != n || m.zeno_handover) {
      return false;
    }
  }
  return true;
}

FlowMapSensitivity one_pass_sensitivity(const HybridSystem& system, ModeId mode, double t0,
                                        ConstVectorRef x0, double t_end,
                                        const SimulationOptions& options,
                                        const SaltationOptions& saltation) {
  FlowMapSensitivity out;
  const int n = system.mode(mode).flow.nx;
  auto shared = std::make_shared<Shared>();
  shared->system = &system;
  shared->saltation = saltation;
  for (const Mode& m : system.modes()) shared->nx_of_mode.push_back(m.flow.nx);
  HybridSystem lifted;
  for (const Mode& m : system.modes()) {
    auto ws = std::make_shared<VariationalWorkspace>(m.flow, options.stepper.newton);
    lifted.add_mode(m.name, variational_flow(ws));
  }
  for (ModeId m = 0; m < system.mode_count(); ++m) {
    const auto& guards = system.mode(m).guards;
    for (size_t k = 0; k < guards.size(); ++k) {
      lifted.add_guard(m, lifted_guard(guards[k], m, static_cast<GuardId>(k), n, shared));
    }
  }
  SimulationOptions o = options;
  o.output.record_events = true;
  o.events.band_states = n;  // Phi may grow without bound; the guards read x only
  o.stepper.rtol_per_component.resize(0);
  o.stepper.atol_per_component.resize(0);
  Vector y0(n * (1 + n));
  y0.head(n) = x0;
  Eigen::Map<Matrix>(y0.data() + n, n, n).setIdentity();
  const SimulationResult r = simulate(lifted, mode, t0, y0, t_end, o);
  // The run as the plain system's: states without Phi.
  out.run.summary = r.summary;
  out.run.t_final = r.t_final;
  out.run.final_mode = r.final_mode;
  out.run.x_final = r.x_final.head(n);
  out.run.z_final = r.z_final;
  out.run.trajectory.set_strides(n, 0);
  for (long i = 0; i < r.trajectory.size(); ++i) {
    out.run.trajectory.add(r.trajectory.t(i), r.trajectory.j(i), r.trajectory.mode(i),
                           r.trajectory.x(i).head(n), Vector());
  }
  std::vector<long> resets;
  for (long i = 0; i < r.events.size(); ++i) {
    out.run.events.add(r.events[i], r.events.x_before(i).head(n), r.events.z_before(i),
                       r.events.x_after(i).head(n), r.events.z_after(i), r.events.outputs(i));
    if (!r.events[i].observation && r.events[i].guard != kZenoHandoverGuard) resets.push_back(i);
  }
  const Termination termination = r.termination();
  if (shared->failure != SensitivityStatus::Ok) {
    out.status = shared->failure;
    out.message = shared->failure_message;
    return out;
  }
  if (termination == Termination::Zeno) {
    out.status = SensitivityStatus::ZenoPoint;
    out.message = r.summary.message;
    return out;
  }
  if (!r.summary.ok()) {
    out.status = SensitivityStatus::SimulationFailed;
    out.message = r.summary.message;
    return out;
  }
  if (resets.size() != shared->events.size()) {
    out.status = SensitivityStatus::SimulationFailed;
    out.message = "internal: the resets applied and the events logged differ";
    return out;
  }
  Matrix jacobian = Eigen::Map<const Matrix>(r.x_final.data() + n, n, n);
  const long last = r.events.size() - 1;
  if (termination == Termination::TerminalEvent && last >= 0 && r.events[last].observation) {
    // A terminal section: the derivative of the state at the (state-dependent) stopping time.
    const Saltation s = event_saltation(system, out.run.events, last, true, saltation);
    if (s.status != SensitivityStatus::Ok) {
      out.status = s.status;
      out.message = s.message;
      return out;
    }
    jacobian = s.matrix * jacobian;
  }
  out.events = std::move(shared->events);
  for (size_t k = 0; k < out.events.size(); ++k) {
    out.events[k].event = out.events[k].last_event = resets[k];
    out.impact_volume_factor *= out.events[k].hybrid_jacobian;
  }
  out.flow_map_jacobian = jacobian;
  out.volume_factor = jacobian.determinant();
  out.status = SensitivityStatus::Ok;
  return out;
}

}  // namespace saltus::analysis::detail
