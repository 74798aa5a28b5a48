// The simulator loop for one integrator type (private to src/sim; see simulator.hpp for the
// semantics it implements). Everything it writes during a run lives in members sized in the
// constructor, so integrating, locating and resetting do not allocate.
//
// Why ~1000 lines: the discrete update (event sets, resets, the firing rule of
// docs/ARCHITECTURE.md), the Zeno hand-over and the recording still share the loop's state
// (t, x, z, mode, stepper, guard states). Event location (event_locator.hpp), the post-event
// history (post_event_states.hpp) and the messages (run_messages.hpp) are their own types; the
// split of the rest into types with narrow interfaces is issue 10.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include "event_locator.hpp"
#include "guard_arming.hpp"
#include "post_event_states.hpp"
#include "run_messages.hpp"
#include "saltus/core/error.hpp"
#include "saltus/core/hybrid_system.hpp"
#include "saltus/events/predictive_step.hpp"
#include "saltus/events/zeno_monitor.hpp"
#include "saltus/ode/dense_stepper.hpp"
#include "saltus/ode/error_norm.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::detail {

template <ode::DenseStepper S>
class HybridLoop {
 public:
  HybridLoop(const HybridSystem& system, const SimulationOptions& options)
      : system_(system),
        options_(options),
        stepper_(options.stepper, system.max_nx(), system.max_nz()),
        zeno_(options.zeno),
        max_nx_(system.max_nx()),
        max_nz_(system.max_nz()),
        max_guards_(system.max_guards()),
        x_(max_nx_),
        z_(max_nz_),
        x_plus_(max_nx_),
        z_plus_(max_nz_),
        xdot_(max_nx_),
        dpdx_(max_nx_),
        dpdz_(max_nz_),
        zdot_(max_nz_),
        outputs_(system.max_reset_outputs()),
        x_minus_(max_nx_),
        invariant_target_(std::max(1, system.max_invariants())),
        nx_of_mode_(system.mode_count()),
        locator_(options.events, max_nx_, max_nz_, max_guards_),
        guards_(max_guards_),
        applied_(max_guards_),
        fired_retrigger_(max_guards_),
        trigger_side_(max_guards_),
        at_rest_(max_guards_),
        post_event_states_(max_nx_) {
    fired_.reserve(max_guards_);
    next_fired_.reserve(max_guards_);
    for (ModeId i = 0; i < system.mode_count(); ++i) nx_of_mode_[i] = system.mode(i).flow.nx;
  }

  void run(ModeId mode, double t0, ConstVectorRef x0, ConstVectorRef z0, double t_end,
           SimulationResult& out) {
    const auto wall_start = std::chrono::steady_clock::now();
    begin(mode, t0, x0, z0, t_end, out);
    try {
      if (!finished_) loop();
    } catch (const std::exception& e) {
      // A flow or guard of the model threw (a mass matrix that became singular, dependent
      // contact directions): the run ends with what it computed so far and the model's message.
      stop(Termination::ModelError,
           message("the model failed in mode '", system_.mode(mode_).name, "' after t = ", t_, ": ",
                   e.what(), last_events_text()));
    }
    finish(wall_start);
  }

