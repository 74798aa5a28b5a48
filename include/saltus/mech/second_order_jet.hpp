// A scalar carrying a value and its first and second derivatives along one direction:
// x(s) = v + d1 s + d2 s^2 / 2. Evaluating a generic gap function g(q) with q = q0 + s qdot gives
// d2 = qdot^T (d^2 g / dq^2) qdot, the acceleration offset what_N of a contact (FORMULAS.md 10.2:
// gddot_N = w_N^T qddot + what_N) without finite differences.
//
// Supports + - * / with doubles on either side, comparisons on the value, and sin, cos, tan, exp,
// log, sqrt, pow(x, double), abs, atan2. Functions are found by argument-dependent lookup, so
// model code written as `using std::sin; sin(q[2])` works for double, Dual and SecondOrderJet.
#pragma once

#include <Eigen/Core>
#include <cmath>

namespace saltus::mech {

struct SecondOrderJet {
  double v = 0.0, d1 = 0.0, d2 = 0.0;
  SecondOrderJet() = default;
  SecondOrderJet(double value) : v(value) {}  // NOLINT: implicit on purpose (constants)
  SecondOrderJet(double value, double first, double second) : v(value), d1(first), d2(second) {}
};

using SOJ = SecondOrderJet;

// f(x) given f(v), f'(v), f''(v).
inline SOJ chain(const SOJ& x, double f, double fp, double fpp) {
  return {f, fp * x.d1, fpp * x.d1 * x.d1 + fp * x.d2};
}

inline SOJ operator+(const SOJ& a) {
  return a;
}
inline SOJ operator-(const SOJ& a) {
  return {-a.v, -a.d1, -a.d2};
}
inline SOJ operator+(const SOJ& a, const SOJ& b) {
  return {a.v + b.v, a.d1 + b.d1, a.d2 + b.d2};
}
inline SOJ operator-(const SOJ& a, const SOJ& b) {
  return {a.v - b.v, a.d1 - b.d1, a.d2 - b.d2};
}
inline SOJ operator*(const SOJ& a, const SOJ& b) {
  return {a.v * b.v, a.d1 * b.v + a.v * b.d1, a.d2 * b.v + 2.0 * a.d1 * b.d1 + a.v * b.d2};
}
inline SOJ operator/(const SOJ& a, const SOJ& b) {
  const double q = a.v / b.v, q1 = (a.d1 - q * b.d1) / b.v;
  return {q, q1, (a.d2 - 2.0 * q1 * b.d1 - q * b.d2) / b.v};
}
inline SOJ operator+(const SOJ& a, double b) {
  return {a.v + b, a.d1, a.d2};
}
inline SOJ operator+(double a, const SOJ& b) {
  return b + a;
}
inline SOJ operator-(const SOJ& a, double b) {
  return {a.v - b, a.d1, a.d2};
}
inline SOJ operator-(double a, const SOJ& b) {
  return {a - b.v, -b.d1, -b.d2};
}
inline SOJ operator*(const SOJ& a, double b) {
  return {a.v * b, a.d1 * b, a.d2 * b};
}
inline SOJ operator*(double a, const SOJ& b) {
  return b * a;
}
inline SOJ operator/(const SOJ& a, double b) {
  return {a.v / b, a.d1 / b, a.d2 / b};
}
inline SOJ operator/(double a, const SOJ& b) {
  return SOJ(a) / b;
}
inline SOJ& operator+=(SOJ& a, const SOJ& b) {
  return a = a + b;
}
inline SOJ& operator-=(SOJ& a, const SOJ& b) {
  return a = a - b;
}
inline SOJ& operator*=(SOJ& a, const SOJ& b) {
  return a = a * b;
}
inline SOJ& operator/=(SOJ& a, const SOJ& b) {
  return a = a / b;
}
inline bool operator<(const SOJ& a, const SOJ& b) {
  return a.v < b.v;
}
inline bool operator>(const SOJ& a, const SOJ& b) {
  return a.v > b.v;
}
inline bool operator<=(const SOJ& a, const SOJ& b) {
  return a.v <= b.v;
}
inline bool operator>=(const SOJ& a, const SOJ& b) {
  return a.v >= b.v;
}
inline bool operator==(const SOJ& a, const SOJ& b) {
  return a.v == b.v;
}

inline SOJ sin(const SOJ& x) {
  return chain(x, std::sin(x.v), std::cos(x.v), -std::sin(x.v));
}
inline SOJ cos(const SOJ& x) {
  return chain(x, std::cos(x.v), -std::sin(x.v), -std::cos(x.v));
}
inline SOJ tan(const SOJ& x) {
  const double t = std::tan(x.v), s = 1.0 + t * t;
  return chain(x, t, s, 2.0 * t * s);
}
inline SOJ exp(const SOJ& x) {
  const double e = std::exp(x.v);
  return chain(x, e, e, e);
}
inline SOJ log(const SOJ& x) {
  return chain(x, std::log(x.v), 1.0 / x.v, -1.0 / (x.v * x.v));
}
inline SOJ sqrt(const SOJ& x) {
  const double s = std::sqrt(x.v);
  return chain(x, s, 0.5 / s, -0.25 / (s * x.v));
}
inline SOJ pow(const SOJ& x, double p) {
  return chain(x, std::pow(x.v, p), p * std::pow(x.v, p - 1.0),
               p * (p - 1.0) * std::pow(x.v, p - 2.0));
}
inline SOJ abs(const SOJ& x) {
  return x.v < 0.0 ? -x : x;
}
inline SOJ atan2(const SOJ& y, const SOJ& x) {
  // d atan2 = (x dy - y dx)/(x^2 + y^2), differentiated once more by the quotient rule.
  const SOJ r2 = x * x + y * y;
  const SOJ num = x * SOJ(y.d1, y.d2, 0.0) - y * SOJ(x.d1, x.d2, 0.0);
  const SOJ rate = num / r2;  // first derivative as a jet (its d1 is the second derivative)
  return {std::atan2(y.v, x.v), rate.v, rate.d1};
}

}  // namespace saltus::mech

namespace Eigen {
template <>
struct NumTraits<saltus::mech::SecondOrderJet> : GenericNumTraits<saltus::mech::SecondOrderJet> {
  using Real = saltus::mech::SecondOrderJet;
  using NonInteger = saltus::mech::SecondOrderJet;
  using Nested = saltus::mech::SecondOrderJet;
  using Literal = saltus::mech::SecondOrderJet;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 3,
    AddCost = 3,
    MulCost = 9
  };
};
}  // namespace Eigen
