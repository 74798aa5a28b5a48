// Safeguarded Newton iteration for an event time (seed 004, "Newton's method").
//
// theta <- theta - s / s' with s' = dp/dx x'(t) + dp/dz z'(t) + dp/dt from the guard gradient and
// the dense output's derivative. A step that leaves the current bracket, or does not halve it
// within two iterations, is replaced by bisection, so convergence is guaranteed; near the root
// Newton is quadratic. `s_and_ds(t, ds)` returns s(t) and writes s'(t).
#pragma once

#include <cmath>

#include "saltus/events/root_bracket.hpp"

namespace saltus::events {

template <class SD>
RootResult newton_root(const SD& s_and_ds, double a, double sa, double b, double sb,
                       const RootOptions& o) {
  RootResult r{a, b, 0, false};
  if (sb == 0.0) {
    r.before = b;
    r.converged = true;
    return r;
  }
  // Start from the secant point: on a nearly linear guard it is already close.
  double t = b - sb * (b - a) / (sb - sa);
  if (!(t > a && t < b)) t = a + 0.5 * (b - a);
  double width_before = b - a;
  int slow = 0;
  while (!detail::bracket_done(r.before, r.after, o) && r.evaluations < o.max_evaluations) {
    double ds = 0.0;
    const double st = s_and_ds(t, ds);
    ++r.evaluations;
    if (st == 0.0) {
      r.before = r.after = t;
      break;
    }
    (st < 0.0 ? r.before : r.after) = t;
    const double width = r.after - r.before;
    slow = width > 0.5 * width_before ? slow + 1 : 0;
    width_before = width;
    double next = ds != 0.0 ? t - st / ds : r.before + 0.5 * width;
    if (!(next > r.before && next < r.after) || slow >= 2) {
      next = r.before + 0.5 * width;
      slow = 0;
    }
    // Converged Newton lands on an end point: probe the neighbouring double to close the bracket.
    if (next == t) next = st < 0.0 ? std::nextafter(t, r.after) : std::nextafter(t, r.before);
    if (next <= r.before || next >= r.after) break;
    t = next;
  }
  r.converged = r.before == r.after || detail::bracket_done(r.before, r.after, o) ||
                std::nextafter(r.before, r.after) == r.after;
  return r;
}

}  // namespace saltus::events