 private:
  // ------------------------------------------------------------------ set-up and ending
  void begin(ModeId mode, double t0, ConstVectorRef x0, ConstVectorRef z0, double t_end,
             SimulationResult& out) {
    const Mode& m = system_.mode(mode);
    if (x0.size() != m.flow.nx) {
      throw_error("initial state has ", x0.size(), " entries; mode '", m.name,
                  "' has nx = ", m.flow.nx);
    }
    if (z0.size() != 0 && z0.size() != m.flow.nz) {
      throw_error("initial algebraic guess has ", z0.size(), " entries; mode '", m.name,
                  "' has nz = ", m.flow.nz);
    }
    if (!(t_end >= t0)) throw_error("t_end = ", t_end, " must be >= t0 = ", t0);
    if (!x0.allFinite()) throw_error("initial state is not finite");
    out_ = &out;
    out.events.clear();
    out.trajectory.clear();
    out.trajectory.set_strides(max_nx_, max_nz_);
    if (options_.output.record_events) {
      out.events.reserve(options_.output.reserve_events, max_nx_, max_nz_,
                         system_.max_reset_outputs());
    }
    out.trajectory.reserve(options_.output.reserve_samples);
    SimulationSummary& s = out.summary;
    // Reset field by field, keeping the capacity of the strings and per-guard counters, so a
    // reused Simulator does not allocate per run either.
    std::vector<std::vector<long>> per_guard = std::move(s.events_per_guard);
    std::string text = std::move(s.message);
    s = SimulationSummary{};
    s.events_per_guard = std::move(per_guard);
    s.message = std::move(text);
    s.message.clear();
    s.message.reserve(128);  // once: the end-of-run message then fits without allocating
    s.integrator = S::kName;
    s.t_start = t0;
    s.events_per_guard.resize(system_.mode_count());
    for (ModeId i = 0; i < system_.mode_count(); ++i) {
      s.events_per_guard[i].assign(system_.mode(i).guards.size(), 0);
    }
    stats_base_ = stepper_.stats();
    guard_evaluations_base_ = locator_.guard_evaluations();
    root_evaluations_base_ = locator_.root_evaluations();
    zeno_.reset();
    pattern_ = events::ZenoPrediction{};
    post_event_states_.clear();
    previous_event_t_ = -kInfinity;
    finished_ = false;
    mode_ = mode;
    t_ = t0;
    t_end_ = t_end;
    j_ = 0;
    events_total_ = 0;
    next_sample_ = 0;
    skip_samples_before(t0);
    nx_ = m.flow.nx;
    nz_ = m.flow.nz;
    x_.head(nx_) = x0;
    if (z0.size() == nz_) {
      z_.head(nz_) = z0;
    } else {
      z_.head(nz_).setZero();
    }
    stepper_.set_flow(m.flow);
    if (nz_ > 0 && !stepper_.evaluator().solve_algebraic(t_, x_.head(nx_), z_.head(nz_))) {
      stop(Termination::NewtonFailure,
           message("mode '", m.name,
                   "': the initial algebraic state cannot be made consistent "
                   "(0 = g(t0, x0, z)): residual ",
                   stepper_.evaluator().last_residual(), " after ",
                   stepper_.evaluator().last_iterations(), " Newton iterations at t0 = ", t_,
                   "; give a better z0 or check dg/dz"));
      return;
    }
    // Initial arming: on the trigger side is an inconsistent start, on the surface is disarmed.
    for (GuardId k = 0; k < static_cast<GuardId>(m.guards.size()); ++k) {
      const Guard& g = m.guards[k];
      const double p = g.value(t_, x_.head(nx_), z_.head(nz_));
      guards_.p_start[k] = p;
      if (!std::isfinite(p)) {
        stop(Termination::NonFiniteState,
             message("guard '", g.name, "' of mode '", m.name, "' is ", p, " at t0 = ", t_));
        return;
      }
      const double s = oriented(g.direction, p);
      const double tol = band();
      if (g.direction != Direction::Either && s > tol && g.observe_only) {
        guards_.arming[k] = Arming::AwayPending;  // an observer waits for its other side
        continue;
      }
      if (g.direction != Direction::Either && s > tol) {
        stop(Termination::InvalidInput,
             message("the initial state is on the trigger side of guard '", g.name, "' in mode '",
                     m.name, "' (p = ", p, " at t0 = ", t_, ", direction ",
                     g.direction == Direction::Rising ? "rising" : "falling",
                     "): start where the guard has not fired, or in the mode its reset leads to"));
        return;
      }
      guards_.arming[k] = Arming::Armed;
      if (std::abs(p) <= tol && arm_on_surface(k, g, s) == Departure::IntoTrigger) {
        guards_.arming[k] = Arming::AtZero;  // fires at t0 on the first step (see EventLocator)
      }
    }
    read_invariants();
    const ode::StepStatus st = stepper_.restart(t_, x_.head(nx_), z_.head(nz_), false);
    if (st != ode::StepStatus::Accepted) {
      stop_on_step(st);
      return;
    }
    record_sample_at_current();
    if (options_.output.record_steps) add_sample(t_, x_.head(nx_), z_.head(nz_));
  }

  void finish(std::chrono::steady_clock::time_point wall_start) {
    SimulationResult& out = *out_;
    SimulationSummary& s = out.summary;
    // A run that ended before t_end closes its sampled trajectory with the state where it
    // stopped, so the output reaches the failure (or the terminal event, or the Zeno stop).
    const Trajectory& tr = out.trajectory;
    if (s.termination != Termination::EndTimeReached && !options_.output.sample_times.empty() &&
        (tr.size() == 0 || tr.t(tr.size() - 1) < t_) && nx_ > 0 && x_.head(nx_).allFinite()) {
      add_sample(t_, x_.head(nx_), z_.head(nz_));
    }
    s.t_final = t_;
    s.jumps = j_;
    s.final_mode = mode_;
    const ode::StepperStats& now = stepper_.stats();
    s.stepper.accepted_steps = now.accepted_steps - stats_base_.accepted_steps;
    s.stepper.rejected_steps = now.rejected_steps - stats_base_.rejected_steps;
    s.stepper.rhs_evaluations = now.rhs_evaluations - stats_base_.rhs_evaluations;
    s.stepper.jacobian_evaluations = now.jacobian_evaluations - stats_base_.jacobian_evaluations;
    s.stepper.lu_decompositions = now.lu_decompositions - stats_base_.lu_decompositions;
    s.stepper.restarts = now.restarts - stats_base_.restarts;
    s.guard_evaluations = locator_.guard_evaluations() - guard_evaluations_base_;
    s.root_evaluations = locator_.root_evaluations() - root_evaluations_base_;
    s.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    out.t_final = t_;
    out.final_mode = mode_;
    out.x_final = x_.head(nx_);
    out.z_final = z_.head(nz_);
  }

  // ------------------------------------------------------------------ the loop
  void loop() {
    while (!finished_) {
      if (t_ >= t_end_) {
        char text[64];
        std::snprintf(text, sizeof text, "reached t_end = %.17g", t_end_);
        out_->summary.termination = Termination::EndTimeReached;
        out_->summary.message.assign(text);  // reuses the string's capacity (no allocation)
        finished_ = true;
        return;
      }
      if (options_.events.predictive_step) apply_predictive_step();
      const ode::StepStatus st = stepper_.step(t_end_);
      if (st != ode::StepStatus::Accepted) {
        stop_on_step(st);
        return;
      }
      const Mode& m = system_.mode(mode_);
      const auto scan = locator_.scan(stepper_, m, x_.head(nx_), z_.head(nz_), guards_);
      if (scan == EventLocator<S>::Scan::NoEvent) {
        locator_.commit(guards_);
        t_ = stepper_.interval().t1;
        x_.head(nx_) = stepper_.state();
        if (nz_ > 0) z_.head(nz_) = locator_.end_algebraic();
        record_samples_until(t_);
        if (options_.output.record_steps) add_sample(t_, x_.head(nx_), z_.head(nz_));
        if (options_.on_progress) options_.on_progress(t_);
        if (m.projection) project_after_step(m);
        continue;
      }
      if (scan != EventLocator<S>::Scan::Event) {
        stop_on_scan_failure(scan, m);
        return;
      }
      fired_.assign(locator_.fired().begin(), locator_.fired().end());
      for (int k : fired_) fired_retrigger_[k] = locator_.retrigger(k) ? 1 : 0;
      handle_events(locator_.event_time());
      if (options_.on_progress) options_.on_progress(t_);
    }
  }

