// Branch switching at the impact oscillator's period doubling (orbit_branch_switching.hpp): the
// period-2 branch started from the located doubling along the critical eigenvector, against the
// doubled map itself, the period-1 branch it leaves and a brute-force diagram just past it.
#include <gtest/gtest.h>

#include <cmath>

#include "flow_map_differences.hpp"
#include "impact_oscillator.hpp"
#include "saltus/analysis/bifurcation_diagram.hpp"
#include "saltus/analysis/orbit_branch_switching.hpp"
#include "saltus/analysis/poincare_section.hpp"

namespace saltus::analysis {
namespace {

using saltus::testing::ImpactOscillator;

Vector with_sigma(const Vector& x, double sigma) {
  return (Vector(3) << x[0], x[1], sigma).finished();
}

// The period doubling of the period-1 branch continued from sigma = 0.
BifurcationPoint located_doubling(const ImpactOscillator& io, const ReturnMap& map) {
  ContinuationOptions c;
  c.parameter = 2;
  c.p_min = -0.5;
  c.p_max = 0.1;  // past the doubling (0.0767), before the grazing (0.19)
  const Branch branch = continue_orbit(map, with_sigma(io.closed_form().state_at_zero, 0.0), c);
  for (const BifurcationPoint& b : branch.bifurcations) {
    if (b.kind == BifurcationKind::PeriodDoubling) return b;
  }
  ADD_FAILURE() << "no period doubling: " << branch.stop_reason;
  return {};
}

ContinuationOptions switched_options() {
  ContinuationOptions c;
  c.parameter = 2;
  c.p_min = -0.5;
  c.p_max = 0.12;
  c.initial_step = 1e-2;
  c.max_step = 2e-2;
  c.max_points = 40;
  return c;
}

TEST(PeriodDoublingSwitch, PeriodTwoBranchLeavesTheDoublingAlongItsEigenvector) {
  const ImpactOscillator io;
  const SimulationOptions options = saltus::testing::differentiation_options();
  const ReturnMap map = stroboscopic_map(io.build(nullptr, true), 0, 0.0, io.period(), options);
  const BifurcationPoint pd = located_doubling(io, map);
  ASSERT_EQ(pd.kind, BifurcationKind::PeriodDoubling);
  std::string why;
  const Vector v = period_doubling_direction(map, pd.x, 2, why);
  ASSERT_EQ(v.size(), 3) << why;
  EXPECT_EQ(v[2], 0.0);
  const ReturnMap doubled = doubled_map(map);
  std::vector<double> period_four;  // the period-2 branch's own doubling, from either side
  for (const double side : {1.0, -1.0}) {
    const Branch branch = switch_at_period_doubling(map, pd, switched_options(), side);
    ASSERT_TRUE(branch.ok) << branch.stop_reason;
    ASSERT_GE(branch.points.size(), 8u) << branch.stop_reason;
    RecordProperty(side > 0 ? "plus_side_points" : "minus_side_points",
                   static_cast<int>(branch.points.size()));
    // It starts at the doubling point, a point of the period-1 branch.
    EXPECT_EQ((branch.points[0].x - pd.x).lpNorm<Eigen::Infinity>(), 0.0);
    for (size_t i = 1; i < branch.points.size(); ++i) {
      const BranchPoint& p = branch.points[i];
      // A fixed point of the doubled map with two impacts, on the side of the doubling where
      // the period-2 orbit exists (supercritical: sigma > sigma_pd).
      const MapValue twice = doubled(p.x);
      ASSERT_TRUE(twice.ok()) << twice.message;
      EXPECT_LE((twice.x - p.x).lpNorm<Eigen::Infinity>(), 1e-8) << "sigma " << p.parameter;
      EXPECT_EQ(p.resets, 2);
      EXPECT_GT(p.parameter, pd.parameter) << "point " << i;
      // Two distinct points on either side of the (now unstable) period-1 orbit x* of the same
      // sigma along v: x1 on the chosen side, x2 = P(x1) on the other.
      const MapValue once = map(p.x);
      ASSERT_TRUE(once.ok()) << once.message;
      EXPECT_GT((once.x - p.x).lpNorm<Eigen::Infinity>(), 1e-3) << "sigma " << p.parameter;
      ImpactOscillator at = io;
      at.sigma = p.parameter;
      const Vector period_one = with_sigma(at.closed_form().state_at_zero, p.parameter);
      EXPECT_GT(side * v.dot(p.x - period_one), 0.0) << "sigma " << p.parameter;
      EXPECT_LT(side * v.dot(once.x - period_one), 0.0) << "sigma " << p.parameter;
    }
    for (const BifurcationPoint& b : branch.bifurcations) {
      if (b.kind == BifurcationKind::PeriodDoubling) period_four.push_back(b.parameter);
    }
    // The first step: a distance of one initial step from the doubling, with sigma moved by
    // its square only (a pitchfork of the doubled map).
    const BranchPoint& first = branch.points[1];
    EXPECT_NEAR(v.dot(first.x - pd.x), side * 1e-2, 1e-9);
    EXPECT_LT(first.parameter - pd.parameter, 1e-2 * 1e-2 * 10.0);
  }
  // x1 and x2 are points of one orbit: its doubling to period 4 is found at the same sigma on
  // both sides (the multipliers of P2 at x1 and x2 are those of DP(x2) DP(x1) and DP(x1) DP(x2)).
  ASSERT_EQ(period_four.size(), 2u);
  ::testing::Test::RecordProperty("period_four_doubling",
                                  saltus::testing::measured(period_four[0]));
  EXPECT_NEAR(period_four[0], period_four[1], 1e-9);
  EXPECT_GT(period_four[0], pd.parameter);
}

TEST(PeriodDoublingSwitch, SwitchedBranchIsTheBruteForceAttractor) {
  const ImpactOscillator io;
  const SimulationOptions options = saltus::testing::differentiation_options();
  const ReturnMap map = stroboscopic_map(io.build(nullptr, true), 0, 0.0, io.period(), options);
  const BifurcationPoint pd = located_doubling(io, map);
  ASSERT_EQ(pd.kind, BifurcationKind::PeriodDoubling);
  const Branch branch = switch_at_period_doubling(map, pd, switched_options());
  ASSERT_TRUE(branch.ok) << branch.stop_reason;
  // A branch point just past the doubling, and the attractor of a long run at its sigma sampled
  // at t = k T (a stroboscopic section at t_s = 0) from the period-1 orbit of sigma = 0.
  const BranchPoint* near = nullptr;
  for (const BranchPoint& p : branch.points) {
    if (p.parameter > 1.02 * pd.parameter && p.parameter < 1.1 * pd.parameter) near = &p;
  }
  ASSERT_NE(near, nullptr) << "no branch point in (1.02, 1.1) sigma_pd";
  EXPECT_TRUE(near->stable) << near->multipliers.transpose();
  RecordProperty("compared_at_sigma", saltus::testing::measured(near->parameter));
  const Guard strobe = stroboscopic_section("strobe", io.period(), 0.0);
  DiagramOptions d;
  d.parameter = 2;
  d.discard = 400;
  d.keep = 4;
  d.horizon = 1000.0 * io.period();
  d.simulation = options;
  d.values = {near->parameter};
  const std::vector<DiagramColumn> columns = bifurcation_diagram(
      io.build(&strobe, true), 0, 1, with_sigma(io.closed_form().state_at_zero, 0.0), d);
  ASSERT_EQ(columns.size(), 1u);
  ASSERT_EQ(columns[0].points.rows(), d.keep) << columns[0].message;
  const MapValue once = map(near->x);
  ASSERT_TRUE(once.ok()) << once.message;
  // The run's points alternate between the branch's two points (which one comes first depends
  // on the run's phase).
  const Vector a = columns[0].points.row(0).transpose(), b = columns[0].points.row(1).transpose();
  const double direct =
      std::max((a - near->x).lpNorm<Eigen::Infinity>(), (b - once.x).lpNorm<Eigen::Infinity>());
  const double swapped =
      std::max((a - once.x).lpNorm<Eigen::Infinity>(), (b - near->x).lpNorm<Eigen::Infinity>());
  RecordProperty("brute_force_error", saltus::testing::measured(std::min(direct, swapped)));
  EXPECT_LE(std::min(direct, swapped), 1e-7)
      << "run " << a.transpose() << " | " << b.transpose() << "; branch " << near->x.transpose()
      << " | " << once.x.transpose();
  EXPECT_GT((near->x - once.x).lpNorm<Eigen::Infinity>(), 1e-2);
}

TEST(PeriodDoublingSwitch, BothSidesFoldAndGrazeAtTheSameSigma) {
  // Further on, the period-2 branch turns back (a fold) and ends where its orbit grazes the
  // stop; x1 and x2 belong to one orbit, so both sides report the same points, and the branch
  // ends with a grazing report naming its evidence, every point with finite multipliers.
  const ImpactOscillator io;
  const ReturnMap map = stroboscopic_map(io.build(nullptr, true), 0, 0.0, io.period(),
                                         saltus::testing::differentiation_options());
  const BifurcationPoint pd = located_doubling(io, map);
  ASSERT_EQ(pd.kind, BifurcationKind::PeriodDoubling);
  ContinuationOptions c = switched_options();
  c.p_max = 0.3;
  c.max_points = 200;
  std::vector<double> folds, grazings;
  for (const double side : {1.0, -1.0}) {
    const Branch branch = switch_at_period_doubling(map, pd, c, side);
    ASSERT_TRUE(branch.ok) << branch.stop_reason;
    for (const BranchPoint& p : branch.points) {
      EXPECT_TRUE(p.multipliers.allFinite()) << "sigma " << p.parameter;
    }
    ASSERT_FALSE(branch.bifurcations.empty()) << branch.stop_reason;
    const BifurcationPoint& last = branch.bifurcations.back();
    EXPECT_EQ(last.kind, BifurcationKind::Grazing) << branch.stop_reason;
    EXPECT_LT(last.test_value, c.grazing_tolerance) << last.message;
    EXPECT_NE(last.message.find("closest approach"), std::string::npos) << last.message;
    grazings.push_back(last.parameter);
    for (const BifurcationPoint& b : branch.bifurcations) {
      if (b.kind == BifurcationKind::Fold) folds.push_back(b.parameter);
    }
  }
  ASSERT_EQ(folds.size(), 2u);
  ::testing::Test::RecordProperty("period_two_fold", saltus::testing::measured(folds[0]));
  ::testing::Test::RecordProperty("period_two_grazing", saltus::testing::measured(grazings[0]));
  EXPECT_NEAR(folds[0], folds[1], 1e-9);
  // Grazing is located to the evidence's tolerance (1e-6) over a slope of order 1.
  EXPECT_NEAR(grazings[0], grazings[1], 1e-5);
  EXPECT_LT(grazings[0], folds[0]);  // reached after the turn, going back down in sigma
}

TEST(PeriodDoublingSwitch, RefusesWhatIsNotADoubling) {
  const ImpactOscillator io;
  const ReturnMap map = stroboscopic_map(io.build(nullptr, true), 0, 0.0, io.period(),
                                         saltus::testing::differentiation_options());
  BifurcationPoint fold;
  fold.kind = BifurcationKind::Fold;
  fold.x = with_sigma(io.closed_form().state_at_zero, 0.0);
  Branch b = switch_at_period_doubling(map, fold, switched_options());
  EXPECT_FALSE(b.ok);
  EXPECT_NE(b.stop_reason.find("period-doubling point"), std::string::npos) << b.stop_reason;
  // A start off the doubling's orbit (a real multiplier near -1 there, but not a fixed point):
  // the residual is named, nothing is continued.
  BifurcationPoint off = located_doubling(io, map);
  off.x.head(2) += Vector::Constant(2, 1e-3);
  b = switch_at_period_doubling(map, off, switched_options());
  EXPECT_FALSE(b.ok);
  EXPECT_TRUE(b.points.empty());
  EXPECT_NE(b.stop_reason.find("not a fixed point of the map: residual"), std::string::npos)
      << b.stop_reason;
}

}  // namespace
}  // namespace saltus::analysis
