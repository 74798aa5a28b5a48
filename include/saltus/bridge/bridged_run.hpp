// A mechanical run that goes on where event-driven integration has no answer (issue 32 item 3):
// the Moreau-Jean time-stepping bridge, a layer above sim and mech (sim knows nothing of it; its
// records and mode are bridge_records.hpp's) and below model, which runs a model through it.
//
// The run alternates event-driven pieces (a Simulator run of the compiled LagrangianModel) and
// Moreau-Jean stretches (mech/moreau_jean.hpp). A piece that stops with one of these statuses
// hands its end state to a stretch:
//   painleve     reset-failed naming a Painleve situation: a closed sliding contact entered from
//                stick with no consistent contact force ("Painleve inconsistency"), the
//                several-contacts Painleve guard, "a sliding closed contact would start" with
//                B <= 0, a dynamic jam without an impact that resolves it;
//   impact       reset-failed where an impact has no rigid answer (Routh's compression cannot
//                end, a simultaneous impact LCP with no or several motions);
//   zeno-limit   reset-failed where the extrapolated limit of accumulating impacts penetrates
//                (the accumulation is not a settling one);
//   event-cap    events accumulating without a pattern the Zeno monitor recognises, an instant
//                cycle, a beating guard set (events.max_events is run-wide: each piece gets what
//                the pieces before it left, and the piece that spends it ends the run with
//                event-cap "... reached over the run", never a stretch);
//   step-size-underflow  the integrator could not step on (frictional bounces chattering);
//   projection   model-error where the projection onto closed contacts found no state (a body at
//                rest on a contact at q = 0, where the contacts' scales vanish).
// Any other status ends the run as before. A stop is kept (painleve = "stop", per model in
// [mechanics] and per contact, docs/MODEL_FORMAT.md) when a contact the stop is on says "stop",
// or, when it is on none, the model does. The contacts a stop is on are those the stretch's first
// step would reach (mech::contacts_within_step with the step of every rigid contact's time scale,
// mech/contact_time_scale.hpp): touching to round-off, chattering below what the integrator
// resolves, or penetrated by an extrapolated limit. An event cap or a step-size underflow on no
// contact stands (a flow without a solution past a finite time, a section's events).
//
// The lift-off choice (issue 32 item 2: where several motions are consistent, the one the
// compliant limit selects): a stop (of any of the reasons above: an accumulation or an
// underflow may stop at such a state as well as a Painleve reset) whose contact-force problem over
// the touching contacts at rest has several motions, the free one among them
// (mech::free_motion_consistent), goes on event-driven at once in BridgeOptions::open_mode's mode,
// every rigid contact open, without a stretch: one kPainleveChoiceGuard record
// (BridgeLog::lift_offs) whose note names the motions and the one taken. Kelvin-Voigt contacts of
// growing stiffness take that motion both from a contact without force (the classical rod started
// in its several regime, where Moreau-Jean's step takes Lecornu's jump) and from one carrying the
// sliding solution's force (the Frictional Bounce Model's stick-to-slip point). A second stop at
// the same instant is stepped.
//
// A stretch steps from the stop state with the step h of moreau_jean_step_size (sqrt(rtol) times
// the shortest time scale of the contacts the stop is on, mech/contact_time_scale.hpp: from the
// run's kinetic energy and the contacts' free accelerations, so the same at any origin, in any
// units and for any t_end; a millionth of the run only where no contact has a time scale;
// BridgeOptions::step overrides it) and hands back as soon as
// every contact's stepped state (open, closed, stick, slip+, slip-) has been the same for
// hold_steps steps in a row: the state is projected onto the closed contacts
// (settle_stepped_state), its mode chosen by the model's own choice of an initial mode (mode_at),
// and a fresh Simulator run goes on from there. A hand-back the mode choice refuses (a Painleve
// slip at the handed-back state) resets the count and the stretch goes on. A stretch that starts
// within hold_steps steps of the previous hand-back doubles hold_steps for the rest of the run
// (the event-driven piece between them made no headway). A stretch that does not settle within
// max_stretch (max_stretch_steps of its step unless given), or whose step has no answer, ends the
// run with Termination::Unsettled naming the contacts and their stepped states. A stretch
// that reaches t_end ends the run there (end-time-reached).
//
// The pieces are joined into one SimulationResult: events with j counted on across pieces, two
// records per stretch (kBridgeStartGuard at the stop state, kBridgeEndGuard at the hand-back,
// x_before the stepped state and x_after the projected one, each with a note: why, where, how
// long; a painleve stretch's start note adds the motions the contact forces allowed there and the
// stretch's stepped state shows after its first step and at its end: "; several motions: [...]
// [...]; taken: first step [...] (none of them), end [...] (motion 1 of 2)"), samples inside a
// stretch at the run's sample times (linear between steps, mode kMoreauJeanMode), the summary's
// counters summed and its status and message the last piece's.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "saltus/bridge/bridge_records.hpp"
#include "saltus/core/hybrid_system.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/mech/moreau_jean.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::bridge {