  void apply_predictive_step() {
    const Mode& m = system_.mode(mode_);
    double h = kInfinity;
    const double h_err = stepper_.step_size();
    const double h_min = options_.events.predictive_h_min > 0.0
                             ? options_.events.predictive_h_min
                             : ode::minimum_step(t_, options_.stepper);
    for (size_t k = 0; k < m.guards.size(); ++k) {
      const Guard& g = m.guards[k];
      if (guards_.arming[k] != Arming::Armed || g.direction == Direction::Either || !g.gradient)
        continue;
      const double sign = orientation(g.direction);
      double rate = 0.0;
      if (!guard_rate(g, x_.head(nx_), rate)) continue;
      const double pdot = sign * rate;
      const events::PredictiveStep ps = events::predictive_step(
          sign * guards_.p_start[k], pdot, options_.events.predictive_gamma, h_err, h_min);
      h = std::min(h, ps.h);
    }
    if (h < kInfinity) stepper_.limit_next_step(h);
  }

  // ------------------------------------------------------------------ discrete updates
  void handle_events(double t) {
    const ModeId mode_before_set = mode_;
    // Left limit at the event time.
    record_samples_until(t);
    if (t == t_) {  // at the start of the step (a re-trigger)
      x_plus_.head(nx_) = x_.head(nx_);
    } else {
      stepper_.interpolate(t, x_plus_.head(nx_));
    }
    x_.head(nx_) = x_plus_.head(nx_);
    // The reset sees the state on the invariant manifold: an elastic impact then keeps the
    // invariants to its round-off instead of passing on the last partial step's error.
    if (system_.mode(mode_).projection && !project_onto_invariants(system_.mode(mode_))) return;
    if (nz_ > 0 && !stepper_.evaluator().solve_algebraic(t, x_.head(nx_), z_.head(nz_))) {
      stop(Termination::NewtonFailure,
           message("mode '", system_.mode(mode_).name,
                   "': algebraic equations unsolvable at the event t = ", t));
      return;
    }
    t_ = t;
    if (options_.output.record_steps) add_sample(t_, x_.head(nx_), z_.head(nz_));
    if (!note_trigger_sides()) return;
    if (accumulating()) {
      // A fired guard whose excursion the dense output could not resolve (it never got below
      // zero): the accumulating events have reached what the state can represent.
      for (int k : fired_) {
        if (!locator_.unresolved_excursion(k)) continue;
        if (!reach_accumulation()) return;
        break;
      }
    }
    std::fill(applied_.begin(), applied_.end(), 0);
    set_had_reset_ = false;
    int resets_here = 0;
    bool chained = false;
    while (!fired_.empty()) {
      bool mode_changed = false;
      last_reset_ = -1;
      for (int k : fired_) {
        if (++resets_here > options_.events.max_resets_per_instant) {
          stop(Termination::EventCap,
               message("beating: ", resets_here - 1, " resets at t = ", t_, " in mode '",
                       system_.mode(mode_).name, "' without leaving the guard set (cap ",
                       "events.max_resets_per_instant = ", options_.events.max_resets_per_instant,
                       ")", last_events_text()));
          return;
        }
        const bool retrigger = fired_retrigger_[k] != 0;
        const ModeId from = mode_;
        if (!apply_reset(k, retrigger, chained)) return;
        applied_[k] = 1;  // cleared below if the mode changed
        if (!system_.mode(from).guards[k].observe_only) last_reset_ = k;
        chained = true;
        if (finished_) return;
        if (mode_ != from) {
          mode_changed = true;
          break;
        }
      }
      if (finished_) return;
      if (mode_changed) {
        // The new mode's guards are fresh: none sits on its trigger side, none was applied.
        std::fill(applied_.begin(), applied_.end(), 0);
        std::fill(trigger_side_.begin(), trigger_side_.end(), 0);
        last_reset_ = -1;
      }
      examine_guards_after_reset();
      if (finished_) return;
      if (accumulation_reached_) {
        accumulation_reached_ = false;
        if (!reach_accumulation()) return;
      }
    }
    restart_stepper(mode_ == mode_before_set);
  }

