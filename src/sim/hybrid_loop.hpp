// The simulator loop for one integrator type (private to src/sim; see simulator.hpp for the
// semantics it implements). Everything it writes during a run lives in members sized in the
// constructor, so integrating, locating and resetting do not allocate. (Over 450 lines: one class
// template whose members share that state; the parts that can stand alone already do, below.)
//
// The parts that do not depend on the integrator are their own types, each unit-tested alone:
// event location (event_locator.hpp), the firing rule (firing_rule.hpp), the Zeno accumulation
// (accumulation.hpp), the recorder (run_recorder.hpp), the messages (run_messages.hpp), the
// chattering watch (chatter_monitor.hpp). What
// stays here holds the run's state (t, x, z, mode, stepper) and sequences those parts: this file
// (set-up, the loop, the end), hybrid_loop_bands.hpp (the guards' bands), hybrid_loop_events.hpp
// (an event set: resets, observers, re-initialisation) and hybrid_loop_zeno.hpp (the hand-over).
//
// Why still a template on the stepper: compiled once behind a virtual dense-output interface,
// the loop would pay an indirect call per step, per guard sample and per root-finder iteration
// (the sample and Brent calls are ~35 % of an impact's instructions on the ball ensemble); that
// has not been measured to cost nothing, so the template stays (issue 10). Length (~635 lines):
// the run's state and its sequencing are one concept; the parts above are already out.
#pragma once

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "accumulation.hpp"
#include "chatter_monitor.hpp"
#include "event_locator.hpp"
#include "firing_rule.hpp"
#include "guard_arming.hpp"
#include "run_messages.hpp"
#include "run_recorder.hpp"
#include "saltus/core/error.hpp"
#include "saltus/core/hybrid_system.hpp"
#include "saltus/events/predictive_step.hpp"
#include "saltus/ode/dense_stepper.hpp"
#include "saltus/ode/error_norm.hpp"
#include "saltus/sim/simulator.hpp"
#include "state_scales.hpp"
#include "time_events.hpp"

namespace saltus::detail {

template <ode::DenseStepper S>
class HybridLoop final : private GuardRates {
 public:
  HybridLoop(const HybridSystem& system, const SimulationOptions& options)
      : system_(system),
        options_(options),
        stepper_(options.stepper, system.max_nx(), system.max_nz()),
        max_nx_(system.max_nx()),
        max_nz_(system.max_nz()),
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
        scales_(system.max_nx(), system.max_nz()),
        atol_(static_cast<size_t>(std::max(1, system.max_nx()))),
        nx_of_mode_(system.mode_count()),
        locator_(options.events, max_nx_, max_nz_, system.max_guards()),
        guards_(system.max_guards()),
        rule_(system.max_guards()),
        accumulation_(options.zeno, max_nx_),
        recorder_(options.output) {
    for (ModeId i = 0; i < system.mode_count(); ++i) nx_of_mode_[i] = system.mode(i).flow.nx;
    const ode::StepperOptions& o = options.stepper;
    for (size_t i = 0; i < atol_.size(); ++i) {
      const auto k = static_cast<Eigen::Index>(i);
      atol_[i] = o.atol_per_component.size() > k ? o.atol_per_component[k] : o.atol;
    }
    round_.reserve(static_cast<size_t>(system.max_guards()));
  }

  void run(ModeId mode, double t0, const ConstVectorRef& x0, const ConstVectorRef& z0, double t_end,
           SimulationResult& out) {
    const auto wall_start = std::chrono::steady_clock::now();
    begin(mode, t0, x0, z0, t_end, out);
    try {
      if (!finished_) loop();
    } catch (const std::exception& e) {
      // A flow or guard of the model threw (a mass matrix that became singular, dependent
      // contact directions): the run ends with what it computed so far and the model's message.
      stop(Termination::ModelError,
           message("the model failed in mode '", current_mode().name, "' after t = ", now(), ": ",
                   e.what(), last_events_text()));
    }
    finish(wall_start);
  }

