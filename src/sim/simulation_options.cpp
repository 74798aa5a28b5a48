#include "saltus/sim/simulation_options.hpp"

#include <algorithm>
#include <sstream>

#include "saltus/sim/termination.hpp"

namespace saltus {

const char* to_string(Integrator integrator) {
  switch (integrator) {
    case Integrator::Dopri5:
      return "dopri5";
    case Integrator::Dop853:
      return "dop853";
    case Integrator::Radau5:
      return "radau5";
  }
  return "unknown";
}

const char* to_string(Termination termination) {
  switch (termination) {
    case Termination::NotRun:
      return "not-run";
    case Termination::EndTimeReached:
      return "end-time-reached";
    case Termination::TerminalEvent:
      return "terminal-event";
    case Termination::Zeno:
      return "zeno";
    case Termination::StepSizeUnderflow:
      return "step-size-underflow";
    case Termination::NewtonFailure:
      return "newton-failure";
    case Termination::EventCap:
      return "event-cap";
    case Termination::NonFiniteState:
      return "non-finite-state";
    case Termination::InvalidInput:
      return "invalid-input";
    case Termination::ResetFailed:
      return "reset-failed";
    case Termination::ModelError:
      return "model-error";
    case Termination::Unsettled:
      return "unsettled";
    case Termination::Chattering:
      return "chattering";
  }
  return "unknown";
}

std::string SimulationOptions::validate() const {
  // Size limits first: zeno.validate() multiplies counts that must not overflow.
  std::string out = size_limit_problems(*this);
  if (!out.empty()) return out;
  out = stepper.validate() + events.validate() + zeno.validate();
  if (!std::is_sorted(output.sample_times.begin(), output.sample_times.end())) {
    out += "output.sample_times must be sorted ascending; ";
  }
  if (output.reserve_events < 0 || output.reserve_samples < 0) {
    out += "output.reserve_* must be >= 0; ";
  }
  return out;
}

}  // namespace saltus
