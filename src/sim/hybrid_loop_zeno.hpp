// HybridLoop's Zeno hand-over (included by hybrid_loop.hpp only; step 5 of docs/ARCHITECTURE.md
// "When a guard fires"): at the accumulation point that accumulation.hpp recognised, the run
// switches to the mode's post-Zeno mode at the extrapolated limit state, or stops.
#pragma once

#include "hybrid_loop.hpp"

namespace saltus::detail {

// The accumulation point of the events the Zeno monitor recognised is reached now (the next
// event is below what the dense output resolves): hand over or stop as at t_inf. Leaves the
// guards of the mode it continues in examined (rule_.fired()). False when the run ended.
template <ode::DenseStepper S>
bool HybridLoop<S>::reach_accumulation() {
  const ModeId before = mode_;
  handle_zeno(accumulation_.prediction(), accumulation_.prediction_mode(),
              accumulation_.prediction_guard(), ZenoCause::Predicted);
  return after_zeno_point(before);
}

// Guard k fired again after its own reset with an excursion below the state's resolution and no
// recognised pattern: its Zeno point is now (the time left to it is below what the dense output
// resolves), handed over or stopped as reach_accumulation() does.
template <ode::DenseStepper S>
bool HybridLoop<S>::reach_unresolved_return(int k) {
  const ModeId before = mode_;
  handle_zeno(accumulation_at_once(t_, t_ - accumulation_.last_reset_time()), mode_, k,
              ZenoCause::Unresolved);
  return after_zeno_point(before);
}

// After a Zeno point reached inside an event set: the guards of the mode the run continues in
// are examined (rule_.fired()). False when the run ended.
template <ode::DenseStepper S>
bool HybridLoop<S>::after_zeno_point(ModeId before) {
  if (finished_) return false;
  rule_.fired().clear();
  if (mode_ != before) {
    rule_.enter_new_mode();
    examine_guards_after_reset();
  }
  zeno_point_examined_ = true;
  return !finished_;
}

template <ode::DenseStepper S>
void HybridLoop<S>::handle_zeno(const events::ZenoPrediction& z, ModeId mode, int guard,
                                ZenoCause cause) {
  SimulationSummary& s = out_->summary;
  const Mode& m = system_.mode(mode);
  s.zeno_time = at(z.t_inf);
  s.zeno_ratio = z.ratio;
  s.events_before_zeno = events_total_;
  s.zeno_kind = accumulation_.zeno_kind();
  // Built only when the run stops here: a hand-over must not allocate (reused Simulator).
  auto what = [&] {
    switch (cause) {
      case ZenoCause::Instantaneous:
        return message("Zeno: guard '", m.guards[guard].name, "' of mode '", m.name,
                       "' fires again at once and its reset leaves the state unchanged at t = ",
                       now(), " (accumulation at this instant)");
      case ZenoCause::Unresolved:
        return message("Zeno: guard '", m.guards[guard].name, "' of mode '", m.name,
                       "' fires again ", z.last_cycle, " s after its own reset with an excursion ",
                       "below the state's resolution at t = ", now(),
                       " (accumulation at this instant, no recognised pattern)");
      case ZenoCause::Predicted:
        break;
    }
    return message("Zeno: events of guard '", m.guards[guard].name, "' in mode '", m.name,
                   "' accumulate at t_inf = ", at(z.t_inf), " (cycle of ", z.period,
                   " event(s), duration ratio ", z.ratio, ", last cycle ", z.last_cycle, " s, ",
                   events_total_, " events resolved)");
  };
  if (options_.zeno.policy != events::ZenoOptions::Policy::Handover || !m.zeno_handover) {
    stop(Termination::Zeno,
         what() + (m.zeno_handover ? "; stopped (zeno.policy = stop)"
                                   : "; no post-Zeno mode given for mode '" + m.name + "'"));
    return;
  }
  const ZenoHandover& h = *m.zeno_handover;
  const Mode& tm = system_.mode(h.target);
  Vector& x_inf = xdot_;  // scratch of size max_nx
  accumulation_.limit_state(std::max(1, z.period), x_.head(nx_), x_inf.head(nx_));
  // Between the last event and t_inf the state is within the accumulation's reach of x_inf.
  const double t_inf = std::max(z.t_inf, t_);
  const double t_stop = std::min(t_inf, t_end_);
  recorder_.samples_before(at(t_stop), j_, mode_, x_inf.head(nx_), z_.head(nz_));
  t_ = t_stop;
  x_.head(nx_) = x_inf.head(nx_);
  if (t_inf > t_end_) {
    // The accumulation lies after t_end: the run ends at t_end, within its reach of x_inf.
    recorder_.samples_at(now(), j_, mode_, x_.head(nx_), z_.head(nz_));
    stop(Termination::EndTimeReached, what() + "; reached t_end first (state extrapolated)");
    return;
  }
  scales_.note(x_.data(), nx_);  // the limit state
  if (h.apply) {
    reset_failure_.clear();
    if (!h.apply(now(), x_.head(nx_), z_.head(nz_), scales_.data(), x_plus_.head(tm.flow.nx),
                 reset_failure_)) {
      out_->summary.handover_failed = true;
      stop(Termination::ResetFailed, what() + "; the hand-over into mode '" + tm.name +
                                         "' has no post-Zeno state: " + reset_failure_);
      return;
    }
  } else if (h.map) {
    h.map(now(), x_.head(nx_), z_.head(nz_), x_plus_.head(tm.flow.nx));
  } else {
    x_plus_.head(tm.flow.nx) = x_.head(tm.flow.nx);
  }
  if (!x_plus_.head(tm.flow.nx).allFinite()) {
    stop(Termination::NonFiniteState, what() + "; the hand-over map produced a non-finite state");
    return;
  }
  if (!reinitialise(tm, h.target, tm.flow.nx, tm.flow.nz, nullptr)) return;
  ++j_;
  ++s.zeno_handovers;
  if (recorder_.record_events()) {
    EventRecord r;
    r.t = now();
    r.j = j_;
    r.mode_before = mode_;
    r.mode_after = h.target;
    r.guard = kZenoHandoverGuard;
    recorder_.event(r, x_.head(nx_), z_.head(nz_), x_plus_.head(tm.flow.nx),
                    z_plus_.head(tm.flow.nz), outputs_.head(0));
  }
  const EventInfo info{now(),
                       j_,
                       mode_,
                       h.target,
                       kZenoHandoverGuard,
                       false,
                       false,
                       false,
                       x_.head(nx_),
                       z_.head(nz_),
                       x_plus_.head(tm.flow.nx),
                       z_plus_.head(tm.flow.nz),
                       outputs_.head(0)};
  const bool go_on = notify_observer(info);
  commit_post_reset(h.target, tm.flow.nx, tm.flow.nz);
  if (!go_on) return;
  accumulation_.reset();
  rule_.forget_applied();
}

}  // namespace saltus::detail
