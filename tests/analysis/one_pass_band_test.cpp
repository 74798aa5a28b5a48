// The one-pass sensitivity integrates (x, Phi) as one state; its guard band must scale with x
// alone. A ball with a passive state u' = lambda u, u(0) = 0: u stays 0 (so the physics is the
// plain ball's) while du/du0 = exp(lambda t) grows past 1e20. Had the band followed |(x, Phi)|,
// it would swallow every impact. Impact times and du/du0 are checked against their closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "saltus/analysis/hybrid_sensitivity.hpp"

namespace saltus::analysis {
namespace {

constexpr double kG = 9.81;

HybridSystem ball_with_growing_passive_state(double lambda, double e) {
  HybridSystem sys;
  const ModeId fly =
      sys.add_mode("flight", ode_flow(3, [lambda](const auto&, const auto& x, auto& xd) {
                     xd[0] = x[1];
                     xd[1] = -kG;
                     xd[2] = lambda * x[2];
                   }));
  sys.add_guard(fly, make_guard(
                         "floor", Direction::Rising,
                         [](const auto&, const auto& x, const auto&) { return -x[0]; },
                         Reset::to_ad(fly, [e](const auto&, const auto& x, const auto&, auto& xp) {
                           xp[0] = x[0];
                           xp[1] = -e * x[1];
                           xp[2] = x[2];
                         })));
  return sys;
}

// Dropped from rest at height y0: the first impact at sqrt(2 y0 / g), then flights 2 e^k v1 / g.
std::vector<double> closed_form_impact_times(double y0, double e, double t_end) {
  std::vector<double> times;
  double t = std::sqrt(2.0 * y0 / kG), v = kG * t;
  while (t < t_end) {
    times.push_back(t);
    v *= e;
    t += 2.0 * v / kG;
  }
  return times;
}

// Runs to 90 % of the way to the Zeno point, with lambda chosen so that du/du0 reaches e^50.
void expect_impacts_kept(double y0, double e) {
  const double t1 = std::sqrt(2.0 * y0 / kG);
  const double t_zeno = t1 + 2.0 * e * kG * t1 / (kG * (1.0 - e));
  const double t_end = t1 + 0.9 * (t_zeno - t1);
  const double lambda = 50.0 / t_end;
  SCOPED_TRACE(::testing::Message() << "y0 " << y0 << " e " << e << " lambda " << lambda);
  const HybridSystem sys = ball_with_growing_passive_state(lambda, e);
  SimulationOptions o;
  o.integrator = Integrator::Dop853;
  o.stepper.rtol = 1e-12;
  o.stepper.atol = 1e-14;
  Vector x0(3);
  x0 << y0, 0.0, 0.0;
  const FlowMapSensitivity s = flow_map_sensitivity(sys, 0, 0.0, x0, t_end, o);
  ASSERT_TRUE(s.ok()) << s.message;
  const std::vector<double> expected = closed_form_impact_times(y0, e, t_end);
  ASSERT_GE(expected.size(), 3u);
  ASSERT_EQ(s.events.size(), expected.size()) << s.run.summary.message;
  for (size_t k = 0; k < expected.size(); ++k) {
    EXPECT_NEAR(s.events[k].t, expected[k], 1e-9 * (1.0 + expected[k])) << "impact " << k;
  }
  const double growth = std::exp(lambda * t_end);
  ASSERT_GT(growth, 1e20);  // the case must be one the old band would have failed
  EXPECT_NEAR(s.flow_map_jacobian(2, 2) / growth, 1.0, 1e-8);
  EXPECT_DOUBLE_EQ(s.run.x_final[2], 0.0);
}

TEST(OnePassBand, ImpactsSurviveAHugeVariationalState) {
  expect_impacts_kept(1.0, 0.8);
}

TEST(OnePassBand, SeededRandomBallsKeepEveryImpact) {
  std::mt19937 rng(20261126);
  std::uniform_real_distribution<double> height(0.2, 2.0), restitution(0.5, 0.9);
  for (int trial = 0; trial < 8; ++trial) {
    const double y0 = height(rng), e = restitution(rng);
    expect_impacts_kept(y0, e);
  }
}

}  // namespace
}  // namespace saltus::analysis
