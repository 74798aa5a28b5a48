// Why a run ended, and what the result holds in each case.
#pragma once

namespace saltus {

enum class Termination {
  NotRun,             // simulate() was not called or threw before starting
  EndTimeReached,     // trajectory and events cover [t0, t_end]
  TerminalEvent,      // a guard marked terminal fired; the last event record is it
  Zeno,               // events accumulate at zeno_time and no post-Zeno mode continues the run;
                      // trajectory and events cover [t0, last event]
  StepSizeUnderflow,  // the integrator needed a step below h_min at t_final
  NewtonFailure,      // algebraic states could not be made consistent (initially, in a step, or
                      // after a reset); the message gives the residual
  EventCap,           // events.max_events reached, beating (too many resets at one instant), or
                      // events accumulating without a recognised Zeno pattern
  NonFiniteState,     // a flow, guard or reset produced NaN/Inf; the message names it
  InvalidInput,       // the initial state is on the trigger side of a guard, a reset chose an
                      // unknown mode, or sizes do not match
  ResetFailed,        // a reset has no post-event state: an impact law without a solution, a
                      // Painleve situation, a jam, or a reset that leaves its own guard
                      // approaching; the message is the reset's own (mode, guard, t, values)
  ModelError,         // a flow, guard or reset of the model failed while running (a mass matrix
                      // that became singular, dependent contact directions); its message
  Unsettled,          // a layer above sim that steps on where sim's runs stop could not reach
                      // a state they continue from within its limits; its message says why
  Chattering,         // the integrator kept stepping across a jump of the flow it was given as
                      // written (Mode::discontinuities); the message names the expression, t, x
};

const char* to_string(Termination termination);

}  // namespace saltus
