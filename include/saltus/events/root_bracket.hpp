// Shared vocabulary of the event root finders.
//
// Every root finder works on a scalar function s(t) on a bracket [a, b] with s(a) < 0 <= s(b)
// ("before" and "after" the crossing; the caller orients a guard so that this holds). It
// returns the final bracket: `before` is the last time known to lie on the pre-crossing side,
// so the state there is the left limit of the event and has not penetrated the guard.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace saltus::events {

enum class RootFinderKind {
  Brent,           // default: inverse quadratic / secant / bisection (brent.hpp)
  AndersonBjorck,  // false position with the Anderson-Bjorck weight, superlinear
  Illinois,        // false position with the Illinois halving
  Bisection,       // halving, one bit per evaluation
  Newton,          // safeguarded Newton on the guard's time derivative (needs a gradient)
};
// Seed 004's linear interpolation along the chord of a step (linear_interpolation_root.hpp) is
// not offered to the simulator: it places events off the trajectory (an impact metres above the
// floor for a long step), so it stays a function for comparisons only.

const char* to_string(RootFinderKind kind);

struct RootOptions {
  // Stop once the bracket spans at most this many ulps of its larger end (>= 1).
  int ulps = 2;
  // Stop once the bracket is shorter than this absolute width (0: only the ulps rule).
  double abs_width = 0.0;
  // Evaluations before giving up (the bracket so far is still returned).
  int max_evaluations = 200;
};

struct RootResult {
  double before = 0.0;  // pre-crossing side: s(before) < 0, or s(before) == 0 at an exact root
  double after = 0.0;   // post-crossing side: s(after) >= 0
  int evaluations = 0;
  bool converged = false;  // bracket within RootOptions' width
};

namespace detail {

// Spacing of doubles at |t| (for |t| >= DBL_MIN; the smallest subnormal below), from the
// exponent bits: called in every root-finder iteration, where nextafter was a measurable cost.
inline double ulp_of(double t) {
  const auto bits = std::bit_cast<std::uint64_t>(std::abs(t));
  const std::uint64_t exponent = bits >> 52;  // biased; sign bit cleared by abs
  if (exponent <= 52) return std::numeric_limits<double>::denorm_min();
  return std::bit_cast<double>((exponent - 52) << 52);
}

inline bool bracket_done(double a, double b, const RootOptions& o) {
  const double width = std::abs(b - a);
  const double scale = std::max(ulp_of(a), ulp_of(b));
  return width <= o.ulps * scale || width <= o.abs_width;
}

}  // namespace detail
}  // namespace saltus::events
