// The Moreau-Jean time-stepping bridge of a mechanical run; see model/bridged_run.hpp.
// (Over 450 lines: run_bridged's piece / lift-off / stretch loop shares its joined result and
// scales; issue 44 item 3 moves the bridge into a layer of its own, the stretch a function.)
#include "saltus/model/bridged_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <optional>
#include <sstream>

#include "saltus/core/error.hpp"
#include "saltus/mech/contact_alternatives.hpp"
#include "saltus/mech/contact_stop.hpp"
#include "saltus/mech/contact_time_scale.hpp"
#include "saltus/mech/moreau_jean.hpp"

namespace saltus::model {

// On the typed causes the engine and the contact layer report (SimulationSummary::reset_cause,
// handover_failed, projection_failed), never on the message: it carries the model's, bodies' and
// contacts' own names, and a contact named "Painleve_right" once turned a failure into a bridged
// run (issue 44).
std::string bridge_reason(const SimulationResult& piece) {
  const SimulationSummary& s = piece.summary;
  switch (piece.termination()) {
    case Termination::ResetFailed:
      if (s.handover_failed) return "zeno-limit";
      switch (mech::contact_stop(s.reset_cause)) {
        case mech::ContactStop::Painleve:
          return "painleve";
        case mech::ContactStop::ImpactWithoutAnswer:
          return "impact";
        case mech::ContactStop::ZenoLimit:
          return "zeno-limit";
        case mech::ContactStop::Penetration:
        case mech::ContactStop::None:
          return "";
      }
      return "";
    case Termination::ModelError:
      return s.projection_failed ? "projection" : "";
    case Termination::EventCap:
      return "event-cap";
    case Termination::StepSizeUnderflow:
      return "step-size-underflow";
    default:
      return "";
  }
}

namespace {

std::string text_of(double v) {
  std::ostringstream s;
  s.precision(10);
  s << v;
  return s.str();
}

// The joined result of the pieces and stretches.
class Joiner {
 public:
  Joiner(const HybridSystem& system, SimulationResult& out, double t0)
      : system_(system), out_(out) {
    out_ = SimulationResult{};
    out_.trajectory.set_strides(system.max_nx(), system.max_nz());
    out_.summary.t_start = t0;
    out_.summary.events_per_guard.resize(static_cast<size_t>(system.mode_count()));
    for (ModeId i = 0; i < system.mode_count(); ++i) {
      out_.summary.events_per_guard[static_cast<size_t>(i)].assign(system.mode(i).guards.size(), 0);
    }
  }

  long j() const { return j_; }

  void piece(const SimulationResult& p) {
    const long offset = j_;
    for (long i = 0; i < p.events.size(); ++i) {
      EventRecord r = p.events[i];
      r.j += offset;
      out_.events.add(r, p.events.x_before(i), p.events.z_before(i), p.events.x_after(i),
                      p.events.z_after(i), p.events.outputs(i));
      if (!p.events.note(i).empty()) out_.events.set_note(out_.events.size() - 1, p.events.note(i));
    }
    const Trajectory& tr = p.trajectory;
    for (long i = 0; i < tr.size(); ++i) {
      const int nx = system_.mode(tr.mode(i)).flow.nx;
      out_.trajectory.add(tr.t(i), tr.j(i) + offset, tr.mode(i), tr.x(i).head(nx), Vector());
    }
    j_ = offset + p.summary.jumps;
    SimulationSummary& s = out_.summary;
    const SimulationSummary& q = p.summary;
    s.termination = q.termination;
    s.message = q.message;
    s.reset_cause = q.reset_cause;
    s.handover_failed = q.handover_failed;
    s.projection_failed = q.projection_failed;
    s.integrator = q.integrator;
    s.t_final = q.t_final;
    s.final_mode = q.final_mode;
    if (q.zeno_time == q.zeno_time) {
      s.zeno_time = q.zeno_time;
      s.zeno_ratio = q.zeno_ratio;
      s.events_before_zeno = q.events_before_zeno + (out_.events.size() - p.events.size());
      s.zeno_kind = q.zeno_kind;
    }
    s.stepper.accepted_steps += q.stepper.accepted_steps;
    s.stepper.rejected_steps += q.stepper.rejected_steps;
    s.stepper.rhs_evaluations += q.stepper.rhs_evaluations;
    s.stepper.jacobian_evaluations += q.stepper.jacobian_evaluations;
    s.stepper.lu_decompositions += q.stepper.lu_decompositions;
    s.stepper.restarts += q.stepper.restarts;
    s.guard_evaluations += q.guard_evaluations;
    s.root_evaluations += q.root_evaluations;
    s.enclosure_evaluations += q.enclosure_evaluations;
    s.undecided_searches += q.undecided_searches;
    for (const std::string& g : q.sampled_guards) {
      if (std::find(s.sampled_guards.begin(), s.sampled_guards.end(), g) ==
          s.sampled_guards.end()) {
        s.sampled_guards.push_back(g);
      }
    }
    for (size_t m = 0; m < q.events_per_guard.size() && m < s.events_per_guard.size(); ++m) {
      for (size_t g = 0; g < q.events_per_guard[m].size() && g < s.events_per_guard[m].size();
           ++g) {
        s.events_per_guard[m][g] += q.events_per_guard[m][g];
      }
    }
    s.zeno_handovers += q.zeno_handovers;
    s.wall_seconds += q.wall_seconds;
    s.jumps = j_;
    out_.t_final = p.t_final;
    out_.final_mode = p.final_mode;
    out_.x_final = p.x_final;
    out_.z_final = p.z_final;
  }

