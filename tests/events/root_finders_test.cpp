// Each root finder locates a known root of a polynomial (the shape of a dense output) to within
// 4 ulps, keeps the bracket orientation (before = pre-crossing side), and stays cheap.
#include <gtest/gtest.h>

#include <cmath>

#include "saltus/events/bisection.hpp"
#include "saltus/events/brent.hpp"
#include "saltus/events/false_position.hpp"
#include "saltus/events/linear_interpolation_root.hpp"
#include "saltus/events/newton_root.hpp"

namespace saltus::events {
namespace {

double ulps_between(double a, double b) {
  const double u = std::nextafter(std::abs(b), INFINITY) - std::abs(b);
  return std::abs(a - b) / u;
}

// Quartic dense-output-like guard with the simple root t = r (and no other root in [0, 1]):
// s(t) = (t - r) (1 + 2 t + 0.5 t^2 - 0.3 t^3) evaluated as a polynomial in Horner form.
struct Polynomial {
  double r;
  double c[5];
  explicit Polynomial(double root) : r(root) {
    // expand (t - r)(1 + 2t + 0.5 t^2 - 0.3 t^3)
    const double q[4] = {1.0, 2.0, 0.5, -0.3};
    for (double& v : c) v = 0.0;
    for (int i = 0; i < 4; ++i) {
      c[i + 1] += q[i];
      c[i] -= r * q[i];
    }
  }
  double operator()(double t) const {
    return (((c[4] * t + c[3]) * t + c[2]) * t + c[1]) * t + c[0];
  }
  double derivative(double t) const {
    return ((4 * c[4] * t + 3 * c[3]) * t + 2 * c[2]) * t + c[1];
  }
};

class RootFinders : public ::testing::TestWithParam<double> {};

TEST_P(RootFinders, LocateRootWithinFourUlps) {
  const double root = GetParam();
  const Polynomial s(root);
  RootOptions o;
  const double a = 0.0, b = 1.0;
  const double sa = s(a), sb = s(b);
  ASSERT_LT(sa, 0.0);
  ASSERT_GT(sb, 0.0);
  auto check = [&](const RootResult& r, const char* name, int max_evals) {
    EXPECT_TRUE(r.converged) << name;
    EXPECT_LE(ulps_between(r.before, root), 4.0) << name << ": " << r.before << " vs " << root;
    EXPECT_LE(ulps_between(r.after, root), 4.0) << name;
    EXPECT_LE(r.before, r.after) << name;
    EXPECT_LE(s(r.before), 0.0) << name << ": before must be on the pre-crossing side";
    EXPECT_LE(r.evaluations, max_evals) << name;
  };
  check(bisection(s, a, b, o), "bisection", 70);
  check(illinois(s, a, sa, b, sb, o), "illinois", 24);
  check(anderson_bjorck(s, a, sa, b, sb, o), "anderson-bjorck", 20);
  check(brent(s, a, sa, b, sb, o), "brent", 16);
  auto sd = [&](double t, double& ds) {
    ds = s.derivative(t);
    return s(t);
  };
  check(newton_root(sd, a, sa, b, sb, o), "newton", 16);
}

INSTANTIATE_TEST_SUITE_P(Roots, RootFinders,
                         ::testing::Values(0.1, 0.3333333333333333, 0.5, 0.7390851332151607,
                                           0.999));

TEST(RootFinders, ExactRootAtBracketEnd) {
  const auto s = [](double t) { return t - 0.5; };
  const RootResult r = anderson_bjorck(s, 0.0, -0.5, 0.5, 0.0, RootOptions{});
  EXPECT_EQ(r.before, 0.5);
  EXPECT_TRUE(r.converged);
}

TEST(RootFinders, LinearInterpolationBaselineIsExactForAffineGuards) {
  const LinearRoot r = linear_interpolation_root(1.0, 2.0, -0.25, 0.75);
  EXPECT_DOUBLE_EQ(r.theta, 0.25);
  EXPECT_DOUBLE_EQ(r.t, 1.25);
}

}  // namespace
}  // namespace saltus::events

namespace saltus::events {
namespace {

// After a reset the bracket is lopsided: s(a) barely below zero, s(b) far above, a flat dip in
// between (a ball leaving the floor slowly). Count the evaluations each finder needs.
TEST(RootFinders, LopsidedBracketAfterAReset) {
  const double v = 1e-6, g = 9.81;  // s = -x = -(v t - g t^2 / 2), root at 2 v / g
  const double root = 2 * v / g;
  auto s = [&](double t) { return -(v * t - 0.5 * g * t * t); };
  const double a = 4e-11, b = 1.0;
  const RootOptions o;
  const RootResult rb = brent(s, a, s(a), b, s(b), o);
  EXPECT_LE(ulps_between(rb.before, root), 4.0);
  const RootResult ra = anderson_bjorck(s, a, s(a), b, s(b), o);
  EXPECT_LE(ulps_between(ra.before, root), 4.0);
  const RootResult rbis = bisection(s, a, b, o);
  // The bracket spans 2^75 ulps of the root: bisection needs ~75 evaluations; Brent must not
  // be worse, and false position must stay within its bisection safeguard's bound.
  EXPECT_LT(rb.evaluations, rbis.evaluations);
  EXPECT_LE(ra.evaluations, 2 * rbis.evaluations);
  RecordProperty("brent_evaluations", rb.evaluations);
  RecordProperty("anderson_bjorck_evaluations", ra.evaluations);
  RecordProperty("bisection_evaluations", rbis.evaluations);
}

}  // namespace
}  // namespace saltus::events
