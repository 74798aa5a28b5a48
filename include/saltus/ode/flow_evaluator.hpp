// Turns any flow kind into the explicit form x' = phi(t, x) every integrator works on.
//
//   Ode              phi = f(t, x)
//   SemiExplicitDae  z solved from g(t, x, z) = 0 by Newton (warm-started), phi = f(t, x, z)
//   ImplicitDae      (x', z) solved from F(t, x, x', z) = 0, g(t, x, z) = 0 by Newton
//
// This is the state-space form of an index-1 DAE (Hairer-Wanner II, VI.1): the integrators see
// an ODE in x and the algebraic states follow it. Its Jacobian, for stiff methods, is
//   semi-explicit: dphi/dx = f_x - f_z g_z^-1 g_x
//   implicit:      dphi/dx = -F_x'^-1 (F_x + F_z dz/dx),  dz/dx = -g_z^-1 g_x.
// All buffers are sized in the constructor for the largest mode; evaluation does not allocate.
// One evaluator per integrator (per thread): it keeps the last z and x' as Newton starts.
#pragma once

#include <Eigen/LU>
#include <cmath>

#include "saltus/core/flow.hpp"
#include "saltus/ode/stepper_options.hpp"

namespace saltus::ode {

class FlowEvaluator {
 public:
  FlowEvaluator(int max_nx, int max_nz, const NewtonOptions& newton);

  // Switches to `flow` (which must outlive the evaluator's use of it). Keeps the stored z when
  // the size is unchanged; call set_algebraic() after a reset.
  void set_flow(const Flow& flow);
  const Flow& flow() const { return *flow_; }
  int nx() const { return nx_; }
  int nz() const { return nz_; }

  // The flow is called at t = t0 + tau where a caller passes tau (0 unless set: the simulator
  // loop counts time from the run's start, so a run from t0 = 1e9 keeps the resolution of one
  // from 0; the model still sees t).
  void set_time_origin(double t0) { origin_ = t0; }

  // x' = phi(t, x). For DAEs updates the stored z (and x'). False if Newton failed or f returned
  // a non-finite value (see last_residual()).
  bool derivative(double tau, const ConstVectorRef& x, VectorRef xdot) {
    const double t = origin_ + tau;
    if (direct_ && direct_->call(t, x.data(), xdot.data())) {
      return all_finite(xdot.data(), xdot.size());
    }
    return general_derivative(t, x, xdot);
  }

  // Solves the algebraic equations at (t, x) starting from `z`, which receives the solution.
  bool solve_algebraic(double tau, const ConstVectorRef& x, VectorRef z);

  // dphi/dx at (t, x) with z taken from the last solve (call derivative() first).
  void reduced_jacobian(double tau, const ConstVectorRef& x, MatrixRef jac);
  // Rate of the algebraic states along the flow, z' = -g_z^-1 (g_t + g_x x') at a consistent
  // (t, x, z) with x' given (g_t taken as 0 when the flow has no algebraic_time_derivative).
  void algebraic_rate(double tau, const ConstVectorRef& x, const ConstVectorRef& z,
                      const ConstVectorRef& xdot, VectorRef zdot);

  auto algebraic() const { return z_.head(nz_); }
  void set_algebraic(const ConstVectorRef& z) { z_.head(nz_) = z; }

  // Residual norm and iteration count of the last Newton solve (for error messages).
  double last_residual() const { return last_residual_; }
  int last_iterations() const { return last_iterations_; }

 private:
  bool general_derivative(double t, const ConstVectorRef& x, VectorRef xdot);
  // A plain loop: Eigen's allFinite() on a Ref costs more than the flow of a small system.
  static bool all_finite(const double* d, Eigen::Index n) {
    for (Eigen::Index i = 0; i < n; ++i) {
      if (!std::isfinite(d[i])) return false;
    }
    return true;
  }
  bool solve_semi_explicit(double t, const ConstVectorRef& x);
  bool solve_implicit(double t, const ConstVectorRef& x);

  const Flow* flow_ = nullptr;
  const DirectRhs* direct_ = nullptr;  // flow_->rhs's fast path, if it has one
  double origin_ = 0.0;                // set_time_origin
  NewtonOptions newton_;
  int nx_ = 0;
  int nz_ = 0;
  Vector z_, xdot_;               // last algebraic state and (implicit) derivative
  Vector residual_, correction_;  // Newton work vectors (size max_nx + max_nz)
  Matrix newton_matrix_;          // (max_nx + max_nz)^2
  Matrix dfdx_, dfdz_, dgdx_, dgdz_, dFdxdot_, dzdx_;
  Eigen::PartialPivLU<Matrix> lu_;
  // Separate factorisations for reduced_jacobian(): one LU object refactored at another size
  // reallocates its storage, so each size (nz for g_z, nx for F_x') keeps its own.
  Eigen::PartialPivLU<Matrix> lu_gz_, lu_xdot_;
  double last_residual_ = 0.0;
  int last_iterations_ = 0;
};

}  // namespace saltus::ode