  // A bridge record (kBridgeStartGuard / kBridgeEndGuard): one more jump, with its note; its
  // index in the event log (-1 when not kept).
  long record(GuardId guard, double t, ModeId before, ModeId after, const Vector& x_before,
              const Vector& x_after, std::string note, bool keep) {
    ++j_;
    out_.summary.jumps = j_;
    if (!keep) return -1;
    EventRecord r;
    r.t = t;
    r.j = j_;
    r.mode_before = before;
    r.mode_after = after;
    r.guard = guard;
    out_.events.add(r, x_before, Vector(), x_after, Vector());
    out_.events.set_note(out_.events.size() - 1, std::move(note));
    return out_.events.size() - 1;
  }

  void set_note(long record, std::string note) {
    if (record >= 0) out_.events.set_note(record, std::move(note));
  }

  void sample(double t, const Vector& x) {
    out_.trajectory.add(t, j_, kMoreauJeanMode, x, Vector());
  }

  // The run ends in a stretch (end time reached, or unsettled).
  void end(Termination termination, std::string message, double t, ModeId mode, const Vector& x) {
    out_.summary.termination = termination;
    out_.summary.message = std::move(message);
    out_.summary.t_final = t;
    out_.summary.final_mode = mode;
    out_.t_final = t;
    out_.final_mode = mode;
    out_.x_final = x;
    out_.z_final.resize(0);
  }

  void add_wall(double seconds) { out_.summary.wall_seconds += seconds; }