 private:
  // ------------------------------------------------------------------ set-up and ending
  void begin(ModeId mode, double t0, const ConstVectorRef& x0, const ConstVectorRef& z0,
             double t_end, SimulationResult& out) {
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
    recorder_.begin(out, system_, t0);
    out.summary.integrator = S::kName;
    stats_base_ = stepper_.stats();
    guard_evaluations_base_ = locator_.guard_evaluations();
    root_evaluations_base_ = locator_.root_evaluations();
    enclosure_evaluations_base_ = locator_.enclosure_evaluations();
    undecided_searches_base_ = locator_.undecided_searches();
    locator_.begin_run();
    note_system_guards();
    accumulation_.reset();
    rule_.begin_run();
    last_set_t_ = kNaN;
    sets_at_instant_ = 0;
    previous_event_t_ = -kInfinity;
    finished_ = false;
    mode_ = mode;
    // The loop runs in the time since t0 (tau): events, steps and Zeno predictions keep the
    // resolution of a run started at 0; the model and the outputs see t = t0 + tau.
    origin_ = t0;
    t_end_absolute_ = t_end;
    t_ = 0.0;
    t_end_ = t_end - t0;
    stepper_.evaluator().set_time_origin(t0);
    locator_.set_time_origin(t0);
    j_ = 0;
    events_total_ = 0;
    nx_ = m.flow.nx;
    nz_ = m.flow.nz;
    x_.head(nx_) = x0;
    scales_.begin(x0);
    if (z0.size() == nz_) {
      z_.head(nz_) = z0;
    } else {
      z_.head(nz_).setZero();
    }
    stepper_.set_flow(m.flow);
    if constexpr (kProjectsInStep) {
      // Only for systems with projections: without one the stepper skips the call.
      if (system_.max_invariants() > 0) {
        stepper_.set_end_projection([this](double, VectorRef x) { return project_step_end(x); });
      }
    }
    if (nz_ > 0 && !stepper_.evaluator().solve_algebraic(t_, x_.head(nx_), z_.head(nz_))) {
      stop(Termination::NewtonFailure,
           message("mode '", m.name,
                   "': the initial algebraic state cannot be made consistent "
                   "(0 = g(t0, x0, z)): residual ",
                   stepper_.evaluator().last_residual(), " after ",
                   stepper_.evaluator().last_iterations(), " Newton iterations at t0 = ", now(),
                   "; give a better z0 or check dg/dz"));
      return;
    }
    // Initial arming: on the trigger side is an inconsistent start, on the surface is disarmed.
    start_fired_.clear();
    scales_.note_algebraic(z_.data(), nz_);
    note_bands(m);
    for (GuardId k = 0; k < static_cast<GuardId>(m.guards.size()); ++k) {
      const Guard& g = m.guards[k];
      const double p = g.value(now(), x_.head(nx_), z_.head(nz_)) - guards_.offset[k];
      guards_.p_start[k] = p;
      if (!std::isfinite(p)) {
        stop(Termination::NonFiniteState,
             message("guard '", g.name, "' of mode '", m.name, "' is ", p, " at t0 = ", now()));
        return;
      }
      const double s = oriented(g.direction, p);
      const double tol = guards_.band[k];
      const bool inside = g.direction == Direction::Either          ? std::abs(p) <= tol
                          : g.set_rule == Guard::SetRule::ClosedSet ? s >= -tol
                                                                    : s > tol;
      double c = 1.0;
      if (g.set_rule != Guard::SetRule::Crossings && inside) {
        if (!condition_at_start(g, m, c)) return;
        if (c != 0.0) {  // a start inside the set jumps first
          start_fired_.push_back(k);
          guards_.arming[k] = Arming::OnTriggerSideAfterReset;
          continue;
        }
      }
      if (g.direction != Direction::Either && s > tol && g.observe_only) {
        guards_.arming[k] =
            Arming::OnTriggerSideAfterReset;  // an observer waits for its other side
        continue;
      }
      if (g.direction != Direction::Either && s > tol && g.when) {
        // Outside its jump set it may start on its trigger side (it waits to move away).
        if (!condition_at_start(g, m, c)) return;
        if (c == 0.0) {
          guards_.arming[k] = Arming::OnTriggerSideAfterReset;
          continue;
        }
      }
      if (g.direction != Direction::Either && s > tol) {
        stop(Termination::InvalidInput,
             message("the initial state is on the trigger side of guard '", g.name, "' in mode '",
                     m.name, "' (p = ", p, " at t0 = ", now(), ", direction ",
                     g.direction == Direction::Rising ? "rising" : "falling",
                     "): start where the guard has not fired, or in the mode its reset leads to"));
        return;
      }
      guards_.arming[k] = Arming::Armed;
      if (std::abs(p) <= tol && rule_.arm_on_surface(k, g, s, site(), guards_, *this) ==
                                    FiringRule::Departure::IntoTrigger) {
        guards_.arming[k] = Arming::AtZero;  // fires at t0 on the first step (see EventLocator)
      }
    }
    xdot_at_current_ = false;  // the steps move the state
    read_invariants();
    const ode::StepStatus st = stepper_.restart(t_, x_.head(nx_), z_.head(nz_), false);
    if (st != ode::StepStatus::Accepted) {
      stop_on_step(st);
      return;
    }
    recorder_.samples_at(now(), j_, mode_, x_.head(nx_), z_.head(nz_));
    recorder_.step(now(), j_, mode_, x_.head(nx_), z_.head(nz_));
    chatter_.enter(current_mode(), now(), x_.head(nx_), z_.head(nz_));
    if (!start_fired_.empty()) fire_at_start();
  }

