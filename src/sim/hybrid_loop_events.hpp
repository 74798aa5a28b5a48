// HybridLoop's event set (included by hybrid_loop.hpp only): the left limit at the event time,
// the resets of the fired guards in declaration order (steps 3 and 4 of docs/ARCHITECTURE.md
// "When a guard fires"; the rule itself is firing_rule.hpp), observers, DAE re-initialisation
// and the restart of the integrator after the set. (Just over 450 lines: one event set, from
// its left limit to the restart, and the start's set of Guard::SetRule guards that enters it.)
#pragma once

#include "hybrid_loop.hpp"

namespace saltus::detail {

template <ode::DenseStepper S>
void HybridLoop<S>::handle_events(double t) {
  const ModeId mode_before_set = mode_;
  // Event sets that follow each other without time advancing cycle at this instant (an impact,
  // a hand-over and a mode that leaves into the same impact again): beyond
  // events.max_resets_per_instant of them the run stops, naming the instant, the events and the
  // state (issue 34), instead of running into the event cap.
  xdot_at_current_ = false;  // the left limit below replaces x_
  sets_at_instant_ = t == last_set_t_ ? sets_at_instant_ + 1 : 1;
  last_set_t_ = t;
  if (sets_at_instant_ > options_.events.max_resets_per_instant) {
    stop(Termination::EventCap,
         message("instant cycle: ", sets_at_instant_ - 1, " event sets at t = ", at(t),
                 " in a row without time advancing (cap events.max_resets_per_instant = ",
                 options_.events.max_resets_per_instant, "), now in mode '", current_mode().name,
                 "' at x = ", vector_text(x_.head(nx_)), last_events_text()));
    return;
  }
  // Left limit at the event time.
  record_samples_until(t);
  if (finished_) return;
  if (t == t_) {  // at the start of the step (a re-trigger)
    copy(x_, nx_, x_plus_);
  } else {
    stepper_.interpolate(t, x_plus_.head(nx_));
  }
  copy(x_plus_, nx_, x_);
  // The reset sees the state on the invariant manifold: an elastic impact then keeps the
  // invariants to its round-off instead of passing on the last partial step's error.
  if (current_mode().projection && !project_onto_invariants(current_mode())) return;
  if (nz_ > 0 && !stepper_.evaluator().solve_algebraic(t, x_.head(nx_), z_.head(nz_))) {
    stop(Termination::NewtonFailure,
         message("mode '", current_mode().name,
                 "': algebraic equations unsolvable at the event t = ", at(t)));
    return;
  }
  t_ = t;
  recorder_.step(now(), j_, mode_, x_.head(nx_), z_.head(nz_));
  if (!note_trigger_sides()) return;
  std::vector<int>& fired = rule_.fired();
  // Crossings outside their guards' jump sets pass without a jump (Guard::when).
  if (rule_.pass_outside_jump_sets(current_mode(), site()) != FiringRule::Outcome::Ok) {
    stop_on_condition("at the event");
    return;
  }
  if (fired.empty()) {  // only such crossings: the guards are examined where they passed
    rule_.begin_set();  // no reset of this set is anyone's own (nor one of an earlier set)
    examine_guards_after_reset();
    if (finished_) return;
  }
  // A fired guard whose excursion the dense output could not resolve (it never got below
  // zero): accumulating events have reached what the state can represent; so has a guard
  // fired again after its own reset, recognised pattern or not (a corner micro-bouncing at
  // 1e-9 m/s beside a closed one, its returns found late at a steady period: issue 11).
  for (int k : fired) {
    if (!locator_.unresolved_excursion(k)) continue;
    if (accumulating()) {
      if (!reach_accumulation()) return;
      break;
    }
    if (accumulation_.follows_own_reset(mode_, k)) {
      if (!reach_unresolved_return(k)) return;
      break;
    }
  }
  apply_event_set(mode_before_set);
}

template <ode::DenseStepper S>
void HybridLoop<S>::fire_at_start() {
  last_set_t_ = t_;
  sets_at_instant_ = 1;
  std::vector<int>& fired = rule_.fired();
  fired.assign(start_fired_.begin(), start_fired_.end());
  for (int k : fired) rule_.set_retrigger(k, false);
  if (!note_trigger_sides()) return;
  apply_event_set(mode_);
}

template <ode::DenseStepper S>
void HybridLoop<S>::apply_event_set(ModeId mode_before_set) {
  std::vector<int>& fired = rule_.fired();
  rule_.begin_set();
  set_had_reset_ = false;
  int resets_here = 0;
  bool chained = false;
  while (!fired.empty()) {
    bool mode_changed = false;
    rule_.start_round();
    // A reset may reach a Zeno point, whose hand-over examines the guards again (fired()
    // changes): the round iterates its own copy.
    round_.assign(fired.begin(), fired.end());
    zeno_point_examined_ = false;
    int groups_applied = 0;  // the exclusive groups (Guard::exclusive_group) of this round
    for (int k : round_) {
      const int group = current_mode().guards[k].exclusive_group;
      if (group >= 0 && group < 31) {
        if (groups_applied & (1 << group)) continue;  // one jump of the group per round
        groups_applied |= 1 << group;
      }
      if (++resets_here > options_.events.max_resets_per_instant) {
        stop(Termination::EventCap,
             message("beating: ", resets_here - 1, " resets at t = ", now(), " in mode '",
                     current_mode().name, "' without leaving the guard set (cap ",
                     "events.max_resets_per_instant = ", options_.events.max_resets_per_instant,
                     ")", last_events_text()));
        return;
      }
      const bool retrigger = rule_.retrigger(k);
      const ModeId from = mode_;
      if (!apply_reset(k, retrigger, chained)) return;
      if (zeno_point_examined_) break;
      // Cleared below if the mode changed.
      rule_.applied(k, !system_.modes()[from].guards[k].observe_only);
      chained = true;
      if (finished_) return;
      if (mode_ != from) {
        mode_changed = true;
        break;
      }
    }
    if (finished_) return;
    if (zeno_point_examined_) continue;  // fired() holds the guards firing after the Zeno point
    if (mode_changed) rule_.enter_new_mode();
    examine_guards_after_reset();
    if (finished_) return;
    if (rule_.take_accumulation_reached() && !reach_accumulation()) return;
  }
  restart_stepper(mode_ == mode_before_set);
}

// Applies guard k's reset to (t_, x_, z_); logs the event; updates mode_.
template <ode::DenseStepper S>
bool HybridLoop<S>::apply_reset(int k, bool retrigger, bool chained) {
  const Mode& m = current_mode();
  const Guard& g = m.guards[k];
  if (++events_total_ > options_.events.max_events) {
    stop(Termination::EventCap,
         message("event cap: events.max_events = ", options_.events.max_events,
                 " reached at t = ", now(), " (guard '", g.name, "' in mode '", m.name, "')",
                 prediction_text(), last_events_text()));
    return false;
  }
  if (g.observe_only) return record_observation(k, chained);
  set_had_reset_ = true;
  copy(x_, nx_, x_minus_);  // for the rate check of examine_guards_after_reset
  n_outputs_ = static_cast<int>(g.reset.output_names.size());
  ModeId target = g.reset.target;
  if (g.reset.apply) {
    Jump jump{
        g.reset.target, x_plus_,     outputs_.head(n_outputs_), reset_failure_, nx_of_mode_.data(),
        scales_.data(), atol_.data()};
    reset_note_.clear();
    if (recorder_.record_events()) jump.note = &reset_note_;
    bool ok = false;
    try {
      ok = g.reset.apply(now(), x_.head(nx_), z_.head(nz_), jump);
    } catch (const CausedError& e) {
      reset_failure_ = e.what();
      jump.cause = e.cause();
    } catch (const std::exception& e) {
      reset_failure_ = e.what();
    }
    if (!ok) {
      out_->summary.reset_cause = jump.cause;
      stop(Termination::ResetFailed,
           message("the reset of guard '", g.name, "' in mode '", m.name, "' at t = ", now(),
                   " has no post-event state: ", reset_failure_, last_events_text()));
      return false;
    }
    target = jump.target;
  }
  if (target < 0 || target >= system_.mode_count()) {
    stop(Termination::InvalidInput,
         message("guard '", g.name, "' of mode '", m.name, "' reset to unknown mode id ", target,
                 " at t = ", now(), " (", system_.mode_count(), " modes)"));
    return false;
  }
  const Mode& tm = system_.mode(target);
  const int nx_t = tm.flow.nx, nz_t = tm.flow.nz;
  if (g.reset.identity && nx_t != nx_) {
    stop(Termination::InvalidInput,
         message("guard '", g.name, "' of mode '", m.name, "': identity reset into mode '", tm.name,
                 "' changes the state size (", nx_, " -> ", nx_t, ") at t = ", now()));
    return false;
  }
  if (!g.reset.apply) copy(x_, nx_t, x_plus_);
  if (!all_finite(x_plus_, nx_t)) {
    stop(Termination::NonFiniteState,
         message("reset of guard '", g.name, "' (mode '", m.name, "' -> '", tm.name,
                 "') produced a non-finite state ", vector_text(x_plus_.head(nx_t)),
                 " at t = ", now(), " from x- = ", vector_text(x_.head(nx_))));
    return false;
  }
  if (!all_finite(outputs_, n_outputs_)) {
    stop(Termination::NonFiniteState,
         message("outputs of the reset of guard '", g.name, "' (mode '", m.name,
                 "') are not finite: ", vector_text(outputs_.head(n_outputs_)), " at t = ", now()));
    return false;
  }
  if (!reinitialise(tm, target, nx_t, nz_t, &g)) return false;
  // A re-trigger of a guard at rest on its surface (no rate: a ball placed on the floor) whose
  // reset changes nothing; a guard with a rate fires once and then waits (firing rule). Or the
  // same guard's identity resets in a row below the minimum gap (Accumulation::stalled). Judged
  // on the states that set the guard band (an augmented state's extra part may be huge).
  const Eigen::Index ns = band_state_count(options_.events, nx_);
  bool identity = false;
  if (target == mode_) {  // both finite here: max |x+ - x-| and max |x-| by plain loops
    double change = 0.0, size = 0.0;
    for (Eigen::Index i = 0; i < ns; ++i) {
      change = std::max(change, std::abs(x_plus_[i] - x_[i]));
      size = std::max(size, std::abs(x_[i]));
    }
    identity = change <= 8 * std::numeric_limits<double>::epsilon() * (1.0 + size);
  }
  const bool stalled = accumulation_.stalled(t_, mode_, k, identity);
  accumulation_.note_reset(t_, mode_, k, identity);
  const bool fixed_point = (retrigger && rule_.at_rest(k) && identity) || stalled;
  ++j_;
  ++out_->summary.events_per_guard[mode_][k];
  if (recorder_.record_events()) {
    EventRecord r;
    r.t = now();
    r.j = j_;
    r.mode_before = mode_;
    r.mode_after = target;
    r.guard = k;
    r.retrigger = retrigger;
    r.chained = chained;
    recorder_.event(r, x_.head(nx_), z_.head(nz_), x_plus_.head(nx_t), z_plus_.head(nz_t),
                    outputs_.head(n_outputs_));
    if (g.reset.apply && !reset_note_.empty()) {
      out_->events.set_note(out_->events.size() - 1, std::move(reset_note_));
      reset_note_.clear();
    }
  }
  // The observer's view only when there is an observer (building it costs five Eigen::Refs).
  const bool go_on =
      !options_.on_event || notify_observer(event_info(k, target, nx_t, nz_t, retrigger, chained));
  const ModeId from = mode_;
  commit_post_reset(target, nx_t, nz_t);
  scales_.note(x_.data(), nx_);
  if (!go_on) return false;
  recorder_.step(now(), j_, mode_, x_.head(nx_), z_.head(nz_));
  if (g.terminal) {
    stop(Termination::TerminalEvent,
         message("terminal guard '", g.name, "' of mode '", m.name, "' fired at t = ", now()));
    return false;
  }
  if (fixed_point) {
    // The reset maps the state to itself while the flow pushes it through the guard again:
    // the accumulation point is this very instant.
    handle_zeno(accumulation_at_once(t_, 0.0), from, k, ZenoCause::Instantaneous);
    return !finished_;
  }
  switch (accumulation_.on_event(t_, from, k, mode_, x_.head(nx_))) {
    case Accumulation::Verdict::None:
      return true;
    case Accumulation::Verdict::HandoverDue:
      handle_zeno(accumulation_.prediction(), from, k, ZenoCause::Predicted);
      return !finished_;
    case Accumulation::Verdict::LimitReached:
      return reach_accumulation();
    case Accumulation::Verdict::UnrecognisedAccumulation:
      stop(Termination::EventCap,
           message(
               "events accumulate without a recognised Zeno pattern: ", accumulation_.small_gaps(),
               " consecutive gaps below zeno.min_gap = ", options_.zeno.min_gap,
               " (relative) at t = ", now(), " (guard '", g.name, "' in mode '", m.name, "')",
               prediction_text(), last_events_text()));
      return false;
  }
  return true;
}

// An observer guard fired: report it (log, on_event) without a jump.
template <ode::DenseStepper S>
bool HybridLoop<S>::record_observation(int k, bool chained) {
  const Guard& g = current_mode().guards[k];
  ++out_->summary.events_per_guard[mode_][k];
  if (recorder_.record_events()) {
    EventRecord r;
    r.t = now();
    r.j = j_;
    r.mode_before = r.mode_after = mode_;
    r.guard = k;
    r.chained = chained;
    r.observation = true;
    recorder_.event(r, x_.head(nx_), z_.head(nz_), x_.head(nx_), z_.head(nz_), outputs_.head(0));
  }
  n_outputs_ = 0;
  x_plus_.head(nx_) = x_.head(nx_);  // "after" = "before" for the observer's view
  z_plus_.head(nz_) = z_.head(nz_);
  EventInfo info = event_info(k, mode_, nx_, nz_, false, chained);
  info.observation = true;
  if (!notify_observer(info)) return false;
  if (g.terminal) {
    stop(Termination::TerminalEvent, message("terminal observer '", g.name, "' of mode '",
                                             current_mode().name, "' fired at t = ", now()));
    return false;
  }
  return true;
}

// The observer's view of the event being applied (states before commit_post_reset).
template <ode::DenseStepper S>
EventInfo HybridLoop<S>::event_info(int k, ModeId target, int nx_t, int nz_t, bool retrigger,
                                    bool chained) const {
  return EventInfo{now(),
                   j_,
                   mode_,
                   target,
                   k,
                   retrigger,
                   chained,
                   /*observation=*/false,
                   x_.head(nx_),
                   z_.head(nz_),
                   x_plus_.head(nx_t),
                   z_plus_.head(nz_t),
                   outputs_.head(n_outputs_)};
}

// Calls options.on_event; false (and the run stopped) when it asks to stop.
template <ode::DenseStepper S>
bool HybridLoop<S>::notify_observer(const EventInfo& info) {
  if (!options_.on_event) return true;
  if (options_.on_event(info) == CallbackResult::Continue) return true;
  const Mode& m = system_.mode(info.mode_before);
  stop(Termination::TerminalEvent,
       message("stopped by the on_event callback after ",
               info.guard == kZenoHandoverGuard ? std::string("the Zeno hand-over")
                                                : "guard '" + m.guards[info.guard].name + "'",
               " of mode '", m.name, "' at t = ", info.t, " (j = ", info.j, ")"));
  return false;
}

// Solves g_target(t, x+, z+) = 0 for z+ (starting from z- when sizes agree).
// `by`: the guard whose reset this is, or nullptr for the Zeno hand-over (for the message).
template <ode::DenseStepper S>
bool HybridLoop<S>::reinitialise(const Mode& tm, ModeId target, int nx_t, int nz_t,
                                 const Guard* by) {
  if (nz_t == 0) return true;
  if (target == mode_ && nz_t == nz_) {
    z_plus_.head(nz_t) = z_.head(nz_);
  } else {
    z_plus_.head(nz_t).setZero();
  }
  stepper_.set_flow(tm.flow);
  const bool ok = stepper_.evaluator().solve_algebraic(t_, x_plus_.head(nx_t), z_plus_.head(nz_t));
  stepper_.set_flow(current_mode().flow);
  if (!ok) {
    stop(Termination::NewtonFailure,
         message("re-initialisation after ",
                 by ? "guard '" + by->name + "'" : std::string("the Zeno hand-over"), " (mode '",
                 current_mode().name, "' -> '", tm.name, "') failed at t = ", now(),
                 ": 0 = g(t, x+, z) has residual ", stepper_.evaluator().last_residual(), " after ",
                 stepper_.evaluator().last_iterations(),
                 " Newton iterations; x+ = ", vector_text(x_plus_.head(nx_t))));
    return false;
  }
  return true;
}

template <ode::DenseStepper S>
void HybridLoop<S>::commit_post_reset(ModeId target, int nx_t, int nz_t) {
  copy(x_plus_, nx_t, x_);
  copy(z_plus_, nz_t, z_);
  if (target != mode_) {
    mode_ = target;
    nx_ = nx_t;
    nz_ = nz_t;
    stepper_.set_flow(current_mode().flow);
  }
}

// Before the first reset of an event set (FiringRule::note_trigger_sides).
template <ode::DenseStepper S>
bool HybridLoop<S>::note_trigger_sides() {
  const Mode& m = current_mode();
  if (rule_.fired().size() == m.guards.size()) {  // all fired (fired() holds distinct guards)
    rule_.clear_trigger_sides();  // nothing to evaluate: spares the site's Refs and band
    return true;
  }
  note_bands(m);
  if (rule_.note_trigger_sides(m, site(), guards_) == FiringRule::Outcome::Ok) return true;
  stop(Termination::NonFiniteState,
       message("guard '", m.guards[rule_.failed_guard()].name, "' of mode '", m.name, "' is ",
               rule_.failed_value(), " at the event t = ", now()));
  return false;
}

// Step 4 after the resets (FiringRule::examine_after_reset): leaves the guards that fire at
// once in rule_.fired().
template <ode::DenseStepper S>
void HybridLoop<S>::examine_guards_after_reset() {
  const Mode& m = current_mode();
  scales_.note_algebraic(z_.data(), nz_);
  note_bands(m);
  const FiringRule::Outcome o =
      rule_.examine_after_reset(m, site(), x_minus_.head(nx_), guards_, *this);
  xdot_at_current_ = false;  // the next reset or step moves the state
  if (o == FiringRule::Outcome::Ok) return;
  const Guard& g = m.guards[rule_.failed_guard()];
  if (o == FiringRule::Outcome::NonFiniteGuard) {
    stop(Termination::NonFiniteState,
         message("guard '", g.name, "' of mode '", m.name, "' is ", rule_.failed_value(),
                 " after a reset at t = ", now()));
    return;
  }
  if (o == FiringRule::Outcome::NonFiniteCondition) {
    stop_on_condition("after a reset at");
    return;
  }
  stop(Termination::ResetFailed,
       message("the reset of guard '", g.name, "' in mode '", m.name, "' at t = ", now(),
               " leaves the guard on its surface moving into its trigger side (rate ",
               rule_.surface_rate(), " after the reset, ", rule_.rate_before(),
               " before): the jump does not separate, so the guard would fire "
               "again at once; x- = ",
               vector_text(x_minus_.head(nx_)), ", x+ = ", vector_text(x_.head(nx_)),
               last_events_text()));
}

// A guard's jump set (Guard::when) read NaN where the guard would fire (rule_.failed_guard()).
template <ode::DenseStepper S>
void HybridLoop<S>::stop_on_condition(const char* where) {
  const Mode& m = current_mode();
  const Guard& g = m.guards[rule_.failed_guard()];
  stop(Termination::NonFiniteState,
       message("the condition of guard '", g.name, "' of mode '", m.name, "' (when",
               g.when_text.empty() ? std::string() : " = '" + g.when_text + "'", ") is ",
               rule_.failed_value(), " ", where, " t = ", now(),
               " at x = ", vector_text(x_.head(nx_)), last_events_text()));
}

template <ode::DenseStepper S>
void HybridLoop<S>::restart_stepper(bool keep_step_size) {
  read_invariants();  // a reset may change them (restitution < 1) or the mode
  const ode::StepStatus st = stepper_.restart(t_, x_.head(nx_), z_.head(nz_), keep_step_size);
  if (st != ode::StepStatus::Accepted) {
    stop_on_step(st);
    return;
  }
  chatter_.enter(current_mode(), now(), x_.head(nx_), z_.head(nz_));
  // The carried step may be many times the next arc when events accumulate (a polynomial
  // flight has zero error estimate, so the controller grows h by fac_max each step). The last
  // inter-event gap is the natural scale of the next arc: start with at most twice it, so the
  // guard samples resolve the arc instead of a dip search inside one sample interval.
  if (!set_had_reset_) return;  // observations only: the arc goes on unchanged
  if (keep_step_size && previous_event_t_ < t_) {
    stepper_.limit_next_step(2.0 * (t_ - previous_event_t_));
  }
  previous_event_t_ = t_;
}

}  // namespace saltus::detail