  // Applies guard k's reset to (t_, x_, z_); logs the event; updates mode_.
  bool apply_reset(int k, bool retrigger, bool chained) {
    const Mode& m = system_.mode(mode_);
    const Guard& g = m.guards[k];
    if (++events_total_ > options_.events.max_events) {
      stop(Termination::EventCap,
           message("event cap: events.max_events = ", options_.events.max_events,
                   " reached at t = ", t_, " (guard '", g.name, "' in mode '", m.name, "')",
                   prediction_text(), last_events_text()));
      return false;
    }
    if (g.observe_only) return record_observation(k, chained);
    set_had_reset_ = true;
    x_minus_.head(nx_) = x_.head(nx_);  // for the rate check of examine_guards_after_reset
    n_outputs_ = static_cast<int>(g.reset.output_names.size());
    ModeId target = g.reset.target;
    if (g.reset.apply) {
      Jump jump{g.reset.target, x_plus_, outputs_.head(n_outputs_), reset_failure_,
                nx_of_mode_.data()};
      bool ok = false;
      try {
        ok = g.reset.apply(t_, x_.head(nx_), z_.head(nz_), jump);
      } catch (const std::exception& e) {
        reset_failure_ = e.what();
      }
      if (!ok) {
        stop(Termination::ResetFailed,
             message("the reset of guard '", g.name, "' in mode '", m.name, "' at t = ", t_,
                     " has no post-event state: ", reset_failure_, last_events_text()));
        return false;
      }
      target = jump.target;
    }
    if (target < 0 || target >= system_.mode_count()) {
      stop(Termination::InvalidInput,
           message("guard '", g.name, "' of mode '", m.name, "' reset to unknown mode id ", target,
                   " at t = ", t_, " (", system_.mode_count(), " modes)"));
      return false;
    }
    const Mode& tm = system_.mode(target);
    const int nx_t = tm.flow.nx, nz_t = tm.flow.nz;
    if (g.reset.identity && nx_t != nx_) {
      stop(Termination::InvalidInput,
           message("guard '", g.name, "' of mode '", m.name, "': identity reset into mode '",
                   tm.name, "' changes the state size (", nx_, " -> ", nx_t, ") at t = ", t_));
      return false;
    }
    if (!g.reset.apply) x_plus_.head(nx_t) = x_.head(nx_t);
    if (!x_plus_.head(nx_t).allFinite()) {
      stop(Termination::NonFiniteState,
           message("reset of guard '", g.name, "' (mode '", m.name, "' -> '", tm.name,
                   "') produced a non-finite state ", vector_text(x_plus_.head(nx_t)),
                   " at t = ", t_, " from x- = ", vector_text(x_.head(nx_))));
      return false;
    }
    if (!outputs_.head(n_outputs_).allFinite()) {
      stop(Termination::NonFiniteState,
           message("outputs of the reset of guard '", g.name, "' (mode '", m.name,
                   "') are not finite: ", vector_text(outputs_.head(n_outputs_)), " at t = ", t_));
      return false;
    }
    if (!reinitialise(tm, target, nx_t, nz_t, &g)) return false;
    // A re-trigger of a guard at rest on its surface (no rate: a ball placed on the floor) whose
    // reset changes nothing; a guard with a rate fires once and then waits (firing rule).
    const bool fixed_point = retrigger && at_rest_[k] && target == mode_ &&
                             (x_plus_.head(nx_t) - x_.head(nx_)).lpNorm<Eigen::Infinity>() <=
                                 8 * std::numeric_limits<double>::epsilon() *
                                     (1.0 + x_.head(nx_).lpNorm<Eigen::Infinity>());
    ++j_;
    ++out_->summary.events_per_guard[mode_][k];
    if (options_.output.record_events) {
      EventRecord r;
      r.t = t_;
      r.j = j_;
      r.mode_before = mode_;
      r.mode_after = target;
      r.guard = k;
      r.retrigger = retrigger;
      r.chained = chained;
      out_->events.add(r, x_.head(nx_), z_.head(nz_), x_plus_.head(nx_t), z_plus_.head(nz_t),
                       outputs_.head(n_outputs_));
    }
    const bool go_on = notify_observer(event_info(k, target, nx_t, nz_t, retrigger, chained));
    const ModeId from = mode_;
    commit_post_reset(target, nx_t, nz_t);
    if (!go_on) return false;
    if (options_.output.record_steps) add_sample(t_, x_.head(nx_), z_.head(nz_));
    if (g.terminal) {
      stop(Termination::TerminalEvent,
           message("terminal guard '", g.name, "' of mode '", m.name, "' fired at t = ", t_));
      return false;
    }
    if (fixed_point) {
      // The reset maps the state to itself while the flow pushes it through the guard again:
      // the accumulation point is this very instant.
      events::ZenoPrediction z;
      z.detected = true;
      z.t_inf = t_;
      z.ratio = 0.0;
      z.period = 1;
      handle_zeno(z, from, k, true);
      return !finished_;
    }
    const events::ZenoPrediction z = zeno_.notify(t_, from, k);
    post_event_states_.remember(x_.head(nx_));
    // The standing prediction is kept while the events keep to it (accumulating()): recognised
    // early, on long cycles, it is the most accurate one; later ratios carry the round-off of
    // short cycles. A prediction the events no longer follow is replaced.
    if (z.detected && !accumulating()) {
      pattern_ = z;
      pattern_mode_ = from;
      pattern_guard_ = k;
    }
    if (z.detected && z.handover_due && options_.zeno.policy != events::ZenoOptions::Policy::Off) {
      handle_zeno(pattern_, from, k, false);
      return !finished_;
    }
    if (zeno_.small_gaps() >= options_.zeno.min_gap_count) {
      // Gaps this small measure round-off, not a ratio; the pattern recognised earlier still
      // predicts them: the accumulation point is reached.
      if (accumulating()) return reach_accumulation();
      stop(Termination::EventCap,
           message("events accumulate without a recognised Zeno pattern: ", zeno_.small_gaps(),
                   " consecutive gaps below zeno.min_gap = ", options_.zeno.min_gap,
                   " (relative) at t = ", t_, " (guard '", g.name, "' in mode '", m.name, "')",
                   prediction_text(), last_events_text()));
      return false;
    }
    return true;
  }