// A contact the stop is on counts as at rest along its normal when its rate is within this
// fraction of the rate's terms sum_k |w_N,k qdot_k| (mech::contact_alternatives): the level a
// Zeno limit state's extrapolated rates carry. Also the start's Painleve check (model_run.cpp).
inline constexpr double kStopRestRate = 1e-8;

struct BridgeOptions {
  mech::MoreauJeanOptions stepper;  // theta = 1/2
  double step = kNaN;               // NaN: moreau_jean_step_size from the run's rtol
  int hold_steps = 20;              // steps the contact state holds before the hand-back
  double max_stretch = kNaN;        // NaN: max_stretch_steps of the stretch's step
  long max_stretch_steps = 100000;  // the default limit, in steps (independent of t_end)
  // Stretches and lift-off choices per run; then the run ends with the piece's own status, its
  // message naming this cap.
  int max_stretches = 10000;
  // A diagnostic: > 0 caps each event-driven piece at this many events and bridges that stop like
  // an event cap (a stretch where a contact is touched), which forces stretches through every
  // kind of contact state (tests/model/bridged_drops_test.cpp). 0: off.
  long stretch_every_events = 0;
  bool stop = false;                // painleve = "stop" for the model
  std::vector<int> contact_policy;  // per contact: -1 as the model, 0 bridge, 1 stop
  // The mode of a state with every rigid contact open (LagrangianModel::Compiled::open_mode);
  // null: a Painleve stop with several motions is stepped like the others (no lift-off choice).
  std::function<ModeId(double, const Vector&)> open_mode;
};

struct BridgeStretch {
  std::string reason;  // painleve, impact, zeno-limit, event-cap, step-size-underflow, projection
  std::string stop_status;  // the event-driven piece's status and message
  std::string stop_message;
  std::vector<int> contacts;  // touching at the stop
  double t_start = kNaN, t_end = kNaN;
  double step = kNaN;
  // The scheme's weight (MoreauJeanOptions::theta): its accuracy is first order in `step` (the
  // impulse-level scheme's, across impacts and stick-slip); summary.json states both.
  double theta = kNaN;
  long steps = 0;
  long chosen_steps = 0;       // steps whose LCP had several motions (least kinetic energy taken)
  bool settled = false;        // handed back (false: the run ended in it)
  std::string end_state;       // "'tip' stick, 'heel' open"
  std::string handed_back_to;  // the mode of the next piece
  // Reason painleve: the motions the contact forces allowed at the start and the one the
  // stretch's end state shows (mech/contact_alternatives.hpp); empty elsewhere.
  std::string motions;  // "several motions: ['tip' slip- lambda_N = 3.27] ['tip' lift-off]"
  // The stepped state after the first step and at the end: "first step ['tip' stick] (none of
  // them), end ['tip' lift-off] (motion 1 of 2)" (a jump, then lift-off).
  std::string taken;
};

// What a bridged run did besides its event-driven pieces.
struct BridgeLog {
  std::vector<BridgeStretch> stretches;  // in order
  long lift_offs = 0;                    // free motions taken at Painleve situations
};

// Why a stopped piece is bridged ("painleve", ...), or "" when its status is not one the bridge
// takes (above).
std::string bridge_reason(const SimulationResult& piece);

// Runs `system` (compiled from `model`) from (mode0, t0, x0) to t_end as above into `result`,
// the stretches and lift-offs into `log` (replaced). mode_at: the mode a state starts in (the
// model's own choice). mode0 = kNoMode: mode_at refuses x0, a Painleve situation
// (mech::painleve_situation, the caller's check): the run starts with a stretch at t0 (reason
// painleve, stop status initial-state, its message mode_at's), or rethrows mode_at's refusal where
// the stop is kept. Throws saltus::Error naming a bridge option out of its range (step <= 0,
// hold_steps < 1, max_stretch <= 0, max_stretch_steps < 1, max_stretches < 0, stretch_every_events
// < 0, theta outside [1/2, 1]), and what Simulator's constructor and run throw for bad input.
void run_bridged(const HybridSystem& system, const mech::LagrangianModel& model,
                 const std::function<ModeId(double, const Vector&)>& mode_at,
                 const SimulationOptions& options, const BridgeOptions& bridge, ModeId mode0,
                 double t0, const Vector& x0, double t_end, SimulationResult& result,
                 BridgeLog& log);

}  // namespace saltus::bridge
