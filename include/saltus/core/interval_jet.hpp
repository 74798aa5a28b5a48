// An enclosure of a function of time and of its time derivative over an interval of time: the
// scalar the certified event search evaluates guards in (sim/crossing_search.hpp). Forward-mode
// differentiation in interval arithmetic (core/interval.hpp): for every t in the interval, the
// function's value lies in `v` and its derivative in `d`. An operation that is not
// differentiable somewhere in the interval (a jump of sign(), a comparison, an if()) gives
// d = entire: the search then never claims monotonicity there.
#pragma once

#include "saltus/core/interval.hpp"

namespace saltus::intervals {

struct IntervalJet {
  Interval v, d;

  IntervalJet() = default;
  explicit IntervalJet(double value) : v(value), d(0.0) {}
  IntervalJet(const Interval& value, const Interval& derivative) : v(value), d(derivative) {}

  // t over [t0, t1]: the variable the search differentiates by.
  static IntervalJet time(double t0, double t1) { return {Interval(t0, t1), Interval(1.0)}; }
  // A function that jumps in the interval: its values, nothing known of its derivative.
  static IntervalJet jump(const Interval& value) { return {value, Interval::entire()}; }
};

inline IntervalJet operator-(const IntervalJet& a) {
  return {-a.v, -a.d};
}
inline IntervalJet operator+(const IntervalJet& a, const IntervalJet& b) {
  return {a.v + b.v, a.d + b.d};
}
inline IntervalJet operator-(const IntervalJet& a, const IntervalJet& b) {
  return {a.v - b.v, a.d - b.d};
}
inline IntervalJet operator*(const IntervalJet& a, const IntervalJet& b) {
  return {a.v * b.v, a.d * b.v + a.v * b.d};
}
inline IntervalJet operator/(const IntervalJet& a, const IntervalJet& b) {
  const Interval q = a.v / b.v;
  return {q, (a.d - q * b.d) / b.v};
}
inline IntervalJet& operator+=(IntervalJet& a, const IntervalJet& b) {
  return a = a + b;
}
inline IntervalJet& operator-=(IntervalJet& a, const IntervalJet& b) {
  return a = a - b;
}
inline IntervalJet& operator*=(IntervalJet& a, const IntervalJet& b) {
  return a = a * b;
}
inline IntervalJet& operator/=(IntervalJet& a, const IntervalJet& b) {
  return a = a / b;
}

inline IntervalJet sqrt(const IntervalJet& a) {
  const Interval r = sqrt(a.v);
  return {r, a.d / (Interval(2.0) * r)};
}
inline IntervalJet exp(const IntervalJet& a) {
  const Interval r = exp(a.v);
  return {r, r * a.d};
}
inline IntervalJet log(const IntervalJet& a) {
  return {log(a.v), a.d / a.v};
}
inline IntervalJet sin(const IntervalJet& a) {
  return {sin(a.v), cos(a.v) * a.d};
}
inline IntervalJet cos(const IntervalJet& a) {
  return {cos(a.v), -(sin(a.v) * a.d)};
}
inline IntervalJet tan(const IntervalJet& a) {
  const Interval r = tan(a.v);
  return {r, (Interval(1.0) + square(r)) * a.d};
}
inline IntervalJet asin(const IntervalJet& a) {
  return {asin(a.v), a.d / sqrt(Interval(1.0) - square(a.v))};
}
inline IntervalJet acos(const IntervalJet& a) {
  return {acos(a.v), -(a.d / sqrt(Interval(1.0) - square(a.v)))};
}
inline IntervalJet atan(const IntervalJet& a) {
  return {atan(a.v), a.d / (Interval(1.0) + square(a.v))};
}
inline IntervalJet atan2(const IntervalJet& y, const IntervalJet& x) {
  return {atan2(y.v, x.v), (x.v * y.d - y.v * x.d) / (square(x.v) + square(y.v))};
}
inline IntervalJet sinh(const IntervalJet& a) {
  return {sinh(a.v), cosh(a.v) * a.d};
}
inline IntervalJet cosh(const IntervalJet& a) {
  return {cosh(a.v), sinh(a.v) * a.d};
}
inline IntervalJet tanh(const IntervalJet& a) {
  const Interval r = tanh(a.v);
  return {r, (Interval(1.0) - square(r)) * a.d};
}
inline IntervalJet square(const IntervalJet& a) {
  return {square(a.v), Interval(2.0) * a.v * a.d};
}
inline IntervalJet abs(const IntervalJet& a) {
  if (a.v.lo > 0.0) return a;
  if (a.v.hi < 0.0) return -a;
  return {abs(a.v), hull(a.d, -a.d)};  // |f|' is +-f' where it exists
}
inline IntervalJet pow(const IntervalJet& a, double c) {
  if (c == 0.0) return IntervalJet(1.0);
  return {pow(a.v, c), Interval(c) * pow(a.v, c - 1.0) * a.d};
}
inline IntervalJet pow(const IntervalJet& a, const IntervalJet& b) {
  if (b.v.lo == b.v.hi && b.d.lo == 0.0 && b.d.hi == 0.0) return pow(a, b.v.lo);
  return exp(b * log(a));
}
// min and max: the chosen operand where one is below the other throughout, else the hull of
// both (a min of two functions has its derivative, where it exists, among theirs).
inline IntervalJet min(const IntervalJet& a, const IntervalJet& b) {
  if (a.v.hi < b.v.lo) return a;
  if (b.v.hi < a.v.lo) return b;
  return {min(a.v, b.v), hull(a.d, b.d)};
}
inline IntervalJet max(const IntervalJet& a, const IntervalJet& b) {
  if (a.v.lo > b.v.hi) return a;
  if (b.v.lo > a.v.hi) return b;
  return {max(a.v, b.v), hull(a.d, b.d)};
}
inline IntervalJet sign(const IntervalJet& a) {
  if (a.v.is_nan()) return {Interval::nan(), Interval::nan()};
  if (a.v.lo > 0.0) return IntervalJet(1.0);
  if (a.v.hi < 0.0) return IntervalJet(-1.0);
  if (a.v.lo == 0.0 && a.v.hi == 0.0) return IntervalJet(0.0);
  return IntervalJet::jump(Interval(a.v.lo < 0.0 ? -1.0 : 0.0, a.v.hi > 0.0 ? 1.0 : 0.0));
}
// if(c, a, b): a where c != 0, b where c == 0; both possible: either, jumping between them.
inline IntervalJet choose(const IntervalJet& c, const IntervalJet& a, const IntervalJet& b) {
  if (c.v.is_nan()) return {Interval::nan(), Interval::nan()};
  if (c.v.lo > 0.0 || c.v.hi < 0.0) return a;
  if (c.v.lo == 0.0 && c.v.hi == 0.0) return b;
  return IntervalJet::jump(hull(a.v, b.v));
}
// A comparison's truth (1 or 0) where it is decided throughout, else a jump between them.
inline IntervalJet truth_where(bool always, bool never) {
  if (always) return IntervalJet(1.0);
  if (never) return IntervalJet(0.0);
  return IntervalJet::jump(Interval(0.0, 1.0));
}

}  // namespace saltus::intervals

namespace saltus {
// The type alone: its functions stay in saltus::intervals, found by argument-dependent lookup,
// so that they never hide ::sqrt and friends from unqualified calls on doubles in saltus.
using intervals::IntervalJet;
}  // namespace saltus
