// A return map continued in a parameter that is not a state (a model's run-time parameter,
// model/runtime_parameters.hpp): the map on x_a = (x, p), p appended as the last component and
// kept by the map, P_a(x, p) = (P(x; p), p), DP_a = [DP, dP/dp; 0, 1], so continue_orbit
// (orbit_continuation.hpp) follows it as it follows a state of rate 0.
// DP is the map's own (exact) Jacobian; the column dP/dp is the central difference
// (P(x; p + h) - P(x; p - h)) / 2h, h = cbrt(eps) max(1, |p|) (truncation and rounding about
// eps^(2/3) relative): it enters only the continuation's tangent and corrector matrix, never the
// residual P(x) - x, the multipliers (of DP) or the located bifurcations' tests.
#pragma once

#include <functional>

#include "saltus/analysis/return_map.hpp"

namespace saltus::analysis {

// `set_parameter` applies a value before the map runs (the map reads it); it is left at the
// evaluated p after each call.
ReturnMap parameter_return_map(ReturnMap map, std::function<void(double)> set_parameter);

}  // namespace saltus::analysis
