// SecondOrderJetTpl: every function of the set against closed-form first and second
// derivatives, the chain rule through a curved input path, the Dual-coefficient instantiation
// (its Dual parts are the derivatives of its values with respect to the seed), arithmetic and
// comparisons with doubles on either side, and lookup by ADL next to `using std::f` /
// `using ceres::f`.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "saltus/mech/second_order_jet.hpp"

namespace saltus::mech {
namespace {

using J = SecondOrderJet;
using DJ = DualSecondOrderJet;

struct Case {
  std::string name;
  double x;  // evaluation point
  std::function<J(const J&)> jet;
  std::function<DJ(const DJ&)> dual_jet;
  std::function<double(double)> f, fp, fpp;  // closed forms
};

// Applies the same generic expression to both jet kinds (as model code does).
#define SALTUS_JET_CASE(NAME, X, EXPR, F, FP, FPP)                                         \
  Case {                                                                                   \
    NAME, X, [](const J& x) -> J { return EXPR; }, [](const DJ& x) -> DJ { return EXPR; }, \
        [](double x) { return F; }, [](double x) { return (void)x, FP; },                  \
        [](double x) { return (void)x, FPP; }                                              \
  }

std::vector<Case> cases() {
  using std::acos;
  using std::asin;
  using std::atan;
  using std::cos;
  using std::cosh;
  using std::exp;
  using std::log;
  using std::pow;
  using std::sin;
  using std::sinh;
  using std::sqrt;
  using std::tan;
  using std::tanh;
  return {
      SALTUS_JET_CASE("sin", 0.7, sin(x), sin(x), cos(x), -sin(x)),
      SALTUS_JET_CASE("cos", 0.7, cos(x), cos(x), -sin(x), -cos(x)),
      SALTUS_JET_CASE("tan", 0.7, tan(x), tan(x), 1.0 / (cos(x) * cos(x)),
                      2.0 * sin(x) / (cos(x) * cos(x) * cos(x))),
      SALTUS_JET_CASE("asin", 0.4, asin(x), asin(x), 1.0 / sqrt(1.0 - x * x),
                      x / pow(1.0 - x * x, 1.5)),
      SALTUS_JET_CASE("acos", 0.4, acos(x), acos(x), -1.0 / sqrt(1.0 - x * x),
                      -x / pow(1.0 - x * x, 1.5)),
      SALTUS_JET_CASE("atan", 0.9, atan(x), atan(x), 1.0 / (1.0 + x * x),
                      -2.0 * x / ((1.0 + x * x) * (1.0 + x * x))),
      SALTUS_JET_CASE("sinh", 0.8, sinh(x), sinh(x), cosh(x), sinh(x)),
      SALTUS_JET_CASE("cosh", 0.8, cosh(x), cosh(x), sinh(x), cosh(x)),
      SALTUS_JET_CASE("tanh", 0.8, tanh(x), tanh(x), 1.0 / (cosh(x) * cosh(x)),
                      -2.0 * sinh(x) / (cosh(x) * cosh(x) * cosh(x))),
      SALTUS_JET_CASE("exp", 0.3, exp(x), exp(x), exp(x), exp(x)),
      SALTUS_JET_CASE("log", 1.7, log(x), log(x), 1.0 / x, -1.0 / (x * x)),
      SALTUS_JET_CASE("sqrt", 1.7, sqrt(x), sqrt(x), 0.5 / sqrt(x), -0.25 / (x * sqrt(x))),
      SALTUS_JET_CASE("abs(neg)", -1.3, abs(x), std::abs(x), -1.0, 0.0),
      SALTUS_JET_CASE("abs(pos)", 1.3, abs(x), std::abs(x), 1.0, 0.0),
      SALTUS_JET_CASE("pow(x,2.5)", 1.3, pow(x, 2.5), pow(x, 2.5), 2.5 * pow(x, 1.5),
                      3.75 * pow(x, 0.5)),
      SALTUS_JET_CASE("pow(x,x)", 1.3, pow(x, x), pow(x, x), pow(x, x) * (log(x) + 1.0),
                      pow(x, x) * ((log(x) + 1.0) * (log(x) + 1.0) + 1.0 / x)),
      SALTUS_JET_CASE("pow(2,x)", 1.3, pow(2.0, x), pow(2.0, x), pow(2.0, x) * log(2.0),
                      pow(2.0, x) * log(2.0) * log(2.0)),
      SALTUS_JET_CASE("atan2(x,0.6)", 0.9, atan2(x, 0.6), std::atan2(x, 0.6), 0.6 / (0.36 + x * x),
                      -1.2 * x / ((0.36 + x * x) * (0.36 + x * x))),
      SALTUS_JET_CASE("atan2(0.6,x)", 0.9, atan2(0.6, x), std::atan2(0.6, x), -0.6 / (0.36 + x * x),
                      1.2 * x / ((0.36 + x * x) * (0.36 + x * x))),
      SALTUS_JET_CASE("atan2(x^2,x)", 0.9, atan2(x * x, x), std::atan2(x * x, x),
                      1.0 / (1.0 + x * x), -2.0 * x / ((1.0 + x * x) * (1.0 + x * x))),
      SALTUS_JET_CASE("-x", 0.9, -x, -x, -1.0, 0.0),
      SALTUS_JET_CASE("+x", 0.9, +x, x, 1.0, 0.0),
      SALTUS_JET_CASE("x*x*x", 0.9, x * x * x, x * x * x, 3.0 * x * x, 6.0 * x),
      SALTUS_JET_CASE("1/x", 0.9, 1.0 / x, 1.0 / x, -1.0 / (x * x), 2.0 / (x * x * x)),
      SALTUS_JET_CASE("x/(1+x*x)", 0.9, x / (1.0 + x * x), x / (1.0 + x * x),
                      (1.0 - x * x) / ((1.0 + x * x) * (1.0 + x * x)),
                      (2.0 * x * x * x - 6.0 * x) / pow(1.0 + x * x, 3.0)),
      SALTUS_JET_CASE("3-x+2*x-x/4", 0.9, 3.0 - x + 2.0 * x - x / 4.0 + (x - 1.0) * 2.0,
                      3.0 - x + 2.0 * x - x / 4.0 + (x - 1.0) * 2.0, 2.75, 0.0),
      SALTUS_JET_CASE("min via <", 0.9, (x < 0.5 ? x : 0.5 * x * x), (x < 0.5 ? x : 0.5 * x * x),
                      (x < 0.5 ? 1.0 : x), (x < 0.5 ? 0.0 : 1.0)),
      SALTUS_JET_CASE("max via >=", 0.2, (0.5 >= x ? 2.0 * x * x : x), (0.5 >= x ? 2.0 * x * x : x),
                      (0.5 >= x ? 4.0 * x : 1.0), (0.5 >= x ? 4.0 : 0.0)),
  };
}

TEST(SecondOrderJet, FirstAndSecondDerivativesOfEveryFunction) {
  for (const Case& c : cases()) {
    const double tol = 1e-13 * (1.0 + std::abs(c.fpp(c.x)));
    // Straight path x(s) = x0 + s: d1 = f', d2 = f''.
    const J r = c.jet(J(c.x, 1.0, 0.0));
    EXPECT_NEAR(r.v, c.f(c.x), 1e-14 * (1.0 + std::abs(c.f(c.x)))) << c.name;
    EXPECT_NEAR(r.d1, c.fp(c.x), tol) << c.name;
    EXPECT_NEAR(r.d2, c.fpp(c.x), tol) << c.name;
    // Curved path x(s) = x0 + b s + k s^2/2: d1 = f' b, d2 = f'' b^2 + f' k (chain rule).
    const double b = -0.7, k = 1.9;
    const J rc = c.jet(J(c.x, b, k));
    EXPECT_NEAR(rc.d1, c.fp(c.x) * b, tol) << c.name;
    EXPECT_NEAR(rc.d2, c.fpp(c.x) * b * b + c.fp(c.x) * k, tol) << c.name;
  }
}

// DualSecondOrderJet seeded with d/dx0: its Dual parts are the x0-derivatives of (f, f', f'').
// With the straight path, d/dx0 f = f' = d1 and d/dx0 f' = f'' = d2 (self-consistent without a
// third derivative); the values equal the double jet's.
TEST(SecondOrderJet, DualCoefficientsCarryOneMoreDerivative) {
  for (const Case& c : cases()) {
    const DJ x(Dual(c.x, 1.0), Dual(1.0), Dual(0.0));
    const DJ r = c.dual_jet(x);
    const J plain = c.jet(J(c.x, 1.0, 0.0));
    const double tol = 1e-13 * (1.0 + std::abs(c.fpp(c.x)));
    EXPECT_NEAR(r.v.value(), plain.v, 1e-15 * (1.0 + std::abs(plain.v))) << c.name;
    EXPECT_NEAR(r.d1.value(), plain.d1, tol) << c.name;
    EXPECT_NEAR(r.d2.value(), plain.d2, tol) << c.name;
    EXPECT_NEAR(r.v.derivative(), c.fp(c.x), tol) << c.name;
    EXPECT_NEAR(r.d1.derivative(), c.fpp(c.x), tol) << c.name;
  }
}

// A generic gap written like model code, with `using std::...` and `using ceres::...` in scope:
// ADL finds the jet overloads; d2 along qdot is qdot^T H qdot.
template <class T>
T generic_gap(const T& x, const T& y) {
  using ceres::cos;
  using ceres::sin;
  using std::cos;
  using std::sin;
  using std::sqrt;
  return sqrt(x * x + y * y) - 1.0 + 0.5 * sin(x) * cos(y);
}

TEST(SecondOrderJet, DirectionalSecondDerivativeOfAGenericFunction) {
  const double x = 0.8, y = 1.1, vx = 0.3, vy = -0.9;
  const J g = generic_gap(J(x, vx, 0.0), J(y, vy, 0.0));
  const double r = std::sqrt(x * x + y * y);
  // Gradient and Hessian of sqrt(x^2+y^2) + 0.5 sin x cos y.
  const double gx = x / r + 0.5 * std::cos(x) * std::cos(y);
  const double gy = y / r - 0.5 * std::sin(x) * std::sin(y);
  const double hxx = y * y / (r * r * r) - 0.5 * std::sin(x) * std::cos(y);
  const double hyy = x * x / (r * r * r) - 0.5 * std::sin(x) * std::cos(y);
  const double hxy = -x * y / (r * r * r) - 0.5 * std::cos(x) * std::sin(y);
  EXPECT_NEAR(g.v, generic_gap(x, y), 1e-15);
  EXPECT_NEAR(g.d1, gx * vx + gy * vy, 1e-14);
  EXPECT_NEAR(g.d2, hxx * vx * vx + 2.0 * hxy * vx * vy + hyy * vy * vy, 1e-14);
  const Dual d = generic_gap(Dual(x, 1.0), Dual(y));
  EXPECT_NEAR(d.derivative(), gx, 1e-14);
}

TEST(SecondOrderJet, ComparisonsUseValuesWithDoublesOnEitherSide) {
  const J a(1.0, 5.0, 7.0), b(2.0, -5.0, 0.0);
  EXPECT_TRUE(a < b);
  EXPECT_TRUE(a <= b);
  EXPECT_FALSE(a > b);
  EXPECT_FALSE(a >= b);
  EXPECT_FALSE(a == b);
  EXPECT_TRUE(a != b);
  EXPECT_TRUE(a == J(1.0, 0.0, 0.0));  // values only
  EXPECT_TRUE(a < 1.5 && 0.5 < a && a <= 1.0 && 1.0 >= a && a == 1.0 && 2.0 != a && a > 0);
  const DJ da(Dual(1.0, 3.0), Dual(2.0), Dual(0.0));
  EXPECT_TRUE(da < 1.5 && 0.5 < da && da == 1.0 && da != DJ(2.0) && DJ(0.0) < da);
  J c = a;
  c += 1.0;
  c -= b;
  c *= 2.0;
  c /= J(4.0);
  EXPECT_NEAR(c.v, 0.0, 1e-15);
  EXPECT_NEAR(c.d1, (5.0 + 5.0) * 2.0 / 4.0, 1e-15);
}

}  // namespace
}  // namespace saltus::mech
