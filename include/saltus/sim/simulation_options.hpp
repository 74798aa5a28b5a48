// Everything that says how a hybrid system is simulated (not what the system is).
#pragma once

#include <string>
#include <vector>

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

struct SimulationOptions {
  Integrator integrator = Integrator::Dopri5;
  ode::StepperOptions stepper;
  events::EventOptions events;
  events::ZenoOptions zeno;
  OutputOptions output;

  // Empty when valid, else every problem found: field, value and the rule broken.
  std::string validate() const;
};

}  // namespace saltus