  void finish(std::chrono::steady_clock::time_point wall_start) {
    SimulationResult& out = *out_;
    SimulationSummary& s = out.summary;
    recorder_.close(now(), j_, mode_, x_.head(nx_), z_.head(nz_));
    s.t_final = now();
    s.jumps = j_;
    s.final_mode = mode_;
    const ode::StepperStats& stats = stepper_.stats();
    s.stepper.accepted_steps = stats.accepted_steps - stats_base_.accepted_steps;
    s.stepper.rejected_steps = stats.rejected_steps - stats_base_.rejected_steps;
    s.stepper.rhs_evaluations = stats.rhs_evaluations - stats_base_.rhs_evaluations;
    s.stepper.jacobian_evaluations = stats.jacobian_evaluations - stats_base_.jacobian_evaluations;
    s.stepper.lu_decompositions = stats.lu_decompositions - stats_base_.lu_decompositions;
    s.stepper.restarts = stats.restarts - stats_base_.restarts;
    s.guard_evaluations = locator_.guard_evaluations() - guard_evaluations_base_;
    s.root_evaluations = locator_.root_evaluations() - root_evaluations_base_;
    s.enclosure_evaluations = locator_.enclosure_evaluations() - enclosure_evaluations_base_;
    s.undecided_searches = locator_.undecided_searches() - undecided_searches_base_;
    s.sampled_guards = sampled_guards_;  // same names as the last run: no allocation
    s.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    out.t_final = now();
    out.final_mode = mode_;
    out.x_final = x_.head(nx_);
    out.z_final = z_.head(nz_);
  }

  // What the loop keeps of the system's guards, noted again only when their number changed
  // since the last run: which modes have time events (Guard::period), and the guards event
  // location samples instead of searching with a certificate (EventLocator::certified), as
  // "mode 'm' guard 'g'".
  void note_system_guards() {
    long guards = 0;
    for (const Mode& m : system_.modes()) guards += static_cast<long>(m.guards.size());
    if (guards == noted_guards_) return;
    noted_guards_ = guards;
    sampled_guards_.clear();
    has_time_events_.assign(system_.modes().size(), 0);
    lands_on_crossings_.assign(system_.modes().size(), 0);
    for (size_t i = 0; i < system_.modes().size(); ++i) {
      const Mode& m = system_.modes()[i];
      for (const Guard& g : m.guards) {
        if (g.steps_land_on_crossing) lands_on_crossings_[i] = 1;
        if (g.period > 0.0) {
          has_time_events_[i] = 1;
        } else if (!EventLocator<S>::certified(m, g)) {
          sampled_guards_.push_back("mode '" + m.name + "' guard '" + g.name + "'");
        }
      }
    }
  }

