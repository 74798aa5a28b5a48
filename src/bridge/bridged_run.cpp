// The Moreau-Jean time-stepping bridge of a mechanical run; see bridge/bridged_run.hpp. The
// loop of event-driven pieces and lift-off choices; a stretch is moreau_jean_stretch.cpp's.
#include "saltus/bridge/bridged_run.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>

#include "bridge_text.hpp"
#include "joined_result.hpp"
#include "moreau_jean_stretch.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/contact_alternatives.hpp"
#include "saltus/mech/contact_stop.hpp"
#include "saltus/mech/contact_time_scale.hpp"

namespace saltus::bridge {

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

std::string cap_message(long max_events, double t, const BridgeLog& log) {
  return saltus::detail::text("event cap: events.max_events = ", max_events,
                              " reached over the run at t = ", text_of(t), " (",
                              log.stretches.size(), " Moreau-Jean stretches and ", log.lift_offs,
                              " lift-offs before it)");
}

// The run ends with ModelError where a model function threw inside the bridge.
void end_with_failure(JoinedResult& join, const mech::LagrangianModel& model, const char* when,
                      double t, const std::string& reason, double t_stop, ModeId mode,
                      const Vector& x, const std::exception& e) {
  join.end(Termination::ModelError,
           saltus::detail::text("model '", model.name(), "': the Moreau-Jean bridge failed ", when,
                                " t = ", text_of(t), " (", reason, " at t = ", text_of(t_stop),
                                "): ", e.what()),
           t, mode, x);
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
                 BridgeLog& log) {
  log = BridgeLog{};
  check_bridge_options(bridge);
  // The run-wide event cap: each piece gets what the pieces before it left of events.max_events
  // (its Simulator rebuilt with that budget); a piece that spends it ends the run, named.
  const long max_events = options.events.max_events;
  long events_spent = 0, sim_budget = max_events;
  SimulationOptions piece_options = options;
  std::optional<Simulator> sim;
  sim.emplace(system, options);
  const int n = model.dof();
  std::vector<int> rigid_contacts;
  for (int i = 0; i < model.contact_count(); ++i) {
    if (model.contact(i).rigid()) rigid_contacts.push_back(i);
  }
  // Only a model whose contacts are all rigid is bridged.
  const bool rigid = static_cast<int>(rigid_contacts.size()) == model.contact_count();
  JoinedResult join(system, result, t0);
  const StretchRun stretch_run{system, model, mode_at, options, t_end};
  double rtol = options.stepper.rtol;
  for (Eigen::Index k = 0; k < options.stepper.rtol_per_component.size() && k < n; ++k) {
    rtol = std::min(rtol, options.stepper.rtol_per_component[k]);
  }
  StretchScales scales;
  scales.q_scale = x0.head(n).cwiseAbs();
  // The run's kinetic-energy scale (its largest value at the start, the stops and the stretches'
  // ends): the contacts' time scales (contact_time_scale.hpp) read it.
  scales.energy = x0.allFinite() ? model.kinetic_energy(x0.head(n), x0.tail(n)) : 0.0;
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
        join.end(Termination::EventCap, cap_message(max_events, t, log), t, mode, x);
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
                 cap_message(max_events, piece.t_final, log) + "; " + piece.summary.message,
                 piece.t_final, piece.final_mode, piece.x_final);
        return;
      }
      reason = bridge_reason(piece);
    }
    const long interventions = static_cast<long>(log.stretches.size()) + log.lift_offs;
    if (!reason.empty() && rigid && interventions >= bridge.max_stretches && !refused_start) {
      join.end(piece.termination(),
               saltus::detail::text(piece.summary.message, "; the bridge's cap of ",
                                    bridge.max_stretches, " stretches and lift-offs per run was ",
                                    "reached (", log.stretches.size(), " stretches, ",
                                    log.lift_offs, " lift-offs)"),
               piece.t_final, piece.final_mode, piece.x_final);
      return;
    }
    if (reason.empty() || !rigid || interventions >= bridge.max_stretches ||
        piece.x_final.size() != 2 * n || !piece.x_final.allFinite()) {
      if (refused_start) (void)mode_at(t, x);  // throws the refusal
      return;
    }
    const Vector q_stop = piece.x_final.head(n), qdot_stop = piece.x_final.tail(n);
    scales.q_scale = scales.q_scale.cwiseMax(q_stop.cwiseAbs());
    // The contacts the stop is on: those a first stretch step reaches (contact_time_scale.hpp).
    mech::ContactTimeScales time_scales;
    std::vector<int> touching;
    double h_all = kNaN;
    try {
      scales.energy = std::max(scales.energy, model.kinetic_energy(q_stop, qdot_stop));
      time_scales =
          mech::contact_time_scales(model, piece.t_final, q_stop, qdot_stop, scales.energy);
      h_all = mech::moreau_jean_step_size(time_scales, rigid_contacts, rtol);
      touching = mech::contacts_within_step(model, q_stop, qdot_stop, time_scales,
                                            std::isfinite(h_all) ? h_all : 0.0);
    } catch (const std::exception& e) {
      end_with_failure(join, model, "at", piece.t_final, reason, piece.t_final, piece.final_mode,
                       piece.x_final, e);
      return;
    }
    // An underflow or a cap where no contact touches is no contact's stop (a flow without a
    // solution past a finite time, events of a section): there is nothing for a stretch to
    // resolve, and stepping on would jump over it. The stop stands.
    if (touching.empty() && (reason == "step-size-underflow" || reason == "event-cap")) return;
    StretchStart start;
    start.reason = reason;
    start.stop_status = refused_start ? "initial-state" : to_string(piece.termination());
    start.stop_message = piece.summary.message;
    if (refused_start) {
      try {
        (void)mode_at(t, x);
      } catch (const Error& e) {
        // painleve = "stop" keeps the refusal.
        if (keeps_stop(bridge, touching)) throw;
        start.stop_message = e.what();
      }
    } else if (keeps_stop(bridge, touching)) {
      return;
    }
    // From here on a failure of the model's functions (a mass matrix that is no longer SPD, a
    // non-finite force) throws; it ends the run with ModelError at the last state reached, the
    // events and samples joined so far kept.
    scales.t_reached = piece.t_final;
    scales.x_reached = piece.x_final;
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
        join.record(kPainleveChoiceGuard, t, refused_start ? mode : piece.final_mode, mode, x, x,
                    saltus::detail::text("lift-off (", start.stop_status, ", contacts ",
                                         contact_names(model, touching),
                                         "): ", mech::motions_text(model, alternatives),
                                         "; taken: the free motion, the compliant limit's"),
                    options.output.record_events);
        ++log.lift_offs;
        refused_start = false;
        continue;
      }
      start.t = piece.t_final;
      start.x = piece.x_final;
      start.mode = piece.final_mode;
      start.contacts = touching;
      // The event-driven piece since the last hand-back made no headway (it stopped again within
      // hold steps' time): hold twice as long this time, up to 64 times; else as stated.
      hold = start.t < last_hand_back + hold * last_step ? std::min(2 * hold, 64 * base_hold)
                                                         : base_hold;
      start.hold = hold;
      double h = bridge.step;
      if (!(h > 0.0)) {
        h = touching.empty() ? h_all : mech::moreau_jean_step_size(time_scales, touching, rtol);
        // No contact has a time scale (nothing has moved along them, or nothing accelerates
        // them): a millionth of the run is the last resort.
        if (!(h > 0.0)) h = 1e-6 * (t_end - t0);
      }
      start.step = h;
      refused_start = false;
      HandBack back;
      if (!run_stretch(stretch_run, bridge, start, alternatives, scales, join, log, back)) return;
      last_hand_back = back.t;
      last_step = h;
      t = back.t;
      x = back.x;
      mode = back.mode;
    } catch (const std::exception& e) {
      end_with_failure(join, model, "after", scales.t_reached, reason, piece.t_final,
                       piece.final_mode, scales.x_reached, e);
      return;
    }
  }
}

}  // namespace saltus::bridge
