// The parameter of a grazing bifurcation (issue 46): where a periodic orbit of a return map
// (return_map.hpp) touches a guard tangentially, located to the accuracy of the orbits rather
// than to a continuation's step.
//
// The defining system is the fixed point F(y, p) = P(x)_y - y = 0 together with s(y, p) = 0,
// s the orbit's grazing evidence on its own event sequence (MapValue):
//  - from the smooth side (no reset at the touching guard), s = the closest approach, the
//    guard's value at its extremum along the flow: smooth in p with a simple root;
//  - from the impacting side, s = the crossing rate of the reset that becomes tangential. It is
//    the square root of a smooth function for a trajectory passing the guard (Nordmark), and for
//    a periodic orbit it may vanish like p_g - p or like its square root [derived: the fixed point
//    of Nordmark's normal form, s^2 - g s + mu = 0, has mu = g s - s^2].
// In both cases p is a smooth function of s on the branch (the orbit's parameter as a function of
// its evidence), so the locator solves orbits at fixed p (find_fixed_point, the parameter a
// constant state) at evidences s_1 > s_2 > ... -> 0 and extrapolates p(s) and x(s) to s = 0 by
// the quadratic through the last three (Neville): inverse interpolation, which needs no evaluation
// on the other side, where the map has another event sequence or is not smooth. Each new orbit is
// asked for at a tenth of the last evidence, its parameter and guess from the same interpolation.
// Converged when two successive extrapolations of p agree to parameter_tolerance; never otherwise.
#pragma once

#include <string>
#include <vector>

#include "saltus/analysis/periodic_orbit.hpp"

namespace saltus::analysis {

// Which evidence vanishes at the grazing (MapValue: min_crossing_rate or closest_approach).
enum class GrazingSide {
  Impacting,  // a reset's crossing rate -> 0 (the impact becomes tangential)
  Smooth,     // a guard's closest approach -> 0 (the orbit comes to touch the guard)
};
const char* to_string(GrazingSide side);  // "impacting side", "smooth side"

struct GrazingOptions {
  int parameter = 0;  // index of the parameter in the state (a constant of the map)
  // Each orbit's Newton (find_fixed_point): converged when max|P(x) - x| <= tolerance (1 + max|x|).
  double orbit_tolerance = 1e-9;
  int orbit_iterations = 30;
  // Converged when two successive extrapolations of p differ by at most this times (1 + |p|).
  // The orbits bound it: near an impact's grazing |DP| ~ 1 / s multiplies the runs' error, and
  // the estimates stop settling at ~1e-10 for the impact oscillator (then the locator stops).
  double parameter_tolerance = 1e-9;
  int max_orbits = 12;  // orbits solved, the approach's re-solved ones included
};

struct GrazingPoint {
  bool converged = false;
  GrazingSide side = GrazingSide::Impacting;
  double parameter = kNaN;  // the located grazing parameter (NaN unless converged)
  Vector x;                 // the grazing orbit's fixed point, extrapolated (parameter included)
  double change = kNaN;     // |difference of the last two extrapolations of p|
  // The solved orbit nearest the grazing: its parameter, evidence and multipliers.
  double nearest_parameter = kNaN;
  double nearest_evidence = kNaN;
  double nearest_period = kNaN;  // its return time
  long resets = -1;              // resets per period of the orbits on the approach
  Eigen::VectorXcd multipliers;
  int orbits = 0;       // orbits solved
  std::string message;  // how it was located, or why it was not
};

// `approach`: fixed points of `map` on one event sequence (their parameters distinct), ordered
// towards the grazing (the last nearest); at least two. The side is that of the last one's
// smaller evidence.
GrazingPoint locate_grazing(const ReturnMap& map, const std::vector<Vector>& approach,
                            const GrazingOptions& options = {});

}  // namespace saltus::analysis