 private:
  const HybridSystem& system_;
  SimulationResult& out_;
  long j_ = 0;
};

// Refuses a bridge option out of its range, naming it.
void check_bridge_options(const BridgeOptions& b) {
  const auto refuse = [](const char* name, double value, const char* expected) {
    saltus::detail::throw_error("bridge option ", name, " = ", value, "; expected ", expected);
  };
  if (!std::isnan(b.step) && !(b.step > 0.0 && std::isfinite(b.step))) {
    refuse("step", b.step, "a finite step > 0, or NaN for the contacts' time scale");
  }
  if (b.hold_steps < 1) refuse("hold_steps", b.hold_steps, "at least 1");
  if (!std::isnan(b.max_stretch) && !(b.max_stretch > 0.0)) {
    refuse("max_stretch", b.max_stretch, "a duration > 0, or NaN for max_stretch_steps steps");
  }
  if (b.max_stretch_steps < 1) refuse("max_stretch_steps", b.max_stretch_steps, "at least 1");
  if (b.max_stretches < 0) refuse("max_stretches", b.max_stretches, "at least 0");
  if (b.stretch_every_events < 0) {
    refuse("stretch_every_events", b.stretch_every_events, "0 (off) or more");
  }
  if (!(b.stepper.theta >= 0.5 && b.stepper.theta <= 1.0)) {
    refuse("stepper.theta", b.stepper.theta, "a value in [1/2, 1]");
  }
}

// The engine events of a piece (resets and observations: what events.max_events counts).
long events_of(const SimulationSummary& s) {
  long out = 0;
  for (const std::vector<long>& mode : s.events_per_guard) {
    for (long k : mode) out += k;
  }
  return out;
}

std::string cap_message(long max_events, double t, const std::vector<BridgeStretch>& stretches,
                        const SimulationResult& joined) {
  return saltus::detail::text("event cap: events.max_events = ", max_events,
                              " reached over the run at t = ", text_of(t), " (", stretches.size(),
                              " Moreau-Jean stretches and ", joined.summary.painleve_lift_offs,
                              " lift-offs before it)");
}

std::string names_of(const mech::LagrangianModel& m, const std::vector<int>& contacts) {
  std::string out;
  for (size_t k = 0; k < contacts.size(); ++k) {
    out += (k ? ", '" : "'") + m.contact(contacts[k]).name + "'";
  }
  return out.empty() ? "none" : out;
}

std::string states_of(const mech::LagrangianModel& m,
                      const std::vector<mech::SteppedContact>& state) {
  std::string out;
  for (int i = 0; i < m.contact_count(); ++i) {
    if (!m.contact(i).rigid()) continue;
    out += (out.empty() ? "'" : ", '") + m.contact(i).name + "' " +
           mech::to_string(state[static_cast<size_t>(i)]);
  }
  return out;
}

// Whether the stop is kept: painleve = "stop" on a touching contact, or on the model when none
// touches.
bool keeps_stop(const BridgeOptions& o, const std::vector<int>& touching) {
  if (touching.empty()) return o.stop;
  for (int i : touching) {
    const int p = static_cast<size_t>(i) < o.contact_policy.size()
                      ? o.contact_policy[static_cast<size_t>(i)]
                      : -1;
    if (p == 1 || (p == -1 && o.stop)) return true;
  }
  return false;
}

}  // namespace

void run_bridged(const HybridSystem& system, const mech::LagrangianModel& model,
                 const std::function<ModeId(double, const Vector&)>& mode_at,
                 const SimulationOptions& options, const BridgeOptions& bridge, ModeId mode0,
                 double t0, const Vector& x0, double t_end, SimulationResult& result,
                 std::vector<BridgeStretch>& stretches) {
  stretches.clear();
  check_bridge_options(bridge);
  // The run-wide event cap: each piece gets what the pieces before it left of events.max_events
  // (its Simulator rebuilt with that budget); a piece that spends it ends the run, named.
  const long max_events = options.events.max_events;
  long events_spent = 0, sim_budget = max_events;
  SimulationOptions piece_options = options;
  std::optional<Simulator> sim;
  sim.emplace(system, options);
  const int n = model.dof();
  bool rigid = true;
  for (int i = 0; i < model.contact_count(); ++i) rigid = rigid && model.contact(i).rigid();
  Joiner join(system, result, t0);
  const bool keep_events = options.output.record_events;
  const std::vector<double>& sample_times = options.output.sample_times;
  double rtol = options.stepper.rtol;
  for (Eigen::Index k = 0; k < options.stepper.rtol_per_component.size() && k < n; ++k) {
    rtol = std::min(rtol, options.stepper.rtol_per_component[k]);
  }
  Vector q_scale = x0.head(n).cwiseAbs();  // the settled states' margins (settle_stepped_state)
  // The run's kinetic-energy scale (its largest value at the start, the stops and the stretches'
  // ends): the contacts' time scales (contact_time_scale.hpp) read it.
  double energy_scale = x0.allFinite() ? model.kinetic_energy(x0.head(n), x0.tail(n)) : 0.0;
  const int base_hold = std::max(bridge.hold_steps, 1);
  int hold = base_hold;
  double t = t0, last_hand_back = -kInfinity, last_step = kNaN;
  Vector x = x0;
  ModeId mode = mode0;
  SimulationResult piece;
  // kNoMode: the mode choice refuses the initial state (a Painleve situation, the caller's
  // check); the run starts with a stretch from t0, a piece that stopped there.
  bool refused_start = mode0 == kNoMode;
  double last_choice = kNaN;  // the time of the last lift-off choice
  for (;;) {
    std::string reason = "painleve";
    if (refused_start) {
      piece = SimulationResult{};
      piece.t_final = t;
      piece.x_final = x;
      piece.final_mode = kMoreauJeanMode;
    } else {
      const long remaining = max_events - events_spent;
      if (remaining < 1) {
        join.end(Termination::EventCap, cap_message(max_events, t, stretches, result), t, mode, x);
        return;
      }
      const long budget = bridge.stretch_every_events > 0
                              ? std::min(remaining, bridge.stretch_every_events)
                              : remaining;
      if (budget != sim_budget) {
        piece_options.events.max_events = budget;
        sim.emplace(system, piece_options);
        sim_budget = budget;
      }
      sim->run(mode, t, x, Vector(), t_end, piece);
      join.piece(piece);
      const long spent = events_of(piece.summary);
      events_spent += spent;
      if (piece.termination() == Termination::EventCap && spent >= remaining) {
        join.end(Termination::EventCap,
                 cap_message(max_events, piece.t_final, stretches, result) + "; " +
                     piece.summary.message,
                 piece.t_final, piece.final_mode, piece.x_final);
        return;
      }
      reason = bridge_reason(piece);
    }
    const long interventions =
        static_cast<long>(stretches.size()) + result.summary.painleve_lift_offs;
    if (!reason.empty() && rigid && interventions >= bridge.max_stretches && !refused_start) {
      join.end(piece.termination(),
               saltus::detail::text(
                   piece.summary.message, "; the bridge's cap of ", bridge.max_stretches,
                   " stretches and lift-offs per run was reached (", stretches.size(),
                   " stretches, ", result.summary.painleve_lift_offs, " lift-offs)"),
               piece.t_final, piece.final_mode, piece.x_final);
      return;
    }
    if (reason.empty() || !rigid || interventions >= bridge.max_stretches ||
        piece.x_final.size() != 2 * n || !piece.x_final.allFinite()) {
      if (refused_start) (void)mode_at(t, x);  // throws the refusal
      return;
    }
    const Vector q_stop = piece.x_final.head(n), qdot_stop = piece.x_final.tail(n);
    q_scale = q_scale.cwiseMax(q_stop.cwiseAbs());
    // The contacts the stop is on: those a first stretch step reaches (contact_time_scale.hpp).
    mech::ContactTimeScales scales;
    std::vector<int> touching;
    double h_all = kNaN;
    try {
      energy_scale = std::max(energy_scale, model.kinetic_energy(q_stop, qdot_stop));
      scales = mech::contact_time_scales(model, piece.t_final, q_stop, qdot_stop, energy_scale);
      std::vector<int> rigid_contacts;
      for (int i = 0; i < model.contact_count(); ++i) {
        if (model.contact(i).rigid()) rigid_contacts.push_back(i);
      }
      h_all = mech::moreau_jean_step_size(scales, rigid_contacts, rtol);
      touching = mech::contacts_within_step(model, q_stop, qdot_stop, scales,
                                            std::isfinite(h_all) ? h_all : 0.0);
    } catch (const std::exception& e) {
      join.end(
          Termination::ModelError,
          saltus::detail::text("model '", model.name(), "': the Moreau-Jean bridge failed at t = ",
                               text_of(piece.t_final), " (", reason, "): ", e.what()),
          piece.t_final, piece.final_mode, piece.x_final);
      return;
    }
    // An underflow or a cap where no contact touches is no contact's stop (a flow without a
    // solution past a finite time, events of a section): there is nothing for a stretch to
    // resolve, and stepping on would jump over it. The stop stands.
    if (touching.empty() && (reason == "step-size-underflow" || reason == "event-cap")) return;
    if (refused_start) {
      try {
        (void)mode_at(t, x);
      } catch (const Error& e) {
        // painleve = "stop" keeps the refusal.
        if (keeps_stop(bridge, touching)) throw;
        piece.summary.message = e.what();
      }
    } else if (keeps_stop(bridge, touching)) {
      return;
    }
    // From here on a failure of the model's functions (a mass matrix that is no longer SPD, a
    // non-finite force) throws; it ends the run with ModelError at the last state reached, the
    // events and samples joined so far kept.
    double t_reached = piece.t_final;
    Vector x_reached = piece.x_final;
    try {
      // The motions the contact forces allowed there, logged with the one taken, whatever the
      // reason (an accumulation or an underflow may stop at a Painleve situation too).
      const mech::ContactAlternatives alternatives = mech::contact_alternatives(
          model, piece.t_final, q_stop, qdot_stop, touching, kStopRestRate);
      // The lift-off choice (header): the free motion among several, event-driven at once.
      if (bridge.open_mode && piece.t_final != last_choice &&
          mech::free_motion_consistent(alternatives)) {
        t = last_choice = piece.t_final;
        x = piece.x_final;
        mode = bridge.open_mode(t, x);
        join.record(
            kPainleveChoiceGuard, t, refused_start ? mode : piece.final_mode, mode, x, x,
            saltus::detail::text("lift-off (",
                                 refused_start ? "initial-state" : to_string(piece.termination()),
                                 ", contacts ", names_of(model, touching),
                                 "): ", mech::motions_text(model, alternatives),
                                 "; taken: the free motion, the compliant limit's"),
            keep_events);
        ++result.summary.painleve_lift_offs;  // the joined result (join writes into it)
        refused_start = false;
        continue;
      }

      // The stretch.
      const auto started = std::chrono::steady_clock::now();
      BridgeStretch st;
      st.reason = reason;
      st.stop_status = refused_start ? "initial-state" : to_string(piece.termination());
      st.stop_message = piece.summary.message;
      st.contacts = touching;
      st.t_start = piece.t_final;
      // The event-driven piece since the last hand-back made no headway (it stopped again within
      // hold steps' time): hold twice as long this time, up to 64 times; else as stated.
      hold = st.t_start < last_hand_back + hold * last_step ? std::min(2 * hold, 64 * base_hold)
                                                            : base_hold;
      Vector xs = piece.x_final;
      double ts = piece.t_final;
      const std::string start_note = saltus::detail::text(
          "moreau-jean stretch starts (", reason, ": ", st.stop_status, " at t = ", text_of(ts),
          ", contacts ", names_of(model, touching), ")");
      const long start_record = join.record(kBridgeStartGuard, ts, piece.final_mode,
                                            piece.final_mode, xs, xs, start_note, keep_events);
      refused_start = false;
      double h = bridge.step;
      if (!(h > 0.0)) {
        h = touching.empty() ? h_all : mech::moreau_jean_step_size(scales, touching, rtol);
        // No contact has a time scale (nothing has moved along them, or nothing accelerates
        // them): a millionth of the run is the last resort.
        if (!(h > 0.0)) h = 1e-6 * (t_end - t0);
      }
      st.step = h;
      const double max_stretch = std::isfinite(bridge.max_stretch)
                                     ? bridge.max_stretch
                                     : static_cast<double>(bridge.max_stretch_steps) * h;
      const mech::MoreauJeanStepper stepper(model, bridge.stepper);
      std::vector<mech::SteppedContact> held, first;  // first: after the stretch's first step
      int same = 0;
      size_t next_sample =
          std::lower_bound(sample_times.begin(), sample_times.end(), ts) - sample_times.begin();
      if (next_sample < sample_times.size() && sample_times[next_sample] == ts) ++next_sample;
      std::string unsettled;
      bool non_finite = false;  // unsettled: the stepped state is not finite
      ModeId next_mode = kNoMode;
      Vector handed;
      for (;;) {
        const double step = std::min(h, t_end - ts);
        const mech::MoreauJeanStep s = stepper.step(ts, xs.head(n), xs.tail(n), step);
        if (!s.ok()) {
          unsettled = s.failure;
          break;
        }
        Vector xn(2 * n);
        xn << s.q, s.qdot;
        if (!xn.allFinite()) {
          unsettled = saltus::detail::text("the step to t = ", text_of(ts + step),
                                           " gave a non-finite state");
          non_finite = true;
          break;
        }
        // From the stretch's start, rounded once: a sum of steps would lose a step's ulp(t) each
        // (6 % of a 2e-6 s step at t = 1e9).
        const double tn = step == h ? st.t_start + static_cast<double>(st.steps + 1) * h : t_end;
        while (next_sample < sample_times.size() && sample_times[next_sample] <= tn) {
          const double ws = (sample_times[next_sample] - ts) / (tn - ts);
          join.sample(sample_times[next_sample++], (1.0 - ws) * xs + ws * xn);
        }
        if (options.output.record_steps) join.sample(tn, xn);
        xs = xn;
        ts = tn;
        t_reached = ts;
        x_reached = xs;
        ++st.steps;
        st.chosen_steps += s.chosen;
        if (options.on_progress && st.steps % 64 == 0) options.on_progress(ts);
        same = s.state == held ? same + 1 : 1;
        held = s.state;
        if (st.steps == 1) first = s.state;
        if (ts >= t_end) break;
        if (same >= hold) {
          Vector settled = xs;
          const std::string failure = mech::settle_stepped_state(model, held, settled, q_scale);
          if (failure.empty()) {
            try {
              next_mode = mode_at(ts, settled);
              handed = settled;
              break;
            } catch (const Error&) {
              // The mode choice refuses this state (e.g. a Painleve slip there): step on.
            }
          }
          same = 0;
        }
        if (ts - st.t_start >= max_stretch) {
          unsettled = saltus::detail::text("it did not settle within ", text_of(max_stretch),
                                           " (the stretch's limit)");
          break;
        }
      }
      st.t_end = ts;
      st.end_state = states_of(model, held);
      if (alternatives.painleve()) {
        st.motions = mech::motions_text(model, alternatives);
        st.taken = "first step " + mech::taken_text(model, alternatives, first) + ", end " +
                   mech::taken_text(model, alternatives, held);
        join.set_note(start_record, start_note + "; " + st.motions + "; taken: " + st.taken);
      }
      q_scale = q_scale.cwiseMax(xs.head(n).cwiseAbs());
      energy_scale = std::max(energy_scale, model.kinetic_energy(xs.head(n), xs.tail(n)));
      join.add_wall(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
      const std::string length = saltus::detail::text(text_of(st.t_end - st.t_start), " (",
                                                      st.steps, " steps of ", text_of(h), ")");
      if (!unsettled.empty()) {
        const std::string message = saltus::detail::text(
            "model '", model.name(), "': the Moreau-Jean stretch from t = ", text_of(st.t_start),
            " (", reason, ") ended at t = ", text_of(ts), " after ", length, ": ", unsettled,
            "; contacts ", st.end_state, ". The event-driven run had stopped with ", st.stop_status,
            ": ", st.stop_message);
        join.record(kBridgeEndGuard, ts, piece.final_mode, piece.final_mode, xs, xs,
                    saltus::detail::text("moreau-jean stretch unsettled after ", length,
                                         "; contacts ", st.end_state),
                    keep_events);
        join.end(non_finite ? Termination::NonFiniteState : Termination::BridgeUnsettled, message,
                 ts, piece.final_mode, xs);
        stretches.push_back(std::move(st));
        return;
      }
      if (ts >= t_end) {
        // The end state projected onto the contacts as a hand-back's would be; where that
        // fails it is kept as stepped, and the message and the row's note say so (the run is
        // degraded either way: ModelRun::degraded).
        Vector end = xs;
        const std::string unprojected = mech::settle_stepped_state(model, held, end, q_scale);
        if (!unprojected.empty()) end = xs;
        const std::string kept =
            unprojected.empty()
                ? ""
                : "; the end state is the stepped one, not projected onto its contacts: " +
                      unprojected;
        join.record(kBridgeEndGuard, ts, piece.final_mode, piece.final_mode, xs, end,
                    saltus::detail::text("moreau-jean stretch reaches t_end after ", length,
                                         "; contacts ", st.end_state, kept),
                    keep_events);
        join.end(Termination::EndTimeReached,
                 saltus::detail::text("reached t_end = ", text_of(t_end),
                                      " in a Moreau-Jean stretch", kept),
                 ts, piece.final_mode, end);
        stretches.push_back(std::move(st));
        return;
      }
      st.settled = true;
      st.handed_back_to = system.mode(next_mode).name;
      join.record(kBridgeEndGuard, ts, piece.final_mode, next_mode, xs, handed,
                  saltus::detail::text("moreau-jean stretch ends after ", length, "; contacts ",
                                       st.end_state, " held ", hold,
                                       " steps; handed back in mode '", st.handed_back_to, "'"),
                  keep_events);
      stretches.push_back(std::move(st));
      last_hand_back = ts;
      last_step = h;
      t = ts;
      x = handed;
      mode = next_mode;
    } catch (const std::exception& e) {
      join.end(
          Termination::ModelError,
          saltus::detail::text("model '", model.name(),
                               "': the Moreau-Jean bridge failed after t = ", text_of(t_reached),
                               " (", reason, " at t = ", text_of(piece.t_final), "): ", e.what()),
          t_reached, piece.final_mode, x_reached);
      return;
    }
  }
}

}  // namespace saltus::model
