// Options shared by every one-step integrator (Dormand-Prince 5(4), DOP853, Radau IIA).
#pragma once

#include <string>

#include "saltus/core/types.hpp"

namespace saltus::ode {

// Newton iteration used to keep algebraic states consistent (0 = g(t, x, z)) and, in implicit
// flows, to solve F(t, x, x', z) = 0 for x'.
struct NewtonOptions {
  // Converged when every correction satisfies |dz_i| <= tolerance * (1 + |z_i|). Keep it well
  // below the integrator's rtol so algebraic error does not pollute the error estimate.
  double tolerance = 1e-12;
  // Iterations before NewtonFailure. Each iteration re-evaluates the Jacobian (small systems).
  int max_iterations = 25;
};

struct StepperOptions {
  // Relative and absolute tolerance per component; the error test is
  // sqrt(mean((err_i / (atol_i + rtol_i max(|x0_i|, |x1_i|)))^2)) <= 1 (Hairer-Norsett-Wanner).
  double rtol = 1e-6;
  double atol = 1e-9;
  // Optional per-component values (size nx of the mode); when set they override rtol/atol.
  Vector rtol_per_component;
  Vector atol_per_component;

  double h_initial = 0.0;  // 0: chosen automatically from f (HNW II.4 "starting step size")
  double h_min = 0.0;      // 0: 16 ulps of t; below it the step fails with StepSizeUnderflow
  double h_max = kInfinity;
  int max_rejections = 50;  // consecutive rejected tries before TooManyRejections

  // Step-size controller: h_new = h * clamp(safety * err^(-1/(q+1)), fac_min, fac_max).
  double safety = 0.9;
  double fac_min = 0.2;
  double fac_max = 10.0;
  // Explicit pairs only (step_size_controller.hpp): the PI term err_prev^pi_beta, in [0, 0.1];
  // 0 is the elementary controller above.
  double pi_beta = 0.0;

  NewtonOptions newton;

  // Empty when valid, else a message naming the field, the value and the rule broken.
  std::string validate() const;
};

}  // namespace saltus::ode
