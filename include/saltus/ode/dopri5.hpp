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
#include "saltus/core/interval_jet.hpp"
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
  StepStatus restart(double t, const ConstVectorRef& x, const ConstVectorRef& z,
                     bool keep_step_size);

  // f(t, x) = xdot evaluated elsewhere for the state the next restart() may start from (the
  // event loop's re-arming evaluates it for a guard's rate along the flow): that restart()
  // takes it instead of evaluating the flow again when its (t, x) are the same bits and the
  // flow is an ODE. Forgotten at the next restart(), step() or set_flow().
  void offer_derivative(double t, const ConstVectorRef& x, const ConstVectorRef& xdot);

  // One accepted step (rejected tries are retried), never beyond t_limit.
  StepStatus step(double t_limit);

  // Caps the size of the next step attempt (predictive event step); cleared after one step.
  void limit_next_step(double h_cap) { h_cap_ = h_cap; }

  // The interval of the last accepted step ([t, t] right after restart()).
  StepSpan interval() const { return {t0_, t_}; }
  // Dense output on interval(): 4th-order polynomial, no f evaluations.
  void interpolate(double t, VectorRef x) const;
  void interpolate_derivative(double t, VectorRef xdot) const;
  // Component i of the dense output as a polynomial in u = (t - t0) / h on interval() = [t0,
  // t0 + h]: c[k] encloses (core/interval.hpp) the exact coefficient of u^k of the polynomial
  // interpolate() evaluates in doubles. Returns the count (<= kMaxDenseCoefficients; 1, the
  // state, after restart()). The certified event search encloses guards through it.
  int dense_polynomial(int i, Interval* c) const;
  // Only the components which[0 .. count) of the dense output at t, into x[which[k]] (the same
  // values interpolate() writes, bit for bit): guards that read few states (Guard::reads_states).
  void interpolate_components(double t, const int* which, int count, double* x) const {
    const double th = dense_theta(t), th1 = 1.0 - th;
    for (int k = 0; k < count; ++k) x[which[k]] = dense_component(th, th1, which[k]);
  }

  double time() const { return t_; }
  auto state() const { return x_.head(n_); }
  auto derivative() const { return k_.col(0).head(n_); }  // f(t, x) at the current state
  double step_size() const { return h_; }
  const StepperStats& stats() const { return stats_; }
  FlowEvaluator& evaluator() { return eval_; }
  const FlowEvaluator& evaluator() const { return eval_; }
  const StepperOptions& options() const { return options_; }

 private:
  bool stage(int i, double t, const ConstVectorRef& x);  // k_i = phi(t, x)
  bool take_offered_derivative(double t);                // k_0 from offer_derivative() if it fits
  // theta = (t - t0) / h on the last step (0 on the degenerate interval after a restart).
  double dense_theta(double t) const {
    const double h = t_ - t0_;
    return h > 0.0 ? (t - t0_) / h : 0.0;
  }
  // Component i of the continuous extension at theta (th1 = 1 - theta).
  double dense_component(double th, double th1, int i) const {
    const double* d = dense_.data() + i;
    const Eigen::Index dl = dense_.rows();
    return d[0] + th * (d[dl] + th1 * (d[2 * dl] + th * (d[3 * dl] + th1 * d[4 * dl])));
  }

  StepperOptions options_;
  FlowEvaluator eval_;
  int n_ = 0;
  double t_ = 0.0, t0_ = 0.0;  // current time, start of the last step
  double h_ = 0.0;             // proposed next step size
  double h_cap_ = kInfinity;
  StepSizeController controller_{kOrder, 0.75};  // PI coupling of Hairer's code
  Vector x_, x_trial_, stage_x_, error_;
  Matrix k_;              // max_nx x 7 stage derivatives; column 0 is f at the current state (FSAL)
  Matrix dense_;          // max_nx x 5 continuous extension coefficients of the last step
  Matrix work_;           // max_nx x 2 scratch for the starting step
  bool offered_ = false;  // offer_derivative() holds (offered_t_, offered_x_, offered_f_)
  double offered_t_ = 0.0;
  Vector offered_x_, offered_f_;
  StepperStats stats_;
};

}  // namespace saltus::ode
