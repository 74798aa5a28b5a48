// Radau IIA of order 5 (3 stages, stiffly accurate, L-stable) for stiff ODEs and, through
// FlowEvaluator, index-1 DAEs in state-space form.
//
// Source: E. Hairer, G. Wanner, "Solving Ordinary Differential Equations II", 2nd ed., Springer
// 1996, Section IV.8 ("Implementation of Implicit Runge-Kutta Methods", code RADAU5):
//   - collocation at c = ((4 - sqrt6)/10, (4 + sqrt6)/10, 1); the stage increments
//     Z = (z1, z2, z3), z_i = Y_i - x0, solve Z = h (A (x) I) F(Z) (8.2);
//   - simplified Newton with J = dphi/dx at (t0, x0), transformed with T^-1 A^-1 T =
//     diag(gamma, [[alpha, -beta], [beta, alpha]]) into one real system (gamma/h I - J) and one
//     complex system ((alpha + i beta)/h I - J) of size n (8.15)-(8.16); W = (T^-1 (x) I) Z;
//   - Newton stopping criterion with the contraction estimate Theta_k = ||dW_k|| / ||dW_k-1||,
//     eta = Theta / (1 - Theta), stop when eta ||dW|| <= kappa * tol (8.10)-(8.13); a step is
//     abandoned (h halved) on divergence and shortened early when the predicted final error
//     eta Theta^(kmax - 1 - k) ||dW|| exceeds the tolerance;
//   - embedded error estimate (8.19)-(8.20):
//       err = (I - h gamma0 J)^-1 (gamma0 h f(x0) + e1 z1 + e2 z2 + e3 z3),
//     with gamma0 = 1/gamma and e_i = gamma0 dd_i; on the first step and after a rejection, when
//     ||err|| >= 1, the filtered estimate err = (I - h gamma0 J)^-1 (gamma0 h f(x0 + err) +
//     sum e_i z_i) is used instead (the "extra" evaluation of (8.20));
//   - step size h_new = h / quot, quot = clamp(err^(1/4) / fac, 1/fac_max, 1/fac_min),
//     fac = min(safety, safety (1 + 2 kmax) / (newton iterations + 2 kmax)); with Gustafsson's
//     predictive controller (8.25): quot >= (h_acc / h) (err^2 / err_acc)^(1/4) / safety;
//   - dense output from the collocation polynomial (cubic through x0, Y1, Y2, Y3):
//       x(t0 + h + s h) = x1 + s (q1 + (s - c2 + 1)(q2 + (s - c1 + 1) q3)),  s in [-1, 0],
//     Newton divided differences of the stage values; its derivative by the product rule. The
//     same polynomial, extrapolated, gives the Newton starting values of the next step.
//   - Jacobian and LU reuse: J is re-evaluated after an accepted step only when the Newton
//     contraction was slow (Theta > 1e-3); the LU factors are kept when in addition the new step
//     size is within [1, 1.2] of the old one (then h is not changed).
//   - Tolerances: like RADAU5, the user's (rtol, atol) are mapped to rtol' = 0.1 rtol^(2/3),
//     atol' = rtol' atol / rtol for the error test (the estimate is of order 3 while the method
//     has order 5); the Newton tolerance is max(10 eps / rtol', min(0.03, sqrt(rtol'))).
//
// Equation numbers refer to the 2nd edition and were written from memory of the text (section
// and formulas are right; check a number against the book before quoting it elsewhere).
//
// Symbols (paper -> code): c_i -> kC1, kC2 (c3 = 1); T, T^-1 -> kT.., kTi..; gamma, alpha, beta
// (eigenvalues of A^-1) -> kGamma, kAlpha, kBeta; dd_i -> kDd1..3; Z -> z_ (columns z1..z3), W ->
// w_, F(Z) (stage derivatives) -> f_; J -> jac_; gamma/h I - J -> e1_ (LU lu1_); (alpha + i
// beta)/h I - J -> e2_ (complex LU lu2_); Theta -> theta_, eta -> faccon_, kappa tol -> fnewt_,
// kmax -> kMaxNewton; divided differences q1..q3 -> cont_.col(1..3), cont_.col(0) = x1;
// (h_acc, err_acc) -> h_acc_, err_acc_.
//
// Assumptions: the flow's Jacobian (FlowEvaluator::reduced_jacobian, forward AD or user-supplied)
// is available; for DAEs it is dphi/dx of the state-space form, and the algebraic state is
// re-solved at every accepted step end (the f evaluation at the new x), so
// evaluator().algebraic() is consistent with state() after each step. Counting: stats().
// lu_decompositions counts factorisation pairs (real + complex).
//
// Allocation: all vectors and matrices are sized in the constructor for max_nx / max_nz. The LU
// objects (Eigen::PartialPivLU) size their factors on the first factorisation of a given n, so
// the first step after a mode change to a different nx reallocates them once; step(),
// interpolate() and restart() do not allocate otherwise.
#pragma once