  // ------------------------------------------------------------------ the loop
  void loop() {
    while (!finished_) {
      if (t_ >= t_end_) {
        // "%.17g" by to_chars: snprintf cost ~3 % of a 20-impact ball run (callgrind).
        char text[64] = "reached t_end = ";
        constexpr int kPrefix = sizeof "reached t_end = " - 1;
        const auto end = std::to_chars(text + kPrefix, text + sizeof text, t_end_absolute_,
                                       std::chars_format::general, 17);
        out_->summary.termination = Termination::EndTimeReached;
        out_->summary.message.assign(text, end.ptr);  // reuses the string's capacity
        finished_ = true;
        return;
      }
      xdot_at_current_ = false;  // x_ may have moved since (a step, an event set)
      if (options_.events.predictive_step || lands_on_crossings_[static_cast<size_t>(mode_)]) {
        apply_predictive_step();
      }
      // Steps end at the instants of time events (time_events.hpp) as they end at t_end.
      const double limit = has_time_events_[static_cast<size_t>(mode_)]
                               ? std::min(t_end_, next_instant(current_mode(), t_, origin_))
                               : t_end_;
      const ode::StepStatus st = stepper_.step(limit);
      if (st != ode::StepStatus::Accepted) {
        stop_on_step(st);
        return;
      }
      const Mode& m = current_mode();
      const auto scan = locator_.scan(stepper_, m, x_.head(nx_), z_.head(nz_), guards_);
      if (scan == EventLocator<S>::Scan::NoEvent) {
        locator_.commit(guards_);
        t_ = stepper_.interval().t1;
        x_.head(nx_) = stepper_.state();
        const bool scales_doubled = scales_.note(x_.data(), nx_);
        if (nz_ > 0) z_.head(nz_) = locator_.end_algebraic();
        if (scales_doubled) refresh_offsets(m);
        record_samples_until(t_);
        if (finished_) return;
        recorder_.step(now(), j_, mode_, x_.head(nx_), z_.head(nz_));
        if (options_.on_progress) options_.on_progress(now());
        if constexpr (!kProjectsInStep) {
          if (m.projection) project_after_step(m);
        }
        if (!m.discontinuities.empty() && watch_discontinuities(m)) return;
        continue;
      }
      if (scan != EventLocator<S>::Scan::Event) {
        stop_on_scan_failure(scan, m);
        return;
      }
      std::vector<int>& fired = rule_.fired();
      fired.assign(locator_.fired().begin(), locator_.fired().end());
      for (int k : fired) rule_.set_retrigger(k, locator_.retrigger(k));
      handle_events(locator_.event_time());
      if (options_.on_progress) options_.on_progress(now());
    }
  }

  void apply_predictive_step() {
    const Mode& m = current_mode();
    double h = kInfinity;
    const double h_err = stepper_.step_size();
    // Without a given minimum, at least 1/64 of the error-controlled step: the prediction
    // h = -gamma p / pdot shrinks geometrically towards a crossing it never reaches (and stalls
    // at near-tangential approaches, issue 43), while the certified search needs no help to
    // find the crossing inside a longer step.
    const double h_min = options_.events.predictive_h_min > 0.0
                             ? options_.events.predictive_h_min
                             : std::max(ode::minimum_step(t_, options_.stepper), h_err / 64.0);
    for (size_t k = 0; k < m.guards.size(); ++k) {
      const Guard& g = m.guards[k];
      if (guards_.arming[k] != Arming::Armed || g.direction == Direction::Either || !g.gradient)
        continue;
      if (!options_.events.predictive_step && !g.steps_land_on_crossing) continue;
      const double sign = orientation(g.direction);
      double rate = 0.0;
      if (!guard_rate(g, x_.head(nx_), rate)) continue;
      const double pdot = sign * rate;
      // Guard::steps_land_on_crossing: the whole predicted step (gamma = 1).
      const events::PredictiveStep ps = events::predictive_step(
          sign * guards_.p_start[k], pdot,
          g.steps_land_on_crossing ? 1.0 : options_.events.predictive_gamma, h_err, h_min);
      h = std::min(h, ps.h);
    }
    if (h < kInfinity) stepper_.limit_next_step(h);
  }

