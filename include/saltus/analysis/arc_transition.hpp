// The state-transition matrix Phi(t1, t0) = dx(t1)/dx(t0) of one mode's flow along an arc.
//
// The variational equation Phi' = (dphi/dx) Phi is integrated together with the state, where
// x' = phi(t, x) is the mode's state-space form (ode::FlowEvaluator: for DAE modes z is solved
// from the constraints and dphi/dx is the reduced Jacobian f_x - f_z g_z^-1 g_x, or its implicit
// counterpart), so every mode kind works without derivatives written by the user. The augmented
// state (x, Phi) is an ODE of nx (1 + nx) components run by a Simulator with the run's integrator
// and scalar tolerances (per-component tolerances are dropped: they have the size of x). For
// Radau5 its Jacobian is approximated by blockdiag(dphi/dx, ..., dphi/dx): the term
// (d^2 phi/dx^2) Phi is left out, which only slows the simplified Newton iteration.
//
// Everything is allocated when a mode is first used; one ArcTransition per thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/sim/simulation_options.hpp"

namespace saltus::analysis {

class ArcTransition {
 public:
  ArcTransition(const HybridSystem& system, const SimulationOptions& options);
  ~ArcTransition();
  ArcTransition(ArcTransition&&) noexcept;
  ArcTransition& operator=(ArcTransition&&) noexcept;

  // Integrates (x, Phi) of `mode` from (t0, x0, Phi = I) to t1 (z0: guess for the algebraic
  // state, may be empty). Writes Phi (nx by nx) and x(t1); false with `failure` set when the
  // integration did not reach t1. t1 <= t0 gives Phi = I.
  bool propagate(ModeId mode, double t0, ConstVectorRef x0, ConstVectorRef z0, double t1,
                 Matrix& phi, Vector& x1, std::string& failure);

 private:
  struct Variational;
  Variational& variational(ModeId mode);
  const HybridSystem* system_;
  SimulationOptions options_;
  std::vector<std::unique_ptr<Variational>> modes_;
};

}  // namespace saltus::analysis
