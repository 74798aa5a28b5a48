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

  // Empty when valid, else every problem found: field, value and the rule broken (size limits
  // included: size_limit_problems).
  std::string validate() const;
};

// Upper bounds of the size and count options. Beyond them a run exhausts memory or time before
// it can report anything (guard_samples = 1e9 allocates gigabytes per guard; a count past
// INT_MAX wraps negative), so they are refused up front (src/sim/options_validation.cpp).
struct SimulationOptionLimits {
  static constexpr int guard_samples = 1000;         // guard evaluations per step and guard
  static constexpr long max_events = 1'000'000'000;  // events in one run
  static constexpr int max_resets_per_instant = 1'000'000;
  static constexpr int root_max_evaluations = 1'000'000;  // per located event
  static constexpr int root_ulps = 1'000'000;
  static constexpr int max_rejections = 1'000'000;  // consecutive rejected steps
  static constexpr int newton_max_iterations = 10'000;
  static constexpr int zeno_cycles = 1'000;  // also bounded by the Zeno history
  static constexpr int zeno_max_cycle_length = 1'000;
  static constexpr int zeno_min_gap_count = 1'000'000;
  static constexpr long reserve = 100'000'000;  // reserve_events, reserve_samples
  static constexpr long sample_times = 100'000'000;
};

// Every size option above its SimulationOptionLimits bound: "field = value exceeds the limit of
// N; " per problem, empty when none. Part of SimulationOptions::validate(), which the Simulator
// calls at construction (a saltus::Error there: configuration, not a run outcome).
std::string size_limit_problems(const SimulationOptions& options);

}  // namespace saltus
