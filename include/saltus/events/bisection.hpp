// Bisection on a bracket (seed 004, "Bisection method"; FORMULAS.md 2.2). Robust, linear: one
// bit of the event time per guard evaluation. See root_bracket.hpp for the bracket contract.
#pragma once

#include "saltus/events/root_bracket.hpp"

namespace saltus::events {

template <class S>
RootResult bisection(const S& s, double a, double b, const RootOptions& o) {
  RootResult r{a, b, 0, false};
  while (!detail::bracket_done(r.before, r.after, o) && r.evaluations < o.max_evaluations) {
    const double m = r.before + 0.5 * (r.after - r.before);
    if (m == r.before || m == r.after) break;  // adjacent doubles
    const double sm = s(m);
    ++r.evaluations;
    if (sm < 0.0) {
      r.before = m;
    } else {
      r.after = m;
      if (sm == 0.0) r.before = m;  // exact root: the left limit is the root itself
      if (sm == 0.0) break;
    }
  }
  r.converged = detail::bracket_done(r.before, r.after, o) || r.before == r.after ||
                std::nextafter(r.before, r.after) == r.after;
  return r;
}

}  // namespace saltus::events