  // Samples in (previous time, t] from the current step's dense output (t and the dense
  // output count from origin_, the sample times do not).
  void record_samples_until(double t) {
    recorder_.samples_until(at(t), j_, mode_, [&](double ts) {
      const double tau = ts - origin_;
      stepper_.interpolate(tau, x_plus_.head(nx_));
      if (nz_ > 0) {
        z_plus_.head(nz_) = z_.head(nz_);
        // A sample whose algebraic states have no solution is written with z = NaN, never with
        // a Newton iterate, and the run stops there (NewtonFailure).
        if (!stepper_.evaluator().solve_algebraic(tau, x_plus_.head(nx_), z_plus_.head(nz_))) {
          z_plus_.head(nz_).setConstant(kNaN);
          if (!finished_) {
            stop(Termination::NewtonFailure,
                 message("mode '", current_mode().name,
                         "': algebraic equations unsolvable at the sample t = ", ts, " (residual ",
                         stepper_.evaluator().last_residual(), ")", last_events_text()));
          }
        }
      }
      return std::pair<ConstVectorRef, ConstVectorRef>{x_plus_.head(nx_), z_plus_.head(nz_)};
    });
  }

  // ------------------------------------------------------------------ an event set
  // (defined in hybrid_loop_events.hpp)
  void handle_events(double t);
  // The resets of the guards in rule_.fired() at t_, in rounds until none fires at once, then
  // the integrator's restart (the second half of handle_events).
  void apply_event_set(ModeId mode_before_set);
  // Guard::SetRule: the guards of sets that hold at t0 fire before any flow.
  void fire_at_start();
  bool apply_reset(int k, bool retrigger, bool chained);
  bool record_observation(int k, bool chained);
  EventInfo event_info(int k, ModeId target, int nx_t, int nz_t, bool retrigger,
                       bool chained) const;
  bool notify_observer(const EventInfo& info);
  bool reinitialise(const Mode& tm, ModeId target, int nx_t, int nz_t, const Guard* by);
  void commit_post_reset(ModeId target, int nx_t, int nz_t);
  bool note_trigger_sides();
  void examine_guards_after_reset();
  void stop_on_condition(const char* where);
  // Guard g's condition (1 without one) at the start into c; a NaN stops the run (false).
  bool condition_at_start(const Guard& g, const Mode& m, double& c) {
    c = g.when ? g.when(now(), x_.head(nx_), z_.head(nz_)) : 1.0;
    if (!std::isnan(c)) return true;
    stop(Termination::NonFiniteState,
         message("the condition of guard '", g.name, "' of mode '", m.name, "' (when",
                 g.when_text.empty() ? std::string() : " = '" + g.when_text + "'", ") is ", c,
                 " at t0 = ", now(), " at x = ", vector_text(x_.head(nx_))));
    return false;
  }
  void restart_stepper(bool keep_step_size);

  // ------------------------------------------------------------------ invariant projection
  // (defined in hybrid_loop_projection.hpp)
  void read_invariants();
  bool project_onto_invariants(const Mode& m);
  void project_after_step(const Mode& m);
  // Steppers that project the end state of each step themselves, before its last stage
  // (Dop853::set_end_projection), save the restart project_after_step needs.
  static constexpr bool kProjectsInStep = requires(S & s) {
    s.set_end_projection(typename S::EndProjection{});
  };
  bool project_step_end(VectorRef x);

