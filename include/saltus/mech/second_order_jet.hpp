// A scalar carrying a value and its first and second derivatives along one direction:
// x(s) = v + d1 s + d2 s^2 / 2 (truncated Taylor series, second-order forward AD).
//
// Evaluating a generic gap function g(q) with q = q0 + s qdot gives d1 = w_N^T qdot and
// d2 = qdot^T (d^2 g / dq^2) qdot, the acceleration offset what_N of a contact (FORMULAS.md 10.2:
// gddot_N = w_N^T qddot + what_N) without finite differences; with q = q0 + s e_k it gives the
// gradient entry dg/dq_k in d1.
//
// Templated on the scalar of its coefficients (Pinocchio's ModelTpl + alias pattern):
//   SecondOrderJet      = SecondOrderJetTpl<double>
//   DualSecondOrderJet  = SecondOrderJetTpl<saltus::Dual>  (coefficients carry one more
//                         first derivative, so what_N and w_N are differentiated once more:
//                         the AD gradients of the guards)
//   ChunkSecondOrderJet = SecondOrderJetTpl<saltus::ChunkDual>  (kJacobianChunk first
//                         derivatives at once: the AD Jacobians of the closed-contact flows)
//
// Function set (each a free function in saltus::mech, found by argument-dependent lookup, so
// model code written as `using std::sin; sin(q[2])` works for double, Dual and both jets):
//   + - * / with a jet or a double on either side, unary + -, += -= *= /=,
//   comparisons < <= > >= == != (jet or double on either side; they compare values only),
//   sin cos tan asin acos atan atan2 sinh cosh tanh exp log sqrt abs pow(x, double)
//   pow(x, jet) pow(double, jet).
// Derivatives use f(x(s)): d1 = f' x.d1, d2 = f'' x.d1^2 + f' x.d2 (chain()). Domain edges are
// those of the double functions (log and sqrt at 0, asin/acos at +-1 give inf/NaN derivatives).
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <type_traits>

#include "saltus/core/autodiff.hpp"

