// False position (regula falsi) with the Illinois and Anderson-Bjorck modifications.
//
// Plain false position (seed 004) keeps one end fixed for ever on convex guards and converges
// linearly. When the same end is retained twice its function value is scaled by m:
//   Illinois (Dowell & Jarratt 1971):        m = 1/2                     (order ~1.44)
//   Anderson-Bjorck (Anderson & Bjorck 1973): m = 1 - s_new / s_kept_side, or 1/2 if <= 0
//                                                                        (order ~1.7)
// Both keep a bracket. A bisection step is forced whenever two consecutive iterations fail to
// halve the bracket, which bounds the worst case by twice the cost of bisection; the loop ends
// when the bracket spans RootOptions::ulps ulps (root_bracket.hpp).
#pragma once

#include <cmath>

#include "saltus/events/root_bracket.hpp"

namespace saltus::events {

enum class FalsePositionWeight { Illinois, AndersonBjorck };

template <class S>
RootResult false_position(const S& s, double a, double sa, double b, double sb,
                          FalsePositionWeight weight, const RootOptions& o) {
  // Invariant: s(lo) < 0 <= s(hi); fl, fh are the (possibly scaled) values used for the secant.
  RootResult r{a, b, 0, false};
  double fl = sa, fh = sb;
  if (sb == 0.0) {
    r.before = b;  // exact root at the end of the bracket
    r.converged = true;
    return r;
  }
  int retained_low = 0, retained_high = 0;
  double width_before = std::abs(b - a);
  int slow = 0;
  while (!detail::bracket_done(r.before, r.after, o) && r.evaluations < o.max_evaluations) {
    double c = r.after - fh * (r.after - r.before) / (fh - fl);
    const bool force_bisection = slow >= 2;
    if (force_bisection || !(c > r.before && c < r.after)) {
      c = r.before + 0.5 * (r.after - r.before);
      slow = 0;
    }
    if (c <= r.before || c >= r.after) break;  // adjacent doubles
    const double sc = s(c);
    ++r.evaluations;
    if (sc == 0.0) {
      r.before = r.after = c;
      break;
    }
    if (sc < 0.0) {
      const double old = fl;
      r.before = c;
      fl = sc;
      retained_low = 0;
      if (++retained_high >= 2) {
        const double m = weight == FalsePositionWeight::Illinois ? 0.5 : 1.0 - sc / old;
        fh *= (m > 0.0 ? m : 0.5);
      }
    } else {
      const double old = fh;
      r.after = c;
      fh = sc;
      retained_high = 0;
      if (++retained_low >= 2) {
        const double m = weight == FalsePositionWeight::Illinois ? 0.5 : 1.0 - sc / old;
        fl *= (m > 0.0 ? m : 0.5);
      }
    }
    const double width = r.after - r.before;
    slow = width > 0.5 * width_before ? slow + 1 : 0;
    width_before = width;
  }
  r.converged = r.before == r.after || detail::bracket_done(r.before, r.after, o) ||
                std::nextafter(r.before, r.after) == r.after;
  return r;
}

template <class S>
RootResult illinois(const S& s, double a, double sa, double b, double sb, const RootOptions& o) {
  return false_position(s, a, sa, b, sb, FalsePositionWeight::Illinois, o);
}

template <class S>
RootResult anderson_bjorck(const S& s, double a, double sa, double b, double sb,
                           const RootOptions& o) {
  return false_position(s, a, sa, b, sb, FalsePositionWeight::AndersonBjorck, o);
}

}  // namespace saltus::events