  // ------------------------------------------------------------------ Zeno
  // (defined in hybrid_loop_zeno.hpp)
  // Why a Zeno point is reached: the monitor's prediction, a reset mapping the state to itself
  // at once, or an excursion below the state's resolution right after the guard's own reset.
  enum class ZenoCause { Predicted, Instantaneous, Unresolved };
  bool reach_accumulation();
  bool reach_unresolved_return(int guard);
  bool after_zeno_point(ModeId mode_before);
  void handle_zeno(const events::ZenoPrediction& z, ModeId mode, int guard, ZenoCause cause);

  // ------------------------------------------------------------------ guard rates
  // d/dt p along the current mode's flow at (t_, x): p_x x' + p_z z' + p_t, with
  // z' = -g_z^-1 (g_t + g_x x'). False when the flow cannot be evaluated there.
  bool guard_rate(const Guard& g, const ConstVectorRef& x, double& rate) {
    ode::FlowEvaluator& ev = stepper_.evaluator();
    const bool at_current = x.data() == x_.data();
    // note_bands just evaluated (and offered) f at the current state: not again for every guard.
    if (!(at_current && xdot_at_current_)) {
      xdot_at_current_ = false;
      if (!ev.derivative(t_, x, xdot_.head(nx_))) return false;
      if constexpr (requires { stepper_.offer_derivative(t_, x, x); }) {
        // The state after a reset: the restart that follows needs the same f (same bits).
        if (at_current) stepper_.offer_derivative(t_, x, xdot_.head(nx_));
      }
      xdot_at_current_ = at_current;
    }
    const ConstVectorRef z = ev.algebraic();  // consistent with x (DAE modes)
    if (g.rate) {  // one pass along (x', z') instead of the full gradient
      if (nz_ > 0) ev.algebraic_rate(t_, x, z, xdot_.head(nx_), zdot_.head(nz_));
      rate = g.rate(now(), x, z, xdot_.head(nx_), zdot_.head(nz_));
      return true;
    }
    const double dpdt = g.gradient(now(), x, z, dpdx_.head(nx_), dpdz_.head(nz_));
    rate = dpdx_.head(nx_).dot(xdot_.head(nx_)) + dpdt;
    if (nz_ > 0) {
      ev.algebraic_rate(t_, x, z, xdot_.head(nx_), zdot_.head(nz_));
      rate += dpdz_.head(nz_).dot(zdot_.head(nz_));
    }
    return true;
  }
  bool rate(const Guard& g, const ConstVectorRef& x, double& r) override {
    return guard_rate(g, x, r);
  }

  // Where the firing rule examines the guards: the current state, with its band.
  GuardCheckPoint site() const { return {now(), x_.head(nx_), z_.head(nz_)}; }

