// False position (regula falsi) with the Illinois and Anderson-Bjorck modifications.
//
// Plain false position (seed 004) keeps one end fixed for ever on convex guards and converges
// linearly. When the same end is retained twice its function value is scaled by m:
//   Illinois (Dowell & Jarratt 1971):        m = 1/2                     (order ~1.44)
//   Anderson-Bjorck (Anderson & Bjorck 1973): m = 1 - s_new / s_kept_side, or 1/2 if <= 0
//                                                                        (order ~1.7)
// Both keep a bracket. Trial points stay one ulp inside the bracket, so once the secant has
// converged from one side the next evaluation closes the bracket from the other; a bisection
// step is taken when four iterations shrank the bracket less than two bisections would. The
// loop ends when the bracket spans RootOptions::ulps ulps (root_bracket.hpp).
#pragma once

#include <algorithm>
#include <cmath>

#include "saltus/events/root_bracket.hpp"

namespace saltus::events {

enum class FalsePositionWeight { Illinois, AndersonBjorck };

template <class S>
RootResult false_position(const S& s, double a, double sa, double b, double sb,
                          FalsePositionWeight weight, const RootOptions& o) {
  // Invariant: s(lo) < 0 <= s(hi). f_lo, f_hi are the (possibly scaled) values the secant uses;
  // the latest iterate's value is never scaled.
  RootResult r{a, b, 0, false};
  if (sb == 0.0) {
    r.before = b;  // exact root at the end of the bracket
    r.converged = true;
    return r;
  }
  double f_lo = sa, f_hi = sb;
  int last_side = 0;      // -1: lo was replaced last, +1: hi, 0: none yet
  double f_latest = 0.0;  // raw value of the latest iterate
  double width_checkpoint = b - a;
  int since_checkpoint = 0;
  bool bisect = false;
  while (!detail::bracket_done(r.before, r.after, o) && r.evaluations < o.max_evaluations) {
    const double lo = r.before, hi = r.after;
    double c = bisect ? lo + 0.5 * (hi - lo) : hi - f_hi * (hi - lo) / (f_hi - f_lo);
    if (!(c > lo && c < hi)) c = lo + 0.5 * (hi - lo);
    // Keep at least one ulp from both ends: once the secant has converged onto the root from
    // one side, the next evaluation lands on the other side and closes the bracket.
    const double ulp = std::max(detail::ulp_of(lo), detail::ulp_of(hi));
    c = std::clamp(c, lo + ulp, hi - ulp);
    if (!(c > lo && c < hi)) break;  // adjacent doubles
    bisect = false;
    const double sc = s(c);
    ++r.evaluations;
    if (sc == 0.0) {
      r.before = r.after = c;
      break;
    }
    const int side = sc < 0.0 ? -1 : 1;
    if (side == last_side) {
      // The other end is retained a second time: scale its value down.
      const double m = weight == FalsePositionWeight::Illinois ? 0.5 : 1.0 - sc / f_latest;
      (side < 0 ? f_hi : f_lo) *= (m > 0.0 ? m : 0.5);
    }
    if (side < 0) {
      r.before = c;
      f_lo = sc;
    } else {
      r.after = c;
      f_hi = sc;
    }
    last_side = side;
    f_latest = sc;
    // Safeguard: if four iterations did not shrink the bracket as much as two bisections
    // would have, bisect once (bounds the worst case by a small multiple of bisection).
    if (++since_checkpoint == 4) {
      const double width = r.after - r.before;
      bisect = width > 0.25 * width_checkpoint;
      width_checkpoint = width;
      since_checkpoint = 0;
    }
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
