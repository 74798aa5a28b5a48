// Everything that says how a hybrid system is simulated (not what the system is).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "saltus/core/types.hpp"

#include "saltus/events/event_options.hpp"
#include "saltus/events/zeno_monitor.hpp"
#include "saltus/ode/stepper_options.hpp"

namespace saltus {

enum class Integrator {
  Dopri5,  // Dormand-Prince 5(4): default, non-stiff, restarts for free after a jump
  Dop853,  // Dormand-Prince 8(5,3): tight tolerances (rtol <= 1e-10)
  Radau5,  // Radau IIA order 5: stiff ODEs and index-1 DAEs
};

const char* to_string(Integrator integrator);

struct OutputOptions {
  // Times at which the state is recorded (sorted ascending; may be empty).
  std::vector<double> sample_times;
  // Also record the state at every accepted step end, and both limits at every event.
  bool record_steps = false;
  // Keep the event log (impact times, states before/after). Off saves memory in ensembles.
  bool record_events = true;
  // Capacity reserved up front so recording does not allocate during the run.
  long reserve_events = 256;
  long reserve_samples = 1024;
};

// What an event observer sees: one applied reset (or the Zeno hand-over, guard = -1), with
// the states before and after. The references are valid only during the call.
struct EventInfo {
  double t;
  long j;
  ModeId mode_before, mode_after;
  GuardId guard;     // in mode_before; -1 for the Zeno hand-over
  bool retrigger;    // fired again at the reset instant
  bool chained;      // fired at the same instant as the previous event
  bool observation;  // an observer guard (no reset applied)
  ConstVectorRef x_before, z_before, x_after, z_after;
  ConstVectorRef outputs;  // the reset's named outputs (Reset::output_names), may be empty
};

enum class CallbackResult {
  Continue,  // go on
  Stop,      // end the run after this event with Termination::TerminalEvent
};

struct SimulationOptions {
  Integrator integrator = Integrator::Dopri5;
  ode::StepperOptions stepper;
  events::EventOptions events;
  events::ZenoOptions zeno;
  OutputOptions output;

  // Called after every event (reset applied, or Zeno hand-over) whether or not the event log is
  // kept; may stop the run. Runs on the simulating thread; must not throw.
  std::function<CallbackResult(const EventInfo&)> on_event;

  // Called with the time reached after every accepted step and every event set (progress
  // reporting). Runs on the simulating thread; keep it cheap (e.g. store into an atomic).
  std::function<void(double t)> on_progress;

  // Empty when valid, else every problem found: field, value and the rule broken.
  std::string validate() const;
};

}  // namespace saltus
