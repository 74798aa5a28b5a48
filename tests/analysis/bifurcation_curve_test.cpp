// Two-parameter continuation of folds and period doublings (bifurcation_curve.hpp) on a map
// family with closed-form curves: y -> p + q y + y^2 (its fixed points meet at the fold
// p = (q - 1)^2 / 4, y = (1 - q) / 2, and the multiplier q + 2 y is -1 at
// p = -(1 + q)(3 - q) / 4, y = -(1 + q) / 2 [derived: y^2 + (q - 1) y + p = 0]), with a second
// state z -> z / 2 + sin(y) / 10 (multiplier 1/2, never critical) and optionally a third
// parameter r kept by the map (its trivial multiplier 1 must not count as a fold).
// Every curve point against the closed form, the curve's ends at the ends of q's range, and
// the ways a curve ends early: a map undefined beyond a q (partial, never "continued") and a
// change of the number of resets (the orbit grazes a guard: the side ends there).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "saltus/analysis/bifurcation_curve.hpp"

namespace saltus::analysis {
namespace {

// State (y, z, p, q[, r]); r (u[4]) is kept: P(u)_4 = r, row e_4.
ReturnMap quadratic_family(double undefined_above = kInfinity,
                           double two_resets_above = kInfinity) {
  return [=](const Vector& u) {
    MapValue v;
    const double y = u[0], z = u[1], p = u[2], q = u[3];
    if (q > undefined_above) {
      v.message = "undefined beyond q = " + std::to_string(undefined_above);
      return v;
    }
    v.status = SensitivityStatus::Ok;
    v.return_time = 1.0;
    v.resets = q > two_resets_above ? 2 : 1;
    v.x = u;
    v.x[0] = p + q * y + y * y;
    v.x[1] = 0.5 * z + 0.1 * std::sin(y);
    v.jacobian = Matrix::Identity(u.size(), u.size());
    v.jacobian(0, 0) = q + 2.0 * y;
    v.jacobian(0, 2) = 1.0;
    v.jacobian(0, 3) = y;
    v.jacobian(1, 0) = 0.1 * std::cos(y);
    v.jacobian(1, 1) = 0.5;
    return v;
  };
}

struct ClosedForm {
  double y, p;
};
ClosedForm closed_form(BifurcationKind kind, double q) {
  if (kind == BifurcationKind::Fold) return {0.5 * (1.0 - q), 0.25 * (q - 1.0) * (q - 1.0)};
  return {-0.5 * (1.0 + q), -0.25 * (1.0 + q) * (3.0 - q)};
}

// The closed-form bifurcation point at q, off by `offset` in y and p (the start is refined).
BifurcationPoint start_at(BifurcationKind kind, double q, bool with_r, double offset) {
  const ClosedForm c = closed_form(kind, q);
  BifurcationPoint b;
  b.kind = kind;
  b.x = Vector::Zero(with_r ? 5 : 4);
  b.x << c.y + offset, 0.2 * std::sin(c.y), c.p - offset, q;
  if (with_r) b.x[4] = 0.7;
  b.parameter = b.x[2];
  return b;
}

TEST(BifurcationCurve, RandomFoldAndDoublingCurvesFollowTheirClosedForms) {
  std::mt19937 rng(46);
  std::uniform_real_distribution<double> uniform(-0.5, 0.5);
  for (int k = 0; k < 12; ++k) {
    const BifurcationKind kind =
        k % 2 == 0 ? BifurcationKind::Fold : BifurcationKind::PeriodDoubling;
    const bool with_r = k % 3 == 0;
    const double q0 = uniform(rng);
    CurveOptions o;
    o.first = 2;
    o.second = 3;
    o.q_min = q0 - 0.4 - 0.2 * (uniform(rng) + 0.5);
    o.q_max = q0 + 0.4 + 0.2 * (uniform(rng) + 0.5);
    o.max_step = 0.05;
    SCOPED_TRACE(::testing::Message() << to_string(kind) << " q0 = " << q0 << " r " << with_r);
    const BifurcationCurve c =
        continue_bifurcation_curve(quadratic_family(), start_at(kind, q0, with_r, 1e-4), o);
    ASSERT_EQ(c.status, BranchStatus::Continued)
        << c.message << c.stop_reason[0] << c.stop_reason[1];
    ASSERT_GE(c.points.size(), 20u);
    EXPECT_NEAR(c.points.front().q, o.q_min, 1e-12);
    EXPECT_NEAR(c.points.back().q, o.q_max, 1e-12);
    const double critical = kind == BifurcationKind::Fold ? 1.0 : -1.0;
    for (size_t i = 0; i < c.points.size(); ++i) {
      const CurvePoint& pt = c.points[i];
      const ClosedForm exact = closed_form(kind, pt.q);
      // The corrector's tolerance 1e-9 (1 + |u|) on F and g; g is first order in y at a
      // simple zero, so the point is within a few tolerances.
      EXPECT_NEAR(pt.p, exact.p, 1e-8) << "point " << i;
      EXPECT_NEAR(pt.x[0], exact.y, 1e-8) << "point " << i;
      EXPECT_EQ(pt.p, pt.x[2]);
      if (i > 0) {
        EXPECT_GT(pt.q, c.points[i - 1].q);  // the curve is a graph over q here
      }
      // Multipliers: the critical one and 1/2 (r's trivial 1 left out).
      ASSERT_EQ(pt.multipliers.size(), 2);
      double nearest = kInfinity;
      for (Eigen::Index m = 0; m < 2; ++m) {
        nearest = std::min(nearest, std::abs(pt.multipliers[m] - critical));
      }
      EXPECT_LT(nearest, 1e-8) << "point " << i;
    }
  }
}

TEST(BifurcationCurve, AnUndefinedMapEndsAPartialCurveAndAGrazingEndsItsSide) {
  CurveOptions o;
  o.first = 2;
  o.second = 3;
  o.q_min = -0.5;
  o.q_max = 0.5;
  const BifurcationPoint start = start_at(BifurcationKind::Fold, 0.0, false, 0.0);
  const BifurcationCurve partial = continue_bifurcation_curve(quadratic_family(0.2), start, o);
  EXPECT_EQ(partial.status, BranchStatus::CorrectorFailed);
  EXPECT_NE(partial.stop_reason[1].find("undefined beyond"), std::string::npos)
      << partial.stop_reason[1];
  EXPECT_NE(partial.stop_reason[1].find("partial"), std::string::npos);
  EXPECT_NEAR(partial.points.front().q, -0.5, 1e-12);  // the other side reached its end
  EXPECT_LE(partial.points.back().q, 0.2);
  EXPECT_GT(partial.points.back().q, 0.2 - 1e-6);  // bisected down to min_step

  const BifurcationCurve grazing =
      continue_bifurcation_curve(quadratic_family(kInfinity, 0.3), start, o);
  EXPECT_EQ(grazing.status, BranchStatus::Continued);
  EXPECT_NE(grazing.stop_reason[1].find("resets per period change from 1 to 2"), std::string::npos)
      << grazing.stop_reason[1];
  EXPECT_LE(grazing.points.back().q, 0.3);
  EXPECT_GT(grazing.points.back().q, 0.3 - 1e-6);
  for (const CurvePoint& pt : grazing.points) EXPECT_EQ(pt.resets, 1);
}

TEST(BifurcationCurve, RefusesWhatItCannotContinue) {
  CurveOptions o;
  o.first = 2;
  o.second = 2;
  BifurcationPoint start = start_at(BifurcationKind::Fold, 0.0, false, 0.0);
  EXPECT_EQ(continue_bifurcation_curve(quadratic_family(), start, o).status, BranchStatus::NoOrbit);
  o.second = 3;
  start.kind = BifurcationKind::Grazing;
  const BifurcationCurve c = continue_bifurcation_curve(quadratic_family(), start, o);
  EXPECT_EQ(c.status, BranchStatus::NoOrbit);
  EXPECT_NE(c.message.find("only folds and period doublings"), std::string::npos);
}

}  // namespace
}  // namespace saltus::analysis
