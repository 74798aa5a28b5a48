// Dormand-Prince 8(5,3): explicit Runge-Kutta of order 8 with 12 stages + FSAL, the combined
// 5th/3rd-order error estimator and the 7th-order continuous extension (3 extra stages).
//
// Source: P.J. Prince, J.R. Dormand, "High order embedded Runge-Kutta formulae", J. Comput.
// Appl. Math. 7 (1981) 67-75; E. Hairer, S.P. Norsett, G. Wanner, "Solving Ordinary Differential
// Equations I", 2nd ed., Springer 1993, Section II.10 ("An 8th order method with error estimator
// of order 5 and 3 and dense output of order 7", code DOP853). The coefficient values are the
// published ones (30 digits), transcribed and checked against the order conditions of trees up to
// order 8 (main formula) and 7 (dense output) before use.
//
// Symbols (paper -> code):
//   c_i, a_ij (i = 2..12, 14..16)  -> kC<i>, kA<i>_<j>   (stage i uses columns K(1..i-1))
//   b_i (8th-order weights)         -> kB<i>; x1 = x0 + h sum b_i k_i
//   k_13 = f(t0 + h, x1)            -> K(13); it is k_1 of the next step (FSAL)
//   e_i = b_i - bhat_i (5th order)  -> kE<i>  (err5 = h sum e_i k_i)
//   b_i - bhh_i (3rd order)         -> kB<i> - kBhh<i> (err3 = h sum (b_i - bhh_i) k_i)
//   dense coefficients d_ij         -> kD<j>_<i> (j = 4..7, rows of the continuous extension)
//   stages k_i                      -> k_.col(i - 1), i = 1..16
//
// Error estimate (HNW I, II.10): with E5 = ||err5||, E3 = ||err3|| in the weighted RMS norm of
// error_norm.hpp (scale from max(|x0|, |x1|)),
//   err = E5^2 / sqrt(E5^2 + 0.01 E3^2),
// which behaves like O(h^8) for small h and stays pessimistic when the 5th-order estimate is
// accidentally small. The step-size controller (step_size_controller.hpp) uses err^(-1/8).
//
// Dense output on [t0, t0 + h], theta = (t - t0) / h, theta1 = 1 - theta:
//   x(theta) = r1 + theta (r2 + theta1 (r3 + theta (r4 + theta1 (r5 + theta (r6 + theta1 (r7 +
//              theta r8))))))
// with r1 = x0, r2 = x1 - x0, r3 = h k_1 - r2, r4 = r2 - h k_13 - r3 (so the polynomial and its
// derivative match at both ends) and r5..r8 = h sum_i d_(4..7),i k_i. Coefficients -> dense_.
//
// Assumptions: the flow is smooth on the step (orders are measured on smooth problems); the
// 3 extra stages are evaluated on every accepted step (interpolate() never evaluates f).
// For DAEs (state-space form, FlowEvaluator) the algebraic state is restored to its value at x1
// after the extra stages, so evaluator().algebraic() is consistent at the step end.
// All buffers are sized in the constructor for max_nx / max_nz; step(), interpolate() and
// restart() never allocate.
#pragma once

#include <functional>
#include <utility>

#include "saltus/core/flow.hpp"
#include "saltus/core/interval_jet.hpp"
#include "saltus/ode/flow_evaluator.hpp"
#include "saltus/ode/step_size_controller.hpp"
#include "saltus/ode/step_status.hpp"
#include "saltus/ode/stepper_options.hpp"

namespace saltus::ode {

class Dop853 {
 public:
  static constexpr int kOrder = 8;
  static constexpr const char* kName = "dop853";

  Dop853(const StepperOptions& options, int max_nx, int max_nz);

  // Integrate `flow` from now on (after a mode change). The flow must outlive the stepper.
  void set_flow(const Flow& flow);