  // The band of "on the surface" of every guard of mode m (hybrid_loop_bands.hpp).
  void note_bands(const Mode& m);
  double guard_scale(const Guard& g, double t, double* clock_part = nullptr);
  void refresh_offsets(const Mode& m);
  static constexpr double kClockUlps = 4.0;  // the clock's resolution (ulps of tau)
  // kClockUlps ulps of tau times the guard's rate along the flow at x (firing_rule.hpp).
  double clock_margin(const Guard& g, const ConstVectorRef& x) override {
    double r = 0.0;
    if (!g.gradient || !guard_rate(g, x, r)) return 0.0;
    return kClockUlps * events::detail::ulp_of(t_) * std::abs(r);
  }
  bool accumulating() const override { return accumulation_.accumulating(t_, mode_); }
  double next_cycle() const override { return accumulation_.next_cycle(t_, mode_); }

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
           message("mode '", m.name, "': algebraic equations unsolvable at t = ", at(f.t),
                   " (residual ", f.value, ")", last_events_text()));
    } else if (scan == EventLocator<S>::Scan::NoEnclosure) {
      stop(Termination::NonFiniteState,
           message("guard '", m.guards[f.guard].name, "' of mode '", m.name,
                   "' has no finite enclosure on [", at(f.t), ", ", at(f.value),
                   "]: it is not finite there, or not bounded by interval arithmetic (a "
                   "division by an interval holding 0); its crossings there cannot be proven",
                   last_events_text()));
    } else {
      stop(Termination::NonFiniteState,
           message("guard '", m.guards[f.guard].name, "' of mode '", m.name, "' returned ", f.value,
                   " at t = ", at(f.t), last_events_text()));
    }
  }

  // The mode's discontinuities after an accepted step; true when one chatters (the run stops).
  bool watch_discontinuities(const Mode& m) {
    const ChatterMonitor::Report r =
        chatter_.after_step(m, options_.events.chatter_steps, now(), x_.head(nx_), z_.head(nz_));
    if (r.discontinuity < 0) return false;
    const Discontinuity& d = m.discontinuities[static_cast<size_t>(r.discontinuity)];
    stop(Termination::Chattering,
         message("chattering: the flow of mode '", m.name, "' jumps at ", d.text,
                 ", whose switching function stayed at its surface for ", r.steps, " short steps (",
                 r.flips, " sign changes) from t = ", r.since, " to t = ", now(),
                 ": the integrator steps across a surface both sides push onto, with steps at "
                 "its tolerance's scale, instead of along it; x = ",
                 vector_text(x_.head(nx_)), d.advice.empty() ? "" : "; ", d.advice,
                 last_events_text()));
    return true;
  }

  void stop_on_step(ode::StepStatus st) {
    const Mode& m = current_mode();
    switch (st) {
      case ode::StepStatus::StepSizeUnderflow:
      case ode::StepStatus::TooManyRejections:
        stop(Termination::StepSizeUnderflow,
             message(ode::to_string(st), " in mode '", m.name, "' at t = ", now(), " (h = ",
                     stepper_.step_size(), ", h_min = ", ode::minimum_step(t_, options_.stepper),
                     "); the flow may be stiff (try integrator radau5) or singular here",
                     last_events_text()));
        return;
      case ode::StepStatus::NonFiniteState:
        stop(Termination::NonFiniteState,
             message("the flow of mode '", m.name, "' produced NaN/Inf near t = ", now(),
                     " from x = ", vector_text(x_.head(nx_)), last_events_text()));
        return;
      case ode::StepStatus::NewtonFailure:
        stop(Termination::NewtonFailure,
             message("mode '", m.name, "': algebraic states could not be solved near t = ", now(),
                     " (residual ", stepper_.evaluator().last_residual(), " after ",
                     stepper_.evaluator().last_iterations(),
                     " iterations); dg/dz may be singular here", last_events_text()));
        return;
      case ode::StepStatus::ProjectionFailure:
        out_->summary.projection_failed = true;
        stop(Termination::ModelError,
             message("mode '", m.name, "': the invariant projection found no state with c(x) = ",
                     vector_text(invariant_target_.head(m.projection ? m.projection->count : 0)),
                     " at the end of the step from x = ", vector_text(x_.head(nx_)),
                     " at t = ", now(), last_events_text()));
        return;
      case ode::StepStatus::Accepted:
        return;
    }
  }

  // The mode the run is in (an id begin() checked): HybridSystem::mode()'s range check is an
  // out-of-line call, ~10 per event (1.5 % of a ball impact, callgrind).
  const Mode& current_mode() const { return system_.modes()[mode_]; }

  // The event path's few-state copies and checks as plain loops: Eigen's block expressions of
  // run-time size cost several times the work for a 2-state ball (callgrind).
  static void copy(const Vector& from, int n, Vector& to) {
    for (int i = 0; i < n; ++i) to[i] = from[i];  // std::copy_n calls memmove
  }
  static bool all_finite(const Vector& v, int n) {
    for (int i = 0; i < n; ++i) {
      if (!std::isfinite(v[i])) return false;
    }
    return true;
  }

  // The time t0 + tau that the model, the outputs and the messages see (t_end itself at the end).
  double at(double tau) const { return tau == t_end_ ? t_end_absolute_ : origin_ + tau; }
  double now() const { return at(t_); }

  // "On the surface" for the current state (guard_arming.hpp).
  double band() const { return guard_band(options_.events, x_.head(nx_)); }

  template <class... Parts>
  static std::string message(const Parts&... parts) {
    return text(parts...);
  }
  std::string prediction_text() const {
    return detail::prediction_text(accumulation_.prediction(), t_, origin_);
  }
  std::string last_events_text() const { return detail::last_events_text(out_->events, system_); }

  // ------------------------------------------------------------------ members
  const HybridSystem& system_;
  const SimulationOptions& options_;
  S stepper_;
  const int max_nx_, max_nz_;

  SimulationResult* out_ = nullptr;
  bool finished_ = false;
  ModeId mode_ = kNoMode;
  int nx_ = 0, nz_ = 0;
  // The run's clock: t_ and t_end_ count from origin_ = t0 (see begin()); at() gives the time
  // the model and the outputs see.
  double origin_ = 0.0, t_end_absolute_ = 0.0;
  double t_ = 0.0, t_end_ = 0.0;
  double previous_event_t_ = -kInfinity;  // time of the previous discrete update
  bool set_had_reset_ = false;            // the current event set applied a real reset
  // A Zeno point was reached inside a reset and the guards of the mode the run continues in
  // are examined already (after_zeno_point): the round of resets ends there.
  bool zeno_point_examined_ = false;
  // xdot_ (and the evaluator's z) hold the flow at (t_, x_) as note_bands or guard_rate left it;
  // cleared wherever t_ or x_ change without them (guard_rate, note_bands and the examinations).
  bool xdot_at_current_ = false;
  double last_set_t_ = kNaN;  // time of the latest event set (tau) and how many sets in a row
  int sets_at_instant_ = 0;   // had it (handle_events)
  long j_ = 0, events_total_ = 0;
  ode::StepperStats stats_base_;
  long guard_evaluations_base_ = 0, root_evaluations_base_ = 0;
  long enclosure_evaluations_base_ = 0, undecided_searches_base_ = 0;

  Vector x_, z_, x_plus_, z_plus_, xdot_, dpdx_, dpdz_, zdot_;
  Vector outputs_;               // the current reset's outputs (Reset::output_names)
  Vector x_minus_;               // the state before the latest reset
  Vector invariant_target_;      // c(x) the mode's projection keeps (invariant_projection.hpp)
  StateScales scales_;           // the run's scale of each state component (state_scales.hpp)
  std::vector<double> atol_;     // each state component's atol (Jump::state_atol)
  std::string reset_failure_;    // a reset's reason for having no post-event state
  std::string reset_note_;       // a reset's text for its event row (Jump::note)
  std::vector<int> nx_of_mode_;  // Jump::nx_of_mode
  std::vector<char> has_time_events_;     // per mode: a guard of it is a time event (Guard::period)
  std::vector<char> lands_on_crossings_;  // per mode: a guard has Guard::steps_land_on_crossing
  std::vector<std::string> sampled_guards_;  // note_system_guards()
  long noted_guards_ = -1;                   // the system's guard count when they were noted
  std::vector<int> round_;  // the guards whose resets one round applies (rule_.fired())
  int n_outputs_ = 0;
  EventLocator<S> locator_;
  GuardStates guards_;            // arming and start values of the current mode's guards
  std::vector<int> start_fired_;  // begin(): guards of sets (Guard::SetRule) inside them at t0
  FiringRule rule_;               // the fired set, trigger sides and re-arming (step 3 and 4)
  Accumulation accumulation_;
  RunRecorder recorder_;
  ChatterMonitor chatter_;  // the current mode's discontinuities
};

}  // namespace saltus::detail

#include "hybrid_loop_bands.hpp"       // NOLINT: the definition of note_bands
#include "hybrid_loop_events.hpp"      // NOLINT: the definitions of the event-set members
#include "hybrid_loop_projection.hpp"  // NOLINT: the definitions of the projection members
#include "hybrid_loop_zeno.hpp"        // NOLINT: the definitions of the Zeno members
