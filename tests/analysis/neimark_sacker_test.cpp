// Neimark-Sacker detection along a continued branch (orbit_continuation.hpp) on the stroboscopic
// map of the forced damped linear oscillator (forced_damped_oscillator.hpp), continued in its
// damping c: the complex pair exp((-c/2 +- i sqrt(1 - c^2/4)) T) crosses the unit circle at
// c = 0 with the angle T (mod 2 pi), in closed form.
#include <gtest/gtest.h>

#include <cmath>

#include "flow_map_differences.hpp"
#include "forced_damped_oscillator.hpp"
#include "saltus/analysis/orbit_continuation.hpp"

namespace saltus::analysis {
namespace {

using saltus::testing::ForcedDampedOscillator;

// The located point against c = 0 and the angle against the closed form. The multipliers come
// from the variational equations at rtol 1e-12 (differentiation_options): their modulus is
// good to ~1e-11, and d|lambda|/dc = -T/2 at c = 0, so c is located to ~1e-11; 1e-9 leaves a
// margin of 100 for the secant's stopping test and the eigenvalue rounding.
void expect_crossing_at_zero_damping(const ForcedDampedOscillator& fdo, double c_from,
                                     double c_to) {
  const ReturnMap map = stroboscopic_map(fdo.build(), 0, 0.0, fdo.period(),
                                         saltus::testing::differentiation_options());
  ContinuationOptions c;
  c.parameter = 2;
  c.p_min = std::min(c_from, c_to);
  c.p_max = std::max(c_from, c_to);
  c.direction = c_to > c_from ? 1.0 : -1.0;
  c.max_step = 0.05;
  const Branch branch = continue_orbit(map, fdo.fixed_point(c_from), c);
  ASSERT_TRUE(branch.ok) << branch.stop_reason;
  ASSERT_GE(branch.points.size(), 10u) << branch.stop_reason;
  // Every point is the closed-form response, with |lambda| = exp(-c T / 2) for both multipliers.
  for (const BranchPoint& p : branch.points) {
    EXPECT_LE((p.x - fdo.fixed_point(p.parameter)).lpNorm<Eigen::Infinity>(), 1e-9)
        << "c " << p.parameter;
    ASSERT_EQ(p.multipliers.size(), 2);
    for (Eigen::Index k = 0; k < 2; ++k) {
      EXPECT_NEAR(std::abs(p.multipliers[k]), std::exp(-p.parameter * fdo.period() / 2.0), 1e-9);
    }
    EXPECT_EQ(p.stable, p.parameter > 0.0) << "c " << p.parameter;
  }
  ASSERT_EQ(branch.bifurcations.size(), 1u) << branch.stop_reason;
  const BifurcationPoint& ns = branch.bifurcations[0];
  EXPECT_EQ(ns.kind, BifurcationKind::NeimarkSacker) << ns.message;
  ::testing::Test::RecordProperty("neimark_sacker_c", saltus::testing::measured(ns.parameter));
  ::testing::Test::RecordProperty("neimark_sacker_angle_error",
                                  saltus::testing::measured(ns.angle - fdo.crossing_angle()));
  EXPECT_NEAR(ns.parameter, 0.0, 1e-9) << ns.message;
  EXPECT_NEAR(ns.angle, fdo.crossing_angle(), 1e-9) << ns.message;
  EXPECT_NEAR(ns.test_value, 0.0, 1e-9) << ns.message;
  EXPECT_LE((ns.x - fdo.fixed_point(0.0)).lpNorm<Eigen::Infinity>(), 1e-9) << ns.message;
  // It lies between the branch points it is reported after.
  ASSERT_LT(ns.after_point + 1, static_cast<int>(branch.points.size()));
  const double p0 = branch.points[static_cast<size_t>(ns.after_point)].parameter;
  const double p1 = branch.points[static_cast<size_t>(ns.after_point) + 1].parameter;
  EXPECT_LT(std::min(p0, p1), 0.0);
  EXPECT_GT(std::max(p0, p1), 0.0);
  EXPECT_NE(ns.message.find("Neimark-Sacker at parameter"), std::string::npos) << ns.message;
}

TEST(NeimarkSacker, LosingDampingCrossesAtZeroWithAngleT) {
  ForcedDampedOscillator fdo;  // w = 2.5: T = 2.513 < pi, the angle is T itself
  expect_crossing_at_zero_damping(fdo, 0.4, -0.4);
}

TEST(NeimarkSacker, GainingDampingCrossesAtZeroWithAngleFolded) {
  ForcedDampedOscillator fdo;
  fdo.w = 1.5;  // T = 4.189 > pi: the multiplier with Im > 0 has the angle 2 pi - T
  EXPECT_NEAR(fdo.crossing_angle(), 2.0 * std::numbers::pi - fdo.period(), 1e-14);
  expect_crossing_at_zero_damping(fdo, -0.3, 0.5);
}

TEST(NeimarkSacker, NoCrossingNoReport) {
  // Damping kept positive: the pair stays inside the circle; nothing is reported.
  ForcedDampedOscillator fdo;
  const ReturnMap map = stroboscopic_map(fdo.build(), 0, 0.0, fdo.period(),
                                         saltus::testing::differentiation_options());
  ContinuationOptions c;
  c.parameter = 2;
  c.p_min = 0.05;
  c.p_max = 0.6;
  const Branch branch = continue_orbit(map, fdo.fixed_point(0.05), c);
  ASSERT_TRUE(branch.ok) << branch.stop_reason;
  EXPECT_TRUE(branch.bifurcations.empty()) << branch.bifurcations[0].message;
}

}  // namespace
}  // namespace saltus::analysis
