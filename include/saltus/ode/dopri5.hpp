// Dormand-Prince 5(4) with FSAL, the shared step-size control (step_size_controller.hpp) and
// the 4th-order continuous extension of Shampine (1986) as used in Hairer-Norsett-Wanner I, II.6
// (code DOPRI5, CONTD5).
//
// Source: J.R. Dormand, P.J. Prince, "A family of embedded Runge-Kutta formulae", J. Comput.
// Appl. Math. 6 (1980) 19-26; dense output coefficients d_i from HNW I, II.6 (6.12).
// Symbols: a_ij -> kA.., b_i (5th order) -> the last row of a (FSAL), e_i = b_i - bhat_i -> kE..,
// stages k_i -> k_.col(i-1), continuous extension coefficients -> dense_.col(0..4).
//
// The stepper works on x' = phi(t, x) (FlowEvaluator handles DAEs). All buffers are sized in the
// constructor for the largest mode; step(), interpolate() and restart() never allocate.
#pragma once

#include "saltus/core/flow.hpp"
#include "saltus/ode/flow_evaluator.hpp"
#include "saltus/ode/step_size_controller.hpp"
#include "saltus/ode/step_status.hpp"
#include "saltus/ode/stepper_options.hpp"

namespace saltus::ode {

class Dopri5 {
 public:
  static constexpr int kOrder = 5;
  static constexpr const char* kName = "dopri5";

  Dopri5(const StepperOptions& options, int max_nx, int max_nz);

  // Integrate `flow` from now on (after a mode change). The flow must outlive the stepper.
  void set_flow(const Flow& flow);

  // Start (or restart after a reset) at (t, x) with algebraic guess z. Recomputes f (drops the
  // FSAL stage). keep_step_size: carry the last accepted step size (the flow is unchanged).
  StepStatus restart(double t, ConstVectorRef x, ConstVectorRef z, bool keep_step_size);

  // One accepted step (rejected tries are retried), never beyond t_limit.
  StepStatus step(double t_limit);

  // Caps the size of the next step attempt (predictive event step); cleared after one step.
  void limit_next_step(double h_cap) { h_cap_ = h_cap; }

  // The interval of the last accepted step ([t, t] right after restart()).
  Interval interval() const { return {t0_, t_}; }
  // Dense output on interval(): 4th-order polynomial, no f evaluations.
  void interpolate(double t, VectorRef x) const;
  void interpolate_derivative(double t, VectorRef xdot) const;

  double time() const { return t_; }
  auto state() const { return x_.head(n_); }
  auto derivative() const { return k_.col(0).head(n_); }  // f(t, x) at the current state
  double step_size() const { return h_; }
  const StepperStats& stats() const { return stats_; }
  FlowEvaluator& evaluator() { return eval_; }
  const FlowEvaluator& evaluator() const { return eval_; }
  const StepperOptions& options() const { return options_; }

 private:
  bool stage(int i, double t, ConstVectorRef x);  // k_i = phi(t, x)

  StepperOptions options_;
  FlowEvaluator eval_;
  int n_ = 0;
  double t_ = 0.0, t0_ = 0.0;  // current time, start of the last step
  double h_ = 0.0;             // proposed next step size
  double h_cap_ = kInfinity;
  StepSizeController controller_{kOrder, 0.75};  // PI coupling of Hairer's code
  Vector x_, x_trial_, stage_x_, error_;
  Matrix k_;      // max_nx x 7 stage derivatives; column 0 is f at the current state (FSAL)
  Matrix dense_;  // max_nx x 5 continuous extension coefficients of the last step
  Matrix work_;   // max_nx x 2 scratch for the starting step
  StepperStats stats_;
};

}  // namespace saltus::ode