  // An observer guard fired: report it (log, on_event) without a jump.
  bool record_observation(int k, bool chained) {
    const Guard& g = system_.mode(mode_).guards[k];
    ++out_->summary.events_per_guard[mode_][k];
    if (options_.output.record_events) {
      EventRecord r;
      r.t = t_;
      r.j = j_;
      r.mode_before = r.mode_after = mode_;
      r.guard = k;
      r.chained = chained;
      r.observation = true;
      out_->events.add(r, x_.head(nx_), z_.head(nz_), x_.head(nx_), z_.head(nz_));
    }
    n_outputs_ = 0;
    x_plus_.head(nx_) = x_.head(nx_);  // "after" = "before" for the observer's view
    z_plus_.head(nz_) = z_.head(nz_);
    EventInfo info = event_info(k, mode_, nx_, nz_, false, chained);
    info.observation = true;
    if (!notify_observer(info)) return false;
    if (g.terminal) {
      stop(Termination::TerminalEvent, message("terminal observer '", g.name, "' of mode '",
                                               system_.mode(mode_).name, "' fired at t = ", t_));
      return false;
    }
    return true;
  }

  // The observer's view of the event being applied (states before commit_post_reset).
  EventInfo event_info(int k, ModeId target, int nx_t, int nz_t, bool retrigger,
                       bool chained) const {
    return EventInfo{t_,
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
  bool notify_observer(const EventInfo& info) {
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
  bool reinitialise(const Mode& tm, ModeId target, int nx_t, int nz_t, const Guard* by) {
    if (nz_t == 0) return true;
    if (target == mode_ && nz_t == nz_) {
      z_plus_.head(nz_t) = z_.head(nz_);
    } else {
      z_plus_.head(nz_t).setZero();
    }
    stepper_.set_flow(tm.flow);
    const bool ok =
        stepper_.evaluator().solve_algebraic(t_, x_plus_.head(nx_t), z_plus_.head(nz_t));
    stepper_.set_flow(system_.mode(mode_).flow);
    if (!ok) {
      stop(Termination::NewtonFailure,
           message("re-initialisation after ",
                   by ? "guard '" + by->name + "'" : std::string("the Zeno hand-over"), " (mode '",
                   system_.mode(mode_).name, "' -> '", tm.name, "') failed at t = ", t_,
                   ": 0 = g(t, x+, z) has residual ", stepper_.evaluator().last_residual(),
                   " after ", stepper_.evaluator().last_iterations(),
                   " Newton iterations; x+ = ", vector_text(x_plus_.head(nx_t))));
      return false;
    }
    return true;
  }

  void commit_post_reset(ModeId target, int nx_t, int nz_t) {
    x_.head(nx_t) = x_plus_.head(nx_t);
    z_.head(nz_t) = z_plus_.head(nz_t);
    if (target != mode_) {
      mode_ = target;
      nx_ = nx_t;
      nz_ = nz_t;
      stepper_.set_flow(system_.mode(mode_).flow);
    }
  }

  // Before the first reset of an event set: which guards of the mode sit on their trigger side
  // at the left limit (they stay put, and never fire because a reset leaves them there).
  bool note_trigger_sides() {
    const Mode& m = system_.mode(mode_);
    const double tol = band();
    std::fill(trigger_side_.begin(), trigger_side_.end(), 0);
    for (size_t kk = 0; kk < m.guards.size(); ++kk) {
      const Guard& g = m.guards[kk];
      if (g.direction == Direction::Either) continue;
      if (std::find(fired_.begin(), fired_.end(), static_cast<int>(kk)) != fired_.end()) continue;
      const double p = g.value(t_, x_.head(nx_), z_.head(nz_));
      if (!std::isfinite(p)) {
        stop(Termination::NonFiniteState, message("guard '", g.name, "' of mode '", m.name, "' is ",
                                                  p, " at the event t = ", t_));
        return false;
      }
      const double s = oriented(g.direction, p);
      trigger_side_[kk] = s > tol || (guards_.arming[kk] == Arming::AwayPending && s >= -tol);
    }
    return true;
  }

  // Step 4 of the semantics (docs/ARCHITECTURE.md, "When a guard fires"): after an event set,
  // which guards of the current mode fire at once and how the others are armed. A guard fires
  // only when its oriented value has crossed zero (by the jump, or it is on the surface moving
  // into the trigger side) from its armed side; never because it still sits on its trigger side,
  // and never again at once because of its own reset (an identity or counter reset is an
  // ordinary event).
  void examine_guards_after_reset() {
    const Mode& m = system_.mode(mode_);
    const double tol = band();
    next_fired_.clear();
    for (size_t kk = 0; kk < m.guards.size(); ++kk) {
      const int k = static_cast<int>(kk);
      const Guard& g = m.guards[k];
      const double p = g.value(t_, x_.head(nx_), z_.head(nz_));
      guards_.p_start[k] = p;
      if (!std::isfinite(p)) {
        stop(Termination::NonFiniteState, message("guard '", g.name, "' of mode '", m.name, "' is ",
                                                  p, " after a reset at t = ", t_));
        return;
      }
      const double s = oriented(g.direction, p);
      const bool was_on_trigger_side = trigger_side_[k] != 0;
      fired_retrigger_[k] = 0;
      trigger_side_[k] = 0;
      auto wait_to_move_away = [&] {
        guards_.arming[k] = Arming::AwayPending;
        trigger_side_[k] = 1;
      };
      if (applied_[k] && g.observe_only) {
        wait_to_move_away();  // an observer re-arms once back on its other side
      } else if (k == last_reset_) {
        // Its own reset is the latest change of the state: armed once it moves away.
        if (std::abs(p) <= tol) {
          const Departure d = arm_on_surface(k, g, s);
          if (d != Departure::Away && accumulating()) {
            // Accumulating events whose next one is below what the dense output resolves (the
            // reset no longer separates): this is the Zeno point.
            accumulation_reached_ = true;
          } else if (d == Departure::IntoTrigger || d == Departure::Approaching) {
            if (!reset_kept_rate(g)) {
              stop(Termination::ResetFailed,
                   message("the reset of guard '", g.name, "' in mode '", m.name, "' at t = ", t_,
                           " leaves the guard on its surface moving into its trigger side (rate ",
                           surface_rate_, " after the reset, ", rate_before_,
                           " before): the jump does not separate, so the guard would fire "
                           "again at once; x- = ",
                           vector_text(x_minus_.head(nx_)), ", x+ = ", vector_text(x_.head(nx_)),
                           last_events_text()));
              return;
            }
            wait_to_move_away();  // an identity or counter reset: an ordinary event
          }
        } else if (g.direction != Direction::Either && s > tol) {
          wait_to_move_away();
        } else {
          guards_.arming[k] = Arming::Armed;
        }
      } else if (was_on_trigger_side) {
        if (s < -tol) {
          guards_.arming[k] = Arming::Armed;
        } else {
          wait_to_move_away();
        }
      } else if (std::abs(p) <= tol) {
        if (arm_on_surface(k, g, s) == Departure::IntoTrigger) {
          next_fired_.push_back(k);  // reached from its armed side, moving in
          fired_retrigger_[k] = 1;
        }
      } else if (g.direction != Direction::Either && s > tol) {
        next_fired_.push_back(k);  // the jump carried it across
      } else {
        guards_.arming[k] = Arming::Armed;
      }
    }
    fired_.swap(next_fired_);
  }

  enum class Departure { Away, Approaching, IntoTrigger, Unknown };

  // A guard within the band of zero at (t_, x_, z_), oriented value s: its rate along the flow
  // says where the trajectory goes next. Moving away: Leaving (armed at the first negative
  // sample, a return located however small the excursion). Moving into the trigger side: still
  // before the crossing (s < 0: Approaching, armed, the scan locates it) or at or past it
  // (IntoTrigger: the caller decides whether it fires now). No rate (no gradient, or |rate|
  // within the band, e.g. a ball at rest): AtZero, disarmed until the dense output shows it
  // leave the band.
  Departure arm_on_surface(int k, const Guard& g, double s) {
    guards_.arming[k] = Arming::AtZero;
    at_rest_[k] = 1;  // until a rate says otherwise
    double rate = 0.0;
    if (!g.gradient || !guard_rate(g, x_.head(nx_), rate)) return Departure::Unknown;
    surface_rate_ = rate;
    at_rest_[k] = !(std::abs(rate) > band());
    if (at_rest_[k]) return Departure::Unknown;
    const double sign = orientation(g.direction);
    if (g.direction != Direction::Either && sign * rate > 0.0) {
      if (s >= 0.0) return Departure::IntoTrigger;
      guards_.arming[k] = Arming::Armed;
      return Departure::Approaching;
    }
    // Leaving: sign * p becomes negative first (for Either, whichever side it leaves to).
    guards_.leave_sign[k] = g.direction == Direction::Either ? (rate > 0.0 ? -1.0 : 1.0) : sign;
    guards_.arming[k] = Arming::Leaving;
    return Departure::Away;
  }

  // d/dt p along the current mode's flow at (t_, x): p_x x' + p_z z' + p_t, with
  // z' = -g_z^-1 (g_t + g_x x'). False when the flow cannot be evaluated there.
  bool guard_rate(const Guard& g, ConstVectorRef x, double& rate) {
    ode::FlowEvaluator& ev = stepper_.evaluator();
    if (!ev.derivative(t_, x, xdot_.head(nx_))) return false;
    const ConstVectorRef z = ev.algebraic();  // consistent with x (DAE modes)
    const double dpdt = g.gradient(t_, x, z, dpdx_.head(nx_), dpdz_.head(nz_));
    rate = dpdx_.head(nx_).dot(xdot_.head(nx_)) + dpdt;
    if (nz_ > 0) {
      ev.algebraic_rate(t_, x, z, xdot_.head(nx_), zdot_.head(nz_));
      rate += dpdz_.head(nz_).dot(zdot_.head(nz_));
    }
    return true;
  }

  // The accumulation point of the events the Zeno monitor recognised is reached now (the next
  // event is below what the dense output resolves): hand over or stop as at t_inf. Leaves the
  // guards of the mode it continues in examined (fired_). False when the run ended.
  bool reach_accumulation() {
    const ModeId before = mode_;
    handle_zeno(pattern_, pattern_mode_, pattern_guard_, false);
    if (finished_) return false;
    fired_.clear();
    if (mode_ != before) {
      std::fill(applied_.begin(), applied_.end(), 0);
      std::fill(trigger_side_.begin(), trigger_side_.end(), 0);
      last_reset_ = -1;
      examine_guards_after_reset();
    }
    return !finished_;
  }

  // The Zeno monitor has recognised the events accumulating in this mode, and the latest cycle
  // still fits that prediction: the time left to t_inf is within a factor 2 of the geometric
  // tail D r / (1 - r) of the latest cycle D (a pattern recognised long ago stays valid while
  // the events keep to it, even where round-off hides the ratio from the monitor).
  bool accumulating() const {
    if (!pattern_.detected || pattern_mode_ != mode_ ||
        options_.zeno.policy == events::ZenoOptions::Policy::Off) {
      return false;
    }
    const int p = pattern_.period;
    if (zeno_.count() <= p) return false;
    const double cycle = zeno_.time(0) - zeno_.time(p);
    const double tail = cycle * pattern_.ratio / (1.0 - pattern_.ratio);
    const double left = pattern_.t_inf - t_;
    return left >= -tail && std::abs(left - tail) <= 0.5 * tail + 4 * ulp_of_t();
  }
  double ulp_of_t() const { return std::numeric_limits<double>::epsilon() * std::abs(t_); }

  // A guard's rate before its own latest reset (at x_minus_) equals the rate after it
  // (surface_rate_): the reset did not act on what the guard watches (an identity reset, a
  // counter, a time-only guard).
  bool reset_kept_rate(const Guard& g) {
    rate_before_ = kNaN;
    if (!guard_rate(g, x_minus_.head(nx_), rate_before_)) return false;
    const double scale = std::max(std::abs(rate_before_), std::abs(surface_rate_));
    return std::abs(rate_before_ - surface_rate_) <=
           64 * std::numeric_limits<double>::epsilon() * scale + band();
  }

  void restart_stepper(bool keep_step_size) {
    read_invariants();  // a reset may change them (restitution < 1) or the mode
    const ode::StepStatus st = stepper_.restart(t_, x_.head(nx_), z_.head(nz_), keep_step_size);
    if (st != ode::StepStatus::Accepted) {
      stop_on_step(st);
      return;
    }
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

  // ------------------------------------------------------------------ invariant projection
  void read_invariants() {
    const Mode& m = system_.mode(mode_);
    if (!m.projection) return;
    m.projection->values(x_.head(nx_), invariant_target_.head(m.projection->count));
  }

  bool project_onto_invariants(const Mode& m) {
    if (m.projection->project(invariant_target_.head(m.projection->count), x_.head(nx_)) &&
        x_.head(nx_).allFinite()) {
      return true;
    }
    stop(Termination::ModelError,
         message("mode '", m.name, "': the invariant projection found no state with c(x) = ",
                 vector_text(invariant_target_.head(m.projection->count)),
                 " near x = ", vector_text(x_.head(nx_)), " at t = ", t_));
    return false;
  }

  // After an accepted step without event: project the step's end state, restart the stepper
  // there (its derivative changes; the step size is kept) and re-read the guards at it.
  void project_after_step(const Mode& m) {
    if (!project_onto_invariants(m)) return;
    const ode::StepStatus st = stepper_.restart(t_, x_.head(nx_), z_.head(nz_), true);
    if (st != ode::StepStatus::Accepted) {
      stop_on_step(st);
      return;
    }
    for (size_t k = 0; k < m.guards.size(); ++k) {
      guards_.p_start[k] = m.guards[k].value(t_, x_.head(nx_), z_.head(nz_));
    }
  }

  // ------------------------------------------------------------------ Zeno
  void handle_zeno(const events::ZenoPrediction& z, ModeId mode, int guard, bool instantaneous) {
    SimulationSummary& s = out_->summary;
    const Mode& m = system_.mode(mode);
    s.zeno_time = z.t_inf;
    s.zeno_ratio = z.ratio;
    s.events_before_zeno = events_total_;
    s.zeno_kind = post_event_states_.zeno_kind(events::ZenoKindOptions{});
    // Built only when the run stops here: a hand-over must not allocate (reused Simulator).
    auto what = [&] {
      return instantaneous
                 ? message("Zeno: guard '", m.guards[guard].name, "' of mode '", m.name,
                           "' fires again at once and its reset leaves the state unchanged at t = ",
                           t_, " (accumulation at this instant)")
                 : message("Zeno: events of guard '", m.guards[guard].name, "' in mode '", m.name,
                           "' accumulate at t_inf = ", z.t_inf, " (cycle of ", z.period,
                           " event(s), duration ratio ", z.ratio, ", last cycle ", z.last_cycle,
                           " s, ", events_total_, " events resolved)");
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
    post_event_states_.extrapolate_limit(std::max(1, z.period), x_.head(nx_), x_inf.head(nx_));
    // Between the last event and t_inf the state is within the accumulation's reach of x_inf.
    const double t_inf = std::max(z.t_inf, t_);
    const double t_stop = std::min(t_inf, t_end_);
    while (next_sample_ < options_.output.sample_times.size() &&
           options_.output.sample_times[next_sample_] < t_stop) {
      add_sample(options_.output.sample_times[next_sample_++], x_inf.head(nx_), z_.head(nz_));
    }
    t_ = t_stop;
    x_.head(nx_) = x_inf.head(nx_);
    if (t_inf > t_end_) {
      // The accumulation lies after t_end: the run ends at t_end, within its reach of x_inf.
      record_sample_at_current();
      stop(Termination::EndTimeReached, what() + "; reached t_end first (state extrapolated)");
      return;
    }
    if (h.map) {
      h.map(t_, x_.head(nx_), z_.head(nz_), x_plus_.head(tm.flow.nx));
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
    if (options_.output.record_events) {
      EventRecord r;
      r.t = t_;
      r.j = j_;
      r.mode_before = mode_;
      r.mode_after = h.target;
      r.guard = kZenoHandoverGuard;
      out_->events.add(r, x_.head(nx_), z_.head(nz_), x_plus_.head(tm.flow.nx),
                       z_plus_.head(tm.flow.nz));
    }
    const EventInfo info{t_,
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
    zeno_.reset();
    pattern_ = events::ZenoPrediction{};
    post_event_states_.clear();
    std::fill(applied_.begin(), applied_.end(), 0);
  }

  // ------------------------------------------------------------------ output
  void skip_samples_before(double t0) {
    const auto& st = options_.output.sample_times;
    while (next_sample_ < st.size() && st[next_sample_] < t0) ++next_sample_;
  }
  void record_sample_at_current() {
    const auto& st = options_.output.sample_times;
    while (next_sample_ < st.size() && st[next_sample_] <= t_) {
      add_sample(st[next_sample_++], x_.head(nx_), z_.head(nz_));
    }
  }
  // Samples in (previous time, t] from the current step's dense output.
  void record_samples_until(double t) {
    const auto& st = options_.output.sample_times;
    while (next_sample_ < st.size() && st[next_sample_] <= t) {
      const double ts = st[next_sample_++];
      stepper_.interpolate(ts, x_plus_.head(nx_));
      if (nz_ > 0) {
        z_plus_.head(nz_) = z_.head(nz_);
        stepper_.evaluator().solve_algebraic(ts, x_plus_.head(nx_), z_plus_.head(nz_));
      }
      add_sample(ts, x_plus_.head(nx_), z_plus_.head(nz_));
    }
  }
  void add_sample(double t, ConstVectorRef x, ConstVectorRef z) {
    out_->trajectory.add(t, j_, mode_, x, z);
  }

  // ------------------------------------------------------------------ ending and messages
  void stop(Termination why, std::string text) {
    out_->summary.termination = why;
    out_->summary.message = std::move(text);
    finished_ = true;
  }

  void stop_on_scan_failure(typename EventLocator<S>::Scan scan, const Mode& m) {
    const auto& f = locator_.failure();
    if (scan == EventLocator<S>::Scan::NewtonFailure) {
      stop(Termination::NewtonFailure,
           message("mode '", m.name, "': algebraic equations unsolvable at t = ", f.t,
                   " (residual ", f.value, ")", last_events_text()));
    } else {
      stop(Termination::NonFiniteState,
           message("guard '", m.guards[f.guard].name, "' of mode '", m.name, "' returned ", f.value,
                   " at t = ", f.t, last_events_text()));
    }
  }

  void stop_on_step(ode::StepStatus st) {
    const Mode& m = system_.mode(mode_);
    switch (st) {
      case ode::StepStatus::StepSizeUnderflow:
      case ode::StepStatus::TooManyRejections:
        stop(Termination::StepSizeUnderflow,
             message(ode::to_string(st), " in mode '", m.name, "' at t = ", t_, " (h = ",
                     stepper_.step_size(), ", h_min = ", ode::minimum_step(t_, options_.stepper),
                     "); the flow may be stiff (try integrator radau5) or singular here",
                     last_events_text()));
        return;
      case ode::StepStatus::NonFiniteState:
        stop(Termination::NonFiniteState,
             message("the flow of mode '", m.name, "' produced NaN/Inf near t = ", t_,
                     " from x = ", vector_text(x_.head(nx_)), last_events_text()));
        return;
      case ode::StepStatus::NewtonFailure:
        stop(Termination::NewtonFailure,
             message("mode '", m.name, "': algebraic states could not be solved near t = ", t_,
                     " (residual ", stepper_.evaluator().last_residual(), " after ",
                     stepper_.evaluator().last_iterations(),
                     " iterations); dg/dz may be singular here", last_events_text()));
        return;
      case ode::StepStatus::Accepted:
        return;
    }
  }

  // "On the surface" for the current state (guard_arming.hpp).
  double band() const { return guard_band(options_.events.guard_tolerance, x_.head(nx_)); }

  template <class... Parts>
  static std::string message(const Parts&... parts) {
    return text(parts...);
  }
  std::string prediction_text() const { return detail::prediction_text(pattern_, t_); }
  std::string last_events_text() const { return detail::last_events_text(out_->events, system_); }

  // ------------------------------------------------------------------ members
  const HybridSystem& system_;
  const SimulationOptions& options_;
  S stepper_;
  events::ZenoMonitor zeno_;
  const int max_nx_, max_nz_, max_guards_;

  SimulationResult* out_ = nullptr;
  bool finished_ = false;
  ModeId mode_ = kNoMode;
  int nx_ = 0, nz_ = 0;
  double t_ = 0.0, t_end_ = 0.0;
  double previous_event_t_ = -kInfinity;  // time of the previous discrete update
  bool set_had_reset_ = false;            // the current event set applied a real reset
  long j_ = 0, events_total_ = 0;
  size_t next_sample_ = 0;
  ode::StepperStats stats_base_;
  long guard_evaluations_base_ = 0, root_evaluations_base_ = 0;

  Vector x_, z_, x_plus_, z_plus_, xdot_, dpdx_, dpdz_, zdot_;
  Vector outputs_;           // the current reset's outputs (Reset::output_names)
  Vector x_minus_;           // the state before the latest reset
  Vector invariant_target_;  // c(x) the current mode's projection keeps (invariant_projection.hpp)
  std::string reset_failure_;    // a reset's reason for having no post-event state
  std::vector<int> nx_of_mode_;  // Jump::nx_of_mode
  int n_outputs_ = 0;
  EventLocator<S> locator_;
  GuardStates guards_;  // arming and start values of the current mode's guards
  std::vector<char> applied_, fired_retrigger_;
  std::vector<char> trigger_side_;  // the guard sits on its trigger side (see note_trigger_sides)
  std::vector<char> at_rest_;       // arm_on_surface found no rate (AtZero for want of one)
  int last_reset_ = -1;             // guard whose reset changed the state last in this set
  double surface_rate_ = 0.0;       // the rate arm_on_surface() found
  double rate_before_ = 0.0;        // the rate reset_kept_rate() found before the reset
  events::ZenoPrediction pattern_;  // the Zeno monitor's verdict after the latest event
  ModeId pattern_mode_ = kNoMode;
  int pattern_guard_ = -1;
  bool accumulation_reached_ = false;
  std::vector<int> fired_, next_fired_;
  PostEventStates post_event_states_;
};

}  // namespace saltus::detail