  // Start (or restart after a reset) at (t, x) with algebraic guess z. Recomputes f (drops the
  // FSAL stage). keep_step_size: carry the last accepted step size (the flow is unchanged).
  StepStatus restart(double t, const ConstVectorRef& x, const ConstVectorRef& z,
                     bool keep_step_size);

  // One accepted step (rejected tries are retried), never beyond t_limit.
  StepStatus step(double t_limit);

  // Optional: moves the end state of every step that passes the error test (onto invariants),
  // before the step's last stage (FSAL) is evaluated there. The dense output then ends at the
  // moved state and the next step starts from f there, without the restart (one evaluation of
  // f) that moving the state after the step would need. false: the step returns
  // ProjectionFailure with the state left at the step start.
  using EndProjection = std::function<bool(double t, VectorRef x)>;
  void set_end_projection(EndProjection projection) { end_projection_ = std::move(projection); }

  // Caps the size of the next step attempt (predictive event step); cleared after one step.
  void limit_next_step(double h_cap) { h_cap_ = h_cap; }

  // The interval of the last accepted step ([t, t] right after restart()).
  StepSpan interval() const { return {t0_, t_}; }
  // Dense output on interval(): 7th-order polynomial, no f evaluations.
  void interpolate(double t, VectorRef x) const;
  void interpolate_derivative(double t, VectorRef xdot) const;
  // Component i of the dense output as a polynomial in u = (t - t0) / h on interval() = [t0,
  // t0 + h]: c[k] encloses (core/interval.hpp) the exact coefficient of u^k of the polynomial
  // interpolate() evaluates in doubles. Returns the count (<= kMaxDenseCoefficients; 1, the
  // state, after restart()). The certified event search encloses guards through it.
  int dense_polynomial(int i, Interval* c) const;
  // x[which[k]] = component which[k] of interpolate(t), k < count (guards that read a few states).
  void interpolate_components(double t, const int* which, int count, double* x) const;

  double time() const { return t_; }
  auto state() const { return x_.head(n_); }
  auto derivative() const { return k_.col(0).head(n_); }  // f(t, x) at the current state
  double step_size() const { return h_; }
  const StepperStats& stats() const { return stats_; }
  FlowEvaluator& evaluator() { return eval_; }
  const FlowEvaluator& evaluator() const { return eval_; }
  const StepperOptions& options() const { return options_; }

 private:
  static constexpr int kStages = 16;  // 12 + FSAL + 3 for the dense output
  static constexpr int kDense = 8;    // r1..r8

  bool stage(int i, double t, const ConstVectorRef& x);  // K(i) = phi(t, x), i = 1..16
  // Weights w_j (and dw_j / dtheta) with x(theta) = sum_j w_j r_j.
  static void dense_weights(double theta, double* w);
  static void dense_weights(double theta, double* w, double* dw);
  double theta(double t) const {
    const double h = t_ - t0_;
    return h > 0.0 ? (t - t0_) / h : 0.0;
  }
  // sum_j w_j r_j of component i.
  double dense_component(const double* w, int i) const {
    const double* d = dense_.data() + i;
    const Eigen::Index dl = dense_.rows();
    double s = w[0] * d[0];
    for (int j = 1; j < kDense; ++j) s += w[j] * d[j * dl];
    return s;
  }

  StepperOptions options_;
  FlowEvaluator eval_;
  int n_ = 0;
  double t_ = 0.0, t0_ = 0.0;  // current time, start of the last step
  double h_ = 0.0;             // proposed next step size
  double h_cap_ = kInfinity;
  StepSizeController controller_{kOrder, 0.2};  // PI coupling of Hairer's code
  EndProjection end_projection_;
  Vector x_, x_trial_, stage_x_, err5_, err3_, z_end_;
  Matrix k_;      // max_nx x 16 stage derivatives; column 0 is f at the current state (FSAL)
  Matrix dense_;  // max_nx x 8 continuous extension coefficients r1..r8 of the last step
  Matrix work_;   // max_nx x 2 scratch for the starting step
  StepperStats stats_;
};

}  // namespace saltus::ode
