// Closed intervals of doubles with outward rounding: the enclosures the certified event search
// (sim/crossing_search.hpp) proves a guard's sign with.
//
// Every operation returns an interval that contains the exact result for every point of its
// operands. Round-to-nearest is kept (no rounding-mode switches, which cost more than the
// operations themselves and are not honoured by libm): each bound is pushed outwards by
// 2^-51 |x| (>= 2 ulps) after an arithmetic operation, whose error is at most 1/2 ulp, and by
// 2^-49 |x| (>= 8 ulps) after an elementary function (glibc documents at most a few ulps for
// exp, log, sin, cos, atan, ...). Boost.Interval was considered: its default policies switch the
// rounding mode per operation and its transcendental functions give no bound without a
// correctly rounded libm.
//
// A function whose domain does not hold the whole interval (sqrt, log, asin, acos, a
// non-integer power) gives NaN bounds: its double counterpart is NaN somewhere in it, or may be.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace saltus::intervals {

struct Interval {
  double lo = 0.0, hi = 0.0;

  Interval() = default;
  constexpr explicit Interval(double value) : lo(value), hi(value) {}
  constexpr Interval(double l, double h) : lo(l), hi(h) {}

  static constexpr Interval entire() {
    return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  }
  static constexpr Interval nan() {
    return {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
  }
  bool is_nan() const { return std::isnan(lo) || std::isnan(hi); }
  bool is_finite() const { return std::isfinite(lo) && std::isfinite(hi); }
  bool contains(double x) const { return lo <= x && x <= hi; }
  double width() const { return hi - lo; }
  double mid() const { return 0.5 * lo + 0.5 * hi; }
  double mag() const { return std::max(std::abs(lo), std::abs(hi)); }
};

namespace interval_detail {

inline constexpr double kArithmetic = 0x1p-51;  // >= 2 ulps of the bound
inline constexpr double kElementary = 0x1p-49;  // >= 8 ulps
inline constexpr double kTiny = std::numeric_limits<double>::denorm_min();

// An infinite bound stays (-inf down, +inf up); +inf down and -inf up (an overflowed interval)
// become NaN, which the search takes as "no enclosure".
inline double down(double x, double rel) {
  return x - (std::abs(x) * rel + kTiny);
}
inline double up(double x, double rel) {
  return x + (std::abs(x) * rel + kTiny);
}
inline Interval widen(double lo, double hi, double rel) {
  return {down(lo, rel), up(hi, rel)};
}
// Whether c + k*period lies in [lo, hi] for some integer k, answered "yes" when rounding could
// decide it either way (a larger enclosure is still one).
inline bool reaches(double lo, double hi, double c, double period) {
  const double k = std::ceil((lo - c) / period);
  const double slack = 16.0 * std::numeric_limits<double>::epsilon() * std::max(std::abs(lo), 1.0);
  for (double kk : {k - 1.0, k}) {
    const double p = c + kk * period;
    if (p >= lo - slack && p <= hi + slack) return true;
  }
  return false;
}

}  // namespace interval_detail

inline Interval hull(const Interval& a, const Interval& b) {
  if (a.is_nan() || b.is_nan()) return Interval::nan();
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}
// The common part of two enclosures of one quantity (both contain it, so it is not empty
// unless rounding disagrees; then the first is kept).
inline Interval intersect(const Interval& a, const Interval& b) {
  const Interval r{std::max(a.lo, b.lo), std::min(a.hi, b.hi)};
  return r.lo <= r.hi ? r : a;
}

inline Interval operator-(const Interval& a) {
  return {-a.hi, -a.lo};
}
inline Interval operator+(const Interval& a, const Interval& b) {
  return interval_detail::widen(a.lo + b.lo, a.hi + b.hi, interval_detail::kArithmetic);
}
inline Interval operator-(const Interval& a, const Interval& b) {
  return interval_detail::widen(a.lo - b.hi, a.hi - b.lo, interval_detail::kArithmetic);
}
inline Interval operator*(const Interval& a, const Interval& b) {
  if (a.lo == a.hi && b.lo == b.hi) {
    const double p = a.lo * b.lo;
    return interval_detail::widen(p, p, interval_detail::kArithmetic);
  }
  // a >= 0 (a time offset): two products instead of four, where they are not 0 x inf.
  if (a.lo >= 0.0 && !std::isnan(b.lo)) {
    double lo = 0.0, hi = 0.0;
    if (b.lo >= 0.0) {
      lo = a.lo * b.lo, hi = a.hi * b.hi;
    } else if (b.hi <= 0.0) {
      lo = a.hi * b.lo, hi = a.lo * b.hi;
    } else {
      lo = a.hi * b.lo, hi = a.hi * b.hi;
    }
    if (!std::isnan(lo) && !std::isnan(hi)) {
      return interval_detail::widen(lo, hi, interval_detail::kArithmetic);
    }
  }
  const double p1 = a.lo * b.lo, p2 = a.lo * b.hi, p3 = a.hi * b.lo, p4 = a.hi * b.hi;
  if (std::isnan(p1) || std::isnan(p2) || std::isnan(p3) || std::isnan(p4)) {
    // 0 * inf: the product of a bound 0 with an unbounded side is bounded by the other products
    // only when all are finite; say nothing instead.
    if (a.is_nan() || b.is_nan()) return Interval::nan();
    return Interval::entire();
  }
  return interval_detail::widen(std::min({p1, p2, p3, p4}), std::max({p1, p2, p3, p4}),
                                interval_detail::kArithmetic);
}
inline Interval operator/(const Interval& a, const Interval& b) {
  if (a.is_nan() || b.is_nan()) return Interval::nan();
  if (b.lo <= 0.0 && b.hi >= 0.0) return Interval::entire();  // includes division by zero
  const double q1 = a.lo / b.lo, q2 = a.lo / b.hi, q3 = a.hi / b.lo, q4 = a.hi / b.hi;
  return interval_detail::widen(std::min({q1, q2, q3, q4}), std::max({q1, q2, q3, q4}),
                                interval_detail::kArithmetic);
}
inline Interval& operator+=(Interval& a, const Interval& b) {
  return a = a + b;
}
inline Interval& operator-=(Interval& a, const Interval& b) {
  return a = a - b;
}
inline Interval& operator*=(Interval& a, const Interval& b) {
  return a = a * b;
}
inline Interval& operator/=(Interval& a, const Interval& b) {
  return a = a / b;
}

inline Interval square(const Interval& a) {
  if (a.is_nan()) return a;
  const double l = a.lo * a.lo, h = a.hi * a.hi;
  if (a.lo <= 0.0 && a.hi >= 0.0) {
    return {0.0, interval_detail::up(std::max(l, h), interval_detail::kArithmetic)};
  }
  return interval_detail::widen(std::min(l, h), std::max(l, h), interval_detail::kArithmetic);
}

inline Interval abs(const Interval& a) {
  if (a.lo >= 0.0) return a;
  if (a.hi <= 0.0) return -a;
  if (a.is_nan()) return a;
  return {0.0, std::max(-a.lo, a.hi)};
}

// An increasing function f on its domain [dlo, dhi]; NaN unless a lies in it (the function is
// NaN somewhere in a, or may be: the search then narrows a or reports the guard).
template <class F>
Interval increasing(const Interval& a, F f, double dlo, double dhi) {
  if (!(a.lo >= dlo && a.hi <= dhi)) return Interval::nan();
  return interval_detail::widen(f(a.lo), f(a.hi), interval_detail::kElementary);
}
template <class F>
Interval decreasing(const Interval& a, F f, double dlo, double dhi) {
  if (!(a.lo >= dlo && a.hi <= dhi)) return Interval::nan();
  return interval_detail::widen(f(a.hi), f(a.lo), interval_detail::kElementary);
}

inline constexpr double kIntervalInf = std::numeric_limits<double>::infinity();

inline Interval sqrt(const Interval& a) {
  Interval r = increasing(
      a, [](double x) { return std::sqrt(x); }, 0.0, kIntervalInf);
  if (!r.is_nan()) r.lo = std::max(r.lo, 0.0);
  return r;
}
inline Interval exp(const Interval& a) {
  Interval r = increasing(
      a, [](double x) { return std::exp(x); }, -kIntervalInf, kIntervalInf);
  if (!r.is_nan()) r.lo = std::max(r.lo, 0.0);
  return r;
}
inline Interval log(const Interval& a) {
  return increasing(
      a, [](double x) { return std::log(x); }, 0.0, kIntervalInf);
}
inline Interval atan(const Interval& a) {
  return increasing(
      a, [](double x) { return std::atan(x); }, -kIntervalInf, kIntervalInf);
}
inline Interval asin(const Interval& a) {
  return increasing(
      a, [](double x) { return std::asin(x); }, -1.0, 1.0);
}
inline Interval acos(const Interval& a) {
  return decreasing(
      a, [](double x) { return std::acos(x); }, -1.0, 1.0);
}
inline Interval sinh(const Interval& a) {
  return increasing(
      a, [](double x) { return std::sinh(x); }, -kIntervalInf, kIntervalInf);
}
inline Interval tanh(const Interval& a) {
  return increasing(
      a, [](double x) { return std::tanh(x); }, -kIntervalInf, kIntervalInf);
}
inline Interval cosh(const Interval& a) {
  if (a.is_nan()) return a;
  if (a.lo >= 0.0)
    return increasing(
        a, [](double x) { return std::cosh(x); }, 0.0, kIntervalInf);
  if (a.hi <= 0.0)
    return decreasing(
        a, [](double x) { return std::cosh(x); }, -kIntervalInf, 0.0);
  return {1.0, interval_detail::up(std::cosh(std::max(-a.lo, a.hi)), interval_detail::kElementary)};
}

// sin and cos: the values at the ends, widened to +-1 where a maximum (minimum) lies inside.
inline Interval periodic(const Interval& a, double (*f)(double), double at_max, double at_min) {
  constexpr double two_pi = 2.0 * std::numbers::pi;
  if (a.is_nan()) return a;
  if (!(a.width() < two_pi)) return {-1.0, 1.0};
  const double fl = f(a.lo), fh = f(a.hi);
  Interval r =
      interval_detail::widen(std::min(fl, fh), std::max(fl, fh), interval_detail::kElementary);
  if (interval_detail::reaches(a.lo, a.hi, at_max, two_pi)) r.hi = 1.0;
  if (interval_detail::reaches(a.lo, a.hi, at_min, two_pi)) r.lo = -1.0;
  return {std::max(r.lo, -1.0), std::min(r.hi, 1.0)};
}
inline Interval sin(const Interval& a) {
  return periodic(
      a, [](double x) { return std::sin(x); }, std::numbers::pi / 2, -std::numbers::pi / 2);
}
inline Interval cos(const Interval& a) {
  return periodic(
      a, [](double x) { return std::cos(x); }, 0.0, std::numbers::pi);
}
inline Interval tan(const Interval& a) {
  if (a.is_nan()) return a;
  if (!(a.width() < std::numbers::pi) ||
      interval_detail::reaches(a.lo, a.hi, std::numbers::pi / 2, std::numbers::pi)) {
    return Interval::entire();
  }
  return interval_detail::widen(std::tan(a.lo), std::tan(a.hi), interval_detail::kElementary);
}
// atan2 over a box: the angles of a box that holds neither the origin nor a point of the
// branch cut (x < 0, y = 0) form an arc whose ends are angles of corners.
inline Interval atan2(const Interval& y, const Interval& x) {
  if (y.is_nan() || x.is_nan()) return Interval::nan();
  const bool spans_cut = x.lo <= 0.0 && y.lo <= 0.0 && y.hi >= 0.0;
  if (spans_cut) return {-std::numbers::pi, std::numbers::pi};
  double lo = kIntervalInf, hi = -kIntervalInf;
  for (double yy : {y.lo, y.hi}) {
    for (double xx : {x.lo, x.hi}) {
      const double v = std::atan2(yy, xx);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  return interval_detail::widen(lo, hi, interval_detail::kElementary);
}

// a^c for a constant exponent: an integer power by its parity, else a >= 0.
inline Interval pow(const Interval& a, double c) {
  if (a.is_nan() || std::isnan(c)) return Interval::nan();
  if (c == 0.0) return Interval(1.0);
  if (c == std::round(c) && std::abs(c) < 1e9) {
    const double n = std::abs(c);
    const bool even = std::fmod(n, 2.0) == 0.0;
    auto p = [n](double x) { return std::pow(x, n); };
    Interval r;
    if (even) {
      const Interval m = abs(a);
      r = interval_detail::widen(p(m.lo), p(m.hi), interval_detail::kElementary);
      r.lo = std::max(r.lo, 0.0);
    } else {
      r = interval_detail::widen(p(a.lo), p(a.hi), interval_detail::kElementary);
    }
    return c > 0.0 ? r : Interval(1.0) / r;
  }
  auto p = [c](double x) { return std::pow(x, c); };
  return c > 0.0 ? increasing(a, p, 0.0, kIntervalInf) : decreasing(a, p, 0.0, kIntervalInf);
}
// a^b for both variable: exp(b log a) (a > 0; a thin integer b falls back to the power above).
inline Interval pow(const Interval& a, const Interval& b) {
  if (b.lo == b.hi) return pow(a, b.lo);
  return exp(b * log(a));
}

inline Interval min(const Interval& a, const Interval& b) {
  if (a.is_nan() || b.is_nan()) return Interval::nan();
  return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
}
inline Interval max(const Interval& a, const Interval& b) {
  if (a.is_nan() || b.is_nan()) return Interval::nan();
  return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
}

}  // namespace saltus::intervals

namespace saltus {
// The type alone: its functions stay in saltus::intervals, found by argument-dependent lookup,
// so that they never hide ::sqrt and friends from unqualified calls on doubles in saltus.
using intervals::Interval;
}  // namespace saltus