#include <Eigen/LU>
#include <complex>

#include "saltus/core/flow.hpp"
#include "saltus/core/interval_jet.hpp"
#include "saltus/ode/flow_evaluator.hpp"
#include "saltus/ode/step_status.hpp"
#include "saltus/ode/stepper_options.hpp"

namespace saltus::ode {

class Radau5 {
 public:
  static constexpr int kOrder = 5;
  static constexpr const char* kName = "radau5";

  Radau5(const StepperOptions& options, int max_nx, int max_nz);

  // Integrate `flow` from now on (after a mode change). The flow must outlive the stepper.
  void set_flow(const Flow& flow);

  // Start (or restart after a reset) at (t, x) with algebraic guess z. Recomputes f and drops
  // the Jacobian, LU factors and Newton predictor. keep_step_size: carry the last step size.
  StepStatus restart(double t, const ConstVectorRef& x, const ConstVectorRef& z,
                     bool keep_step_size);

  // One accepted step (rejected tries are retried), never beyond t_limit.
  StepStatus step(double t_limit);

  // Caps the size of the next step attempt (predictive event step); cleared after one step.
  void limit_next_step(double h_cap) { h_cap_ = h_cap; }

  // The interval of the last accepted step ([t, t] right after restart()).
  StepSpan interval() const { return {t0_, t_}; }
  // Dense output on interval(): the collocation polynomial (degree 3), no f evaluations.
  void interpolate(double t, VectorRef x) const;
  void interpolate_derivative(double t, VectorRef xdot) const;
  // Component i of the dense output as a polynomial in u = (t - t0) / h on interval() = [t0,
  // t0 + h]: c[k] encloses (core/interval.hpp) the exact coefficient of u^k of the polynomial
  // interpolate() evaluates in doubles. Returns the count (<= kMaxDenseCoefficients; 1, the
  // state, after restart()). The certified event search encloses guards through it.
  int dense_polynomial(int i, Interval* c) const;

  double time() const { return t_; }
  auto state() const { return x_.head(n_); }
  auto derivative() const { return f0_.head(n_); }  // f(t, x) at the current state
  double step_size() const { return h_; }
  const StepperStats& stats() const { return stats_; }
  FlowEvaluator& evaluator() { return eval_; }
  const FlowEvaluator& evaluator() const { return eval_; }
  const StepperOptions& options() const { return options_; }

 private:
  enum class NewtonResult { Converged, Slow, Diverged, Failed };

  bool evaluate(double t, const ConstVectorRef& x, VectorRef f);  // f = phi(t, x), counted
  bool update_jacobian();                                         // J at (t_, x_)
  void decompose(double h);                                       // e1_, e2_ and their LU factors
  NewtonResult newton(double h, double* h_factor);     // solves for z_; iterations in iter_
  double error_estimate(double h, bool filter_again);  // (8.19)-(8.20)

  StepperOptions options_;
  StepperOptions error_options_;  // tolerances mapped as in RADAU5 (see above)
  FlowEvaluator eval_;
  int n_ = 0;
  double t_ = 0.0, t0_ = 0.0;  // current time, start of the last step
  double h_ = 0.0;             // proposed next step size
  double h_cap_ = kInfinity;
  double h_old_ = 0.0;  // size of the last accepted step (predictor)
  double h_lu_ = 0.0;   // step size of the current LU factors
  double h_acc_ = 0.0, err_acc_ = 0.0;
  double theta_ = 0.0, faccon_ = 1.0, fnewt_ = 0.0;
  int iterations_ = 0;  // Newton iterations of the last attempt
  long accepted_since_restart_ = 0;
  bool first_ = true;  // no step accepted since restart
  bool last_rejected_ = false;
  bool jac_current_ = false;  // jac_ was evaluated at (t_, x_)
  bool need_jac_ = true;      // re-evaluate J before the next attempt
  bool lu_valid_ = false;     // lu1_, lu2_ factor e1_, e2_ for h_lu_ and the current jac_
  bool eval_fresh_ = false;   // the evaluator's last solve was at (t_, x_) (DAE Jacobians)

  Vector x_, f0_, xt_, scale_, rhs_, err_, work_vec_;
  Matrix z_, w_, f_;  // max_nx x 3
  Matrix cont_;       // max_nx x 5 dense output of the last step (col 4: x0)
  Matrix jac_, e1_;   // max_nx x max_nx
  Eigen::MatrixXcd e2_;
  Eigen::VectorXcd crhs_, csol_;
  Eigen::PartialPivLU<Matrix> lu1_;
  Eigen::PartialPivLU<Eigen::MatrixXcd> lu2_;
  Matrix work_;  // max_nx x 2 scratch for the starting step
  StepperStats stats_;
};

}  // namespace saltus::ode
