// The contract every one-step integrator meets (STYLE.md 5a). The simulator and the event
// locator use only these expressions, so Dopri5, Dop853 and Radau5 are interchangeable.
#pragma once

#include <concepts>

#include "saltus/core/flow.hpp"
#include "saltus/ode/flow_evaluator.hpp"
#include "saltus/ode/step_status.hpp"
#include "saltus/ode/stepper_options.hpp"

namespace saltus::ode {

template <class S>
concept DenseStepper = requires(S s, const S c, const Flow& flow, double t, ConstVectorRef x,
                                VectorRef out) {
  {S(StepperOptions{}, 1, 0)};                               // buffers sized for (max_nx, max_nz)
  s.set_flow(flow);                                          // after a mode change
  { s.restart(t, x, x, true) } -> std::same_as<StepStatus>;  // recomputes f; drops caches
  { s.step(t) } -> std::same_as<StepStatus>;                 // one accepted step, never past t
  s.limit_next_step(t);                                      // predictive event step cap
  { c.interval() } -> std::same_as<StepSpan>;                // where interpolate() is valid
  c.interpolate(t, out);                                     // no allocation, no f evaluation
  c.interpolate_derivative(t, out);
  { c.time() } -> std::convertible_to<double>;
  c.state();
  { c.step_size() } -> std::convertible_to<double>;
  { c.stats() } -> std::convertible_to<const StepperStats&>;
  { s.evaluator() } -> std::convertible_to<FlowEvaluator&>;
};

}  // namespace saltus::ode
