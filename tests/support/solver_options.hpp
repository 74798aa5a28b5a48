// Simulation options with given tolerances and integrator, shared by the tests.
#pragma once

#include "saltus/sim/simulation_options.hpp"

namespace saltus::testing {

inline SimulationOptions solver_options(double rtol, double atol,
                                        Integrator integrator = Integrator::Dopri5) {
  SimulationOptions o;
  o.integrator = integrator;
  o.stepper.rtol = rtol;
  o.stepper.atol = atol;
  return o;
}

}  // namespace saltus::testing
