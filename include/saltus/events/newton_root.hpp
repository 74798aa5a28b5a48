// Safeguarded Newton iteration for an event time (seed 004, "Newton's method").
//
// theta <- theta - s / s' with s' = dp/dx x'(t) + dp/dz z'(t) + dp/dt from the guard gradient and
// the dense output's derivative. A step that leaves the current bracket is replaced by
// bisection, and so is the next step after two Newton steps that failed to halve, so
// convergence is guaranteed; near the root Newton is quadratic, and a final one-ulp step across
// the root closes the bracket. `s_and_ds(t, ds)` returns s(t) and writes s'(t).
#pragma once

#include <algorithm>
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
  double last_step = b - a;
  int slow_steps = 0;
  bool bisect = false;
  while (!detail::bracket_done(r.before, r.after, o) && r.evaluations < o.max_evaluations) {
    double ds = 0.0;
    const double st = s_and_ds(t, ds);
    ++r.evaluations;
    if (st == 0.0) {
      r.before = r.after = t;
      break;
    }
    (st < 0.0 ? r.before : r.after) = t;
    if (detail::bracket_done(r.before, r.after, o)) break;
    const double lo = r.before, hi = r.after;
    double next = (ds != 0.0 && !bisect) ? t - st / ds : lo + 0.5 * (hi - lo);
    if (!(next > lo && next < hi)) next = lo + 0.5 * (hi - lo);
    // A step below one ulp has converged from one side: step one ulp across to close the bracket.
    const double ulp = std::max(detail::ulp_of(lo), detail::ulp_of(hi));
    if (std::abs(next - t) < ulp) next = st < 0.0 ? t + ulp : t - ulp;
    next = std::clamp(next, lo + ulp, hi - ulp);
    if (!(next > lo && next < hi)) break;  // adjacent doubles
    // Newton steps that do not halve twice in a row mean no quadratic convergence: bisect.
    const double step = std::abs(next - t);
    slow_steps = step > 0.5 * last_step ? slow_steps + 1 : 0;
    bisect = slow_steps >= 2;
    if (bisect) slow_steps = 0;
    last_step = step;
    t = next;
  }
  r.converged = r.before == r.after || detail::bracket_done(r.before, r.after, o) ||
                std::nextafter(r.before, r.after) == r.after;
  return r;
}

}  // namespace saltus::events
