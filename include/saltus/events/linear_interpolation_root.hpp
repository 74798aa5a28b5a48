// Seed 004's localisation, kept as a baseline: the state is taken to vary linearly over the step,
// x_e = theta x_{n+1} + (1 - theta) x_n, t_e = t_n + theta h (FORMULAS.md 2.2 and 14: theta, not
// t_e, is the interpolation weight). For a guard affine in x the root is closed-form,
//   theta* = p_n / (p_n - p_{n+1});
// for a general guard the simulator runs the Illinois iteration on p along the chord.
// Its error is that of linear interpolation, O(h^2), whatever the integrator's order.
#pragma once

namespace saltus::events {

struct LinearRoot {
  double theta = 0.0;  // in [0, 1]
  double t = 0.0;      // t_n + theta (t_{n+1} - t_n)
};

// Root of the line through (t_n, p_n), (t_n1, p_n1); requires p_n != p_n1.
inline LinearRoot linear_interpolation_root(double t_n, double t_n1, double p_n, double p_n1) {
  const double theta = p_n / (p_n - p_n1);
  return {theta, t_n + theta * (t_n1 - t_n)};
}

}  // namespace saltus::events
