// The certified crossing search (issue 43; private to src/sim): the earliest rising crossing of
// an oriented guard s(t) over [t_from, t_to] of one step's dense output, proven not missed.
//
// The interval is cut into pieces, earliest first. Each piece gets an enclosure of s and of s'
// over it (Guard::enclosure through the dense output, core/interval_jet.hpp), sharpened where
// it can help by the mean value form s(mid) + s'([a, b]) ([a, b] - mid). A piece is done when
//   - s < 0 throughout it (no crossing in it),
//   - s' < 0 throughout it (s falls: no rising crossing inside, whatever its values),
//   - s' > 0 throughout it: s rises, so its values at the ends decide (a bracket for the root
//     finder, or none), or
//   - it lies within the band |s| <= band throughout before the guard has departed (see below);
// otherwise it is halved. A piece at the resolution of time (kMinWidthUlps ulps) that is still
// undecided is taken as its midpoint's value. A crossing needs s < 0 before it: a guard that
// starts on its trigger side (leaving its surface after its reset) has not crossed.
//
// Near the surface: once the guard has been below -band (departed), a local maximum in
// [-band, 0) with no crossing before it is a grazing contact the exact solution may make
// within the tolerance of the computed one: it is reported (Kind::Grazing), not dropped; a slow
// arrival in the band is halved until it rises throughout, so its crossing is located, not
// taken at the band (a ball landing at 4e-6 m/s on a vibrating table). Before the guard has
// departed, pieces inside the band are its resting or leaving on the surface, which the arming
// walk of event_locator.hpp decides.
//
// Failures are never a silent "no crossing": a piece at the resolution of time whose enclosure
// or value is NaN ends the search with Kind::Unbounded and the piece; a search that needs more
// than kMaxPieces enclosures ends with Kind::Exhausted (the caller falls back to samples and
// counts it).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include "saltus/core/interval_jet.hpp"