namespace saltus::mech {

template <class T>
struct SecondOrderJetTpl {
  T v = T(0.0), d1 = T(0.0), d2 = T(0.0);
  SecondOrderJetTpl() = default;
  SecondOrderJetTpl(double value) : v(value) {}  // NOLINT: implicit on purpose (constants)
  SecondOrderJetTpl(const T& value)              // NOLINT: implicit (coefficient constants)
      requires(!std::is_same_v<T, double>)
      : v(value) {}
  SecondOrderJetTpl(const T& value, const T& first, const T& second)
      : v(value), d1(first), d2(second) {}
};

using SecondOrderJet = SecondOrderJetTpl<double>;
using DualSecondOrderJet = SecondOrderJetTpl<Dual>;
using ChunkSecondOrderJet = SecondOrderJetTpl<ChunkDual>;

namespace detail {
// The double value of a coefficient (double, Dual or ChunkDual).
inline double jet_value(double x) {
  return x;
}
template <int N>
double jet_value(const ceres::Jet<double, N>& x) {
  return x.a;
}
}  // namespace detail

// The double value of a jet: what comparisons look at (also found by the model layer's tapes
// through argument-dependent lookup).
template <class T>
double scalar_value(const SecondOrderJetTpl<T>& x) {
  return detail::jet_value(x.v);
}

// f(x) given f(v), f'(v), f''(v).
template <class T>
SecondOrderJetTpl<T> chain(const SecondOrderJetTpl<T>& x, const T& f, const T& fp, const T& fpp) {
  return {f, T(fp * x.d1), T(fpp * x.d1 * x.d1 + fp * x.d2)};
}

// ---------------------------------------------------------------- arithmetic
template <class T>
SecondOrderJetTpl<T> operator+(const SecondOrderJetTpl<T>& a) {
  return a;
}
template <class T>
SecondOrderJetTpl<T> operator-(const SecondOrderJetTpl<T>& a) {
  return {T(-a.v), T(-a.d1), T(-a.d2)};
}
template <class T>
SecondOrderJetTpl<T> operator+(const SecondOrderJetTpl<T>& a, const SecondOrderJetTpl<T>& b) {
  return {T(a.v + b.v), T(a.d1 + b.d1), T(a.d2 + b.d2)};
}
template <class T>
SecondOrderJetTpl<T> operator-(const SecondOrderJetTpl<T>& a, const SecondOrderJetTpl<T>& b) {
  return {T(a.v - b.v), T(a.d1 - b.d1), T(a.d2 - b.d2)};
}
template <class T>
SecondOrderJetTpl<T> operator*(const SecondOrderJetTpl<T>& a, const SecondOrderJetTpl<T>& b) {
  return {T(a.v * b.v), T(a.d1 * b.v + a.v * b.d1), T(a.d2 * b.v + 2.0 * a.d1 * b.d1 + a.v * b.d2)};
}
template <class T>
SecondOrderJetTpl<T> operator/(const SecondOrderJetTpl<T>& a, const SecondOrderJetTpl<T>& b) {
  const T q = T(a.v / b.v), q1 = T((a.d1 - q * b.d1) / b.v);
  return {q, q1, T((a.d2 - 2.0 * q1 * b.d1 - q * b.d2) / b.v)};
}
template <class T>
SecondOrderJetTpl<T> operator+(const SecondOrderJetTpl<T>& a, double b) {
  return {T(a.v + b), a.d1, a.d2};
}
template <class T>
SecondOrderJetTpl<T> operator+(double a, const SecondOrderJetTpl<T>& b) {
  return b + a;
}
template <class T>
SecondOrderJetTpl<T> operator-(const SecondOrderJetTpl<T>& a, double b) {
  return {T(a.v - b), a.d1, a.d2};
}
template <class T>
SecondOrderJetTpl<T> operator-(double a, const SecondOrderJetTpl<T>& b) {
  return {T(a - b.v), T(-b.d1), T(-b.d2)};
}
template <class T>
SecondOrderJetTpl<T> operator*(const SecondOrderJetTpl<T>& a, double b) {
  return {T(a.v * b), T(a.d1 * b), T(a.d2 * b)};
}
template <class T>
SecondOrderJetTpl<T> operator*(double a, const SecondOrderJetTpl<T>& b) {
  return b * a;
}
template <class T>
SecondOrderJetTpl<T> operator/(const SecondOrderJetTpl<T>& a, double b) {
  return {T(a.v / b), T(a.d1 / b), T(a.d2 / b)};
}
template <class T>
SecondOrderJetTpl<T> operator/(double a, const SecondOrderJetTpl<T>& b) {
  return SecondOrderJetTpl<T>(a) / b;
}
template <class T>
SecondOrderJetTpl<T>& operator+=(SecondOrderJetTpl<T>& a, const SecondOrderJetTpl<T>& b) {
  return a = a + b;
}
template <class T>
SecondOrderJetTpl<T>& operator-=(SecondOrderJetTpl<T>& a, const SecondOrderJetTpl<T>& b) {
  return a = a - b;
}
template <class T>
SecondOrderJetTpl<T>& operator*=(SecondOrderJetTpl<T>& a, const SecondOrderJetTpl<T>& b) {
  return a = a * b;
}
template <class T>
SecondOrderJetTpl<T>& operator/=(SecondOrderJetTpl<T>& a, const SecondOrderJetTpl<T>& b) {
  return a = a / b;
}
template <class T>
SecondOrderJetTpl<T>& operator+=(SecondOrderJetTpl<T>& a, double b) {
  return a = a + b;
}
template <class T>
SecondOrderJetTpl<T>& operator-=(SecondOrderJetTpl<T>& a, double b) {
  return a = a - b;
}
template <class T>
SecondOrderJetTpl<T>& operator*=(SecondOrderJetTpl<T>& a, double b) {
  return a = a * b;
}
template <class T>
SecondOrderJetTpl<T>& operator/=(SecondOrderJetTpl<T>& a, double b) {
  return a = a / b;
}

// ---------------------------------------------------------------- comparisons (values only)
#define SALTUS_SOJ_COMPARISON(op)                                                  \
  template <class T>                                                               \
  bool operator op(const SecondOrderJetTpl<T>& a, const SecondOrderJetTpl<T>& b) { \
    return detail::jet_value(a.v) op detail::jet_value(b.v);                       \
  }                                                                                \
  template <class T>                                                               \
  bool operator op(const SecondOrderJetTpl<T>& a, double b) {                      \
    return detail::jet_value(a.v) op b;                                            \
  }                                                                                \
  template <class T>                                                               \
  bool operator op(double a, const SecondOrderJetTpl<T>& b) {                      \
    return a op detail::jet_value(b.v);                                            \
  }
SALTUS_SOJ_COMPARISON(<)
SALTUS_SOJ_COMPARISON(<=)
SALTUS_SOJ_COMPARISON(>)
SALTUS_SOJ_COMPARISON(>=)
SALTUS_SOJ_COMPARISON(==)
SALTUS_SOJ_COMPARISON(!=)
#undef SALTUS_SOJ_COMPARISON

// ---------------------------------------------------------------- elementary functions
// In each body, `using std::f;` plus argument-dependent lookup picks std::f for double
// coefficients and ceres::f for Dual ones.
template <class T>
SecondOrderJetTpl<T> sin(const SecondOrderJetTpl<T>& x) {
  using std::cos;
  using std::sin;
  const T s = sin(x.v);
  return chain(x, s, T(cos(x.v)), T(-s));
}
template <class T>
SecondOrderJetTpl<T> cos(const SecondOrderJetTpl<T>& x) {
  using std::cos;
  using std::sin;
  const T c = cos(x.v);
  return chain(x, c, T(-sin(x.v)), T(-c));
}
template <class T>
SecondOrderJetTpl<T> tan(const SecondOrderJetTpl<T>& x) {
  using std::tan;
  const T t = tan(x.v), s = T(1.0 + t * t);  // tan' = 1 + tan^2, tan'' = 2 tan (1 + tan^2)
  return chain(x, t, s, T(2.0 * t * s));
}
template <class T>
SecondOrderJetTpl<T> asin(const SecondOrderJetTpl<T>& x) {
  using std::asin;
  using std::sqrt;
  const T r = T(1.0 / sqrt(1.0 - x.v * x.v));  // asin' = (1 - v^2)^-1/2, asin'' = v (1-v^2)^-3/2
  return chain(x, T(asin(x.v)), r, T(x.v * r * r * r));
}
template <class T>
SecondOrderJetTpl<T> acos(const SecondOrderJetTpl<T>& x) {
  using std::acos;
  using std::sqrt;
  const T r = T(1.0 / sqrt(1.0 - x.v * x.v));  // acos' = -asin', acos'' = -asin''
  return chain(x, T(acos(x.v)), T(-r), T(-x.v * r * r * r));
}
template <class T>
SecondOrderJetTpl<T> atan(const SecondOrderJetTpl<T>& x) {
  using std::atan;
  const T r = T(1.0 / (1.0 + x.v * x.v));  // atan' = 1/(1+v^2), atan'' = -2 v/(1+v^2)^2
  return chain(x, T(atan(x.v)), r, T(-2.0 * x.v * r * r));
}
template <class T>
SecondOrderJetTpl<T> sinh(const SecondOrderJetTpl<T>& x) {
  using std::cosh;
  using std::sinh;
  const T s = sinh(x.v);
  return chain(x, s, T(cosh(x.v)), s);
}
template <class T>
SecondOrderJetTpl<T> cosh(const SecondOrderJetTpl<T>& x) {
  using std::cosh;
  using std::sinh;
  const T c = cosh(x.v);
  return chain(x, c, T(sinh(x.v)), c);
}
template <class T>
SecondOrderJetTpl<T> tanh(const SecondOrderJetTpl<T>& x) {
  using std::tanh;
  const T t = tanh(x.v), s = T(1.0 - t * t);  // tanh' = 1 - tanh^2, tanh'' = -2 tanh tanh'
  return chain(x, t, s, T(-2.0 * t * s));
}
template <class T>
SecondOrderJetTpl<T> exp(const SecondOrderJetTpl<T>& x) {
  using std::exp;
  const T e = exp(x.v);
  return chain(x, e, e, e);
}
template <class T>
SecondOrderJetTpl<T> log(const SecondOrderJetTpl<T>& x) {
  using std::log;
  const T r = T(1.0 / x.v);
  return chain(x, T(log(x.v)), r, T(-r * r));
}
template <class T>
SecondOrderJetTpl<T> sqrt(const SecondOrderJetTpl<T>& x) {
  using std::sqrt;
  const T s = sqrt(x.v);
  return chain(x, s, T(0.5 / s), T(-0.25 / (s * x.v)));
}
template <class T>
SecondOrderJetTpl<T> abs(const SecondOrderJetTpl<T>& x) {
  return detail::jet_value(x.v) < 0.0 ? -x : x;
}
template <class T>
SecondOrderJetTpl<T> pow(const SecondOrderJetTpl<T>& x, double p) {
  using std::pow;
  return chain(x, T(pow(x.v, p)), T(p * pow(x.v, p - 1.0)), T(p * (p - 1.0) * pow(x.v, p - 2.0)));
}
// x^y = exp(y log x) (x > 0).
template <class T>
SecondOrderJetTpl<T> pow(const SecondOrderJetTpl<T>& x, const SecondOrderJetTpl<T>& y) {
  return exp(y * log(x));
}
template <class T>
SecondOrderJetTpl<T> pow(double a, const SecondOrderJetTpl<T>& y) {
  using std::log;
  return exp(y * log(a));
}
// atan2(y, x): first derivative r = (x y' - y x')/rho, rho = x^2 + y^2; second derivative by the
// quotient rule: ((x y'' - y x'') rho - (x y' - y x') rho') / rho^2, rho' = 2 (x x' + y y').
template <class T>
SecondOrderJetTpl<T> atan2(const SecondOrderJetTpl<T>& y, const SecondOrderJetTpl<T>& x) {
  using std::atan2;
  const T rho = T(x.v * x.v + y.v * y.v);
  const T num = T(x.v * y.d1 - y.v * x.d1);
  const T rho1 = T(2.0 * (x.v * x.d1 + y.v * y.d1));
  const T num1 = T(x.v * y.d2 - y.v * x.d2);  // (x y' - y x')' = x y'' - y x''
  return {T(atan2(y.v, x.v)), T(num / rho), T((num1 * rho - num * rho1) / (rho * rho))};
}
template <class T>
SecondOrderJetTpl<T> atan2(const SecondOrderJetTpl<T>& y, double x) {
  return atan2(y, SecondOrderJetTpl<T>(x));
}
template <class T>
SecondOrderJetTpl<T> atan2(double y, const SecondOrderJetTpl<T>& x) {
  return atan2(SecondOrderJetTpl<T>(y), x);
}

}  // namespace saltus::mech

namespace Eigen {
template <class T>
struct NumTraits<saltus::mech::SecondOrderJetTpl<T>>
    : GenericNumTraits<saltus::mech::SecondOrderJetTpl<T>> {
  using Real = saltus::mech::SecondOrderJetTpl<T>;
  using NonInteger = saltus::mech::SecondOrderJetTpl<T>;
  using Nested = saltus::mech::SecondOrderJetTpl<T>;
  using Literal = saltus::mech::SecondOrderJetTpl<T>;
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
