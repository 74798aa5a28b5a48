// First integrals of a mode's flow kept by projection (Hairer, Lubich & Wanner, Geometric
// Numerical Integration, Sec. IV.4, the standard projection method).
//
// A flow that keeps c(x) exactly (the kinetic energy and the constraint values of a
// nonholonomic system) loses it in the integrator by its local errors, one sign more often
// than the other: the sleigh billiard's energy drifts by ~1.6e-9 per 2e4 time units at DOP853
// rtol 1e-12 (docs/VALIDATION.md). With a projection the simulator reads the target values
// c(x) at the start of a run and after every reset, and moves the state back onto
// {c(x) = target} at the end of every accepted step (DOP853 before the step's last stage, the
// other steppers after the step) and at the event state before a reset is applied,
// so a reset that keeps c (an elastic impact) keeps it to its own round-off and one that
// changes c (restitution < 1) sets the new target.
#pragma once

#include <functional>

#include "saltus/core/types.hpp"

namespace saltus {

struct InvariantProjection {
  int count = 0;  // number of invariants c(x)
  // values <- c(x) (count entries).
  std::function<void(const ConstVectorRef& x, VectorRef values)> values;
  // x <- a nearby state with c(x) = target. Returns false when there is none (the run stops with
  // a message naming the mode).
  std::function<bool(const ConstVectorRef& target, VectorRef x)> project;
};

}  // namespace saltus
