// Outcome of one integrator step and the interval its dense output covers.
#pragma once

namespace saltus::ode {

enum class StepStatus {
  Accepted,           // the step was taken; interval() and interpolate() describe it
  StepSizeUnderflow,  // the error test needs h below h_min: the state is left at the step start
  TooManyRejections,  // max_rejections tries in a row failed
  NonFiniteState,     // f (or a stage) produced NaN or Inf: the state is left at the step start
  NewtonFailure,      // algebraic states (DAE) or an implicit stage could not be solved
  ProjectionFailure,  // the end-state projection (Dop853::set_end_projection) found no state
};

const char* to_string(StepStatus status);

struct StepSpan {  // the interval of a step: [t0, t1]
  double t0 = 0.0;
  double t1 = 0.0;
  double length() const { return t1 - t0; }
  bool contains(double t) const { return t >= t0 && t <= t1; }
};

// The most coefficients a stepper's dense output has per component (Dop853: degree 7), for
// dense_polynomial() of Dopri5, Dop853 and Radau5.
inline constexpr int kMaxDenseCoefficients = 8;

// Work counters of one integrator, cumulative over a run.
struct StepperStats {
  long accepted_steps = 0;
  long rejected_steps = 0;
  long rhs_evaluations = 0;       // f (or reduced flow) evaluations
  long jacobian_evaluations = 0;  // Jacobians of the (reduced) flow
  long lu_decompositions = 0;     // implicit methods only
  long restarts = 0;              // restarts after resets
};

}  // namespace saltus::ode