namespace saltus::detail {

struct CrossingSearchResult {
  enum class Kind {
    None,       // no rising crossing and no grazing in [t_from, t_to]
    Bracket,    // s(a) < 0 <= s(b): a crossing in (a, b] for the root finder
    Grazing,    // a local maximum of s in [-graze_band, 0) at a
    Unbounded,  // no finite enclosure or value on [a, b]
    Exhausted,  // more than kMaxPieces enclosures: not decided (the caller samples)
  };
  Kind kind = Kind::None;
  double a = 0.0, sa = 0.0, b = 0.0, sb = 0.0;
  long enclosures = 0;  // cost
};

// `enclose(a, b)`: IntervalJet of s over [a, b] (v: values, d: ds/dt). `point(t)`: s(t) in
// doubles, as the root finder reads it. s_from = point(t_from). `departed`: the guard has been
// below -band since it was last on its surface (an armed guard); false while it leaves it.
// `needs_departure`: only a crossing after the guard has been below -band counts (a guard that
// waits on its surface, or on its trigger side after its own event, to move away); else any
// negative value before it does (a guard leaving its surface: a bounce lower than the band).
// `graze_band` (<= band): a local maximum in [-graze_band, 0) is a grazing (default: band).
// `cuts`: increasing times inside (t_from, t_to) where the interval is cut before the first
// enclosure, a guess of where the first crossing lies (pieces that end or start next to it are
// decided at once, where halving would take several enclosures to find it). They change the
// cost, never the answer.
template <class Enclose, class Point>
CrossingSearchResult search_crossing(Enclose&& enclose, Point&& point, double t_from, double s_from,
                                     double t_to, double band, bool departed,
                                     bool needs_departure = false, double graze_band = -1.0,
                                     std::span<const double> cuts = {}) {
  if (!(graze_band >= 0.0)) graze_band = band;
  using Kind = CrossingSearchResult::Kind;
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr int kMaxDepth = 60;
  constexpr long kMaxPieces = 4000;
  constexpr double kMinWidthUlps = 64.0;
  CrossingSearchResult out;
  const double min_width = std::max(kMinWidthUlps * std::numeric_limits<double>::epsilon() *
                                        std::max(std::abs(t_from), std::abs(t_to)),
                                    std::numeric_limits<double>::min());
  auto done = [&](Kind kind, double a, double sa, double b, double sb) {
    out.kind = kind;
    out.a = a;
    out.sa = sa;
    out.b = b;
    out.sb = sb;
    return out;
  };
  // The latest time known to have s < 0 with no s >= 0 since (NaN: none yet); its value is
  // read when a bracket needs it (NaN: not read yet).
  if (s_from < -band) departed = true;
  // The start counts as below zero for an armed guard only: a guard leaving its surface starts
  // there, at the round-off of its reset (a start read as -1e-17 is no departure).
  const bool counts_from_start = s_from < 0.0 && departed;
  double t_neg = counts_from_start ? t_from : kNaN;
  double s_neg = s_from;
  auto negative_until = [&](double t, double s) {  // s may be NaN (not read): below -band
    if (s < -band) departed = true;
    if (!departed && needs_departure) return;
    t_neg = t;
    s_neg = s;
  };
  // A crossing at or before t (s(t) = st >= 0) after the latest negative time.
  auto crossing_before = [&](double t, double st) {
    if (std::isnan(s_neg)) s_neg = point(t_neg);
    if (s_neg < 0.0) return done(Kind::Bracket, t_neg, s_neg, t, st);
    return done(Kind::Bracket, t_neg, s_neg, t_neg, s_neg);  // round-off: at t_neg itself
  };
  // The end of the latest piece proven falling: a piece starting there is no local maximum.
  double falling_until = kNaN;
  auto may_graze_at = [&](double t) { return departed && t != t_from && t != falling_until; };

  struct Piece {
    double a, b;
  };
  constexpr int kMaxCuts = 4;
  Piece stack[kMaxDepth + kMaxCuts + 2];
  int top = 0;
  double upper = t_to;  // the pieces go on the stack latest first
  for (size_t n = std::min(cuts.size(), size_t{kMaxCuts}); n-- > 0;) {
    if (cuts[n] > t_from && cuts[n] < upper) {
      stack[top++] = {cuts[n], upper};
      upper = cuts[n];
    }
  }
  stack[top++] = {t_from, upper};
  while (top > 0) {
    const auto [a, b] = stack[--top];
    if (out.enclosures >= kMaxPieces) return done(Kind::Exhausted, a, kNaN, b, kNaN);
    const IntervalJet e = enclose(a, b);
    ++out.enclosures;
    const bool at_resolution = !(b - a > min_width) || top >= kMaxDepth + kMaxCuts;
    Interval v = e.v;
    // The mean value form costs a second enclosure: only for a piece that is not monotone (a
    // monotone one is decided by its end values) and where the value at the middle says it can
    // prove the piece below the band.
    const bool monotone = e.d.lo > 0.0 || e.d.hi < 0.0;
    if (!monotone && !v.is_nan() && e.d.is_finite() && !(v.hi < -band)) {
      const double m = 0.5 * (a + b);
      const double sm = point(m);
      if (!(sm + 0.5 * e.d.mag() * (b - a) >= -band)) {
        const IntervalJet em = enclose(m, m);
        ++out.enclosures;
        if (!em.v.is_nan()) v = intersect(v, em.v + e.d * (Interval(a, b) - Interval(m)));
      }
    }
    const bool negative_seen = !std::isnan(t_neg);
    if (v.is_nan() || e.d.is_nan()) {
      if (at_resolution) return done(Kind::Unbounded, a, kNaN, b, kNaN);
    } else if (v.hi < 0.0 && (v.hi < -band || !departed)) {  // below zero throughout
      if (v.hi < -band) departed = true;
      negative_until(b, v.hi < -band ? kNaN : point(b));
      continue;
    } else if (e.d.lo > 0.0) {  // rising throughout
      const double sb = point(b);
      if (std::isnan(sb)) return done(Kind::Unbounded, a, kNaN, b, kNaN);
      if (sb < 0.0) {
        negative_until(b, sb);
        continue;
      }
      const double sa = a == t_neg && !std::isnan(s_neg) ? s_neg : point(a);
      if (std::isnan(sa)) return done(Kind::Unbounded, a, kNaN, b, kNaN);
      if (sa < -band) departed = true;
      if (sa < 0.0 && (departed || !needs_departure)) return done(Kind::Bracket, a, sa, b, sb);
      if (negative_seen) return crossing_before(a, sa);
      continue;                 // on its trigger side, or not yet departed, rising: not a crossing
    } else if (e.d.hi < 0.0) {  // falling throughout: its maximum is at a
      if (v.hi >= 0.0 || (departed && v.hi >= -band)) {
        const double sa = point(a);
        if (std::isnan(sa)) return done(Kind::Unbounded, a, kNaN, b, kNaN);
        if (sa >= 0.0 && negative_seen && a != t_neg) return crossing_before(a, sa);
        if (sa < 0.0 && sa >= -graze_band && may_graze_at(a)) {
          return done(Kind::Grazing, a, sa, a, sa);
        }
        const double sb = point(b);
        if (std::isnan(sb)) return done(Kind::Unbounded, a, kNaN, b, kNaN);
        if (sb < 0.0) negative_until(b, sb);
      } else {
        if (v.hi < -band) departed = true;
        negative_until(b, kNaN);
      }
      falling_until = b;
      continue;
    } else if (v.lo >= -band && v.hi <= band && !departed) {
      continue;               // on its surface throughout, not yet departed: resting or leaving
    } else if (v.lo > 0.0) {  // above zero throughout (a constant of a set's guard, too)
      if (!negative_seen) continue;  // on its trigger side: no crossing in the piece
      const double sa = point(a);
      if (std::isnan(sa)) return done(Kind::Unbounded, a, kNaN, b, kNaN);
      // Crossed between the latest negative time and a (halved below where the value at a
      // rounds below zero against its enclosure).
      if (sa >= 0.0) return crossing_before(a, sa);
    }
    const double m = 0.5 * (a + b);
    if (!at_resolution) {
      stack[top++] = {m, b};
      stack[top++] = {a, m};
      continue;
    }
    // Undecided at the resolution of time: the piece is its midpoint.
    const double sm = point(m);
    if (std::isnan(sm)) return done(Kind::Unbounded, a, kNaN, b, kNaN);
    if (sm >= 0.0) {
      if (negative_seen) return crossing_before(m, sm);
      continue;
    }
    if (sm >= -graze_band && may_graze_at(a)) return done(Kind::Grazing, m, sm, m, sm);
    negative_until(m, sm);
  }
  return out;
}

// Cuts for search_crossing around the rising crossing of the parabola through the values at
// t_from, at the middle (read here) and at t_to, where the end value says the guard is on its
// trigger side (s_to >= 0): the crossing of a flight that leaves its surface and returns, or
// of a guard that rises through its surface, is then bracketed by two enclosures instead of
// found by halving. The window around the guess is 1/32 of its distance to the step's ends and
// to the parabola's extremum, so that the pieces next to it are monotone or below zero where
// the parabola is a fair model of the guard. Returns the number of cuts (0: no guess).
template <class Point>
int parabola_cuts(Point&& point, double t_from, double s_from, double t_to, double s_to,
                  double cuts[2]) {
  if (!(s_to >= 0.0) || !std::isfinite(s_from) || !(t_to > t_from)) return 0;
  const double sm = point(0.5 * (t_from + t_to));
  if (!std::isfinite(sm)) return 0;
  // q(u) = s_from + b u + a u^2 on u in [0, 1]; its rising root (q' = +sqrt(D) > 0 there).
  const double a = 2.0 * (s_to - 2.0 * sm + s_from), b = s_to - s_from - a;
  const double disc = b * b - 4.0 * a * s_from;
  if (!(disc >= 0.0)) return 0;
  const double root = std::sqrt(disc);
  const double u = b < 0.0 ? (root - b) / (2.0 * a) : -2.0 * s_from / (b + root);
  if (!(u > 0.0 && u < 1.0)) return 0;
  double reach = std::min(u, 1.0 - u);
  if (a != 0.0) reach = std::min(reach, std::abs(u + b / (2.0 * a)));
  const double half = reach / 32.0, w = t_to - t_from;
  cuts[0] = t_from + (u - half) * w;
  cuts[1] = t_from + (u + half) * w;
  return cuts[0] < cuts[1] ? 2 : 0;
}

}  // namespace saltus::detail
