// Bifurcation diagrams that follow the attractor in the state but restart time at each value
// (issue 33): a value's points depend on where it starts, not on the sweep before it.
#include <gtest/gtest.h>

#include <numbers>

#include "flow_map_differences.hpp"
#include "impact_oscillator.hpp"
#include "saltus/analysis/bifurcation_diagram.hpp"
#include "saltus/analysis/poincare_section.hpp"

namespace saltus::analysis {
namespace {

using saltus::testing::ImpactOscillator;

TEST(BifurcationRestart, AValueDependsOnItsStartOnly) {
  const ImpactOscillator o;
  const Guard section = stroboscopic_section("section", o.period(), 0.0);
  const HybridSystem sys = o.build(&section, true);  // (x, v, sigma); the section is guard 1
  DiagramOptions d;
  d.parameter = 2;
  d.discard = 100;
  d.keep = 8;
  d.horizon = 120.0 * o.period();
  d.simulation = saltus::testing::differentiation_options();
  d.time_period = 0.0;  // time restarts (the section crosses at 0 + k T)
  // Past the doubling (0.0767) the second value's points alternate: the start matters.
  d.values = {0.05, 0.09};
  Vector x0(3);
  x0 << o.closed_form().state_at_zero, 0.0;
  const std::vector<DiagramColumn> sweep = bifurcation_diagram(sys, 0, 1, x0, d);
  ASSERT_EQ(sweep.size(), 2u);
  ASSERT_EQ(sweep[0].points.rows(), 8);
  ASSERT_EQ(sweep[1].points.rows(), 8);
  // The second value alone, from the first value's last point (its mode, t = 0): the same rows,
  // bit for bit.
  DiagramOptions alone = d;
  alone.values = {0.09};
  const Vector start = sweep[0].points.row(7).transpose();
  const std::vector<DiagramColumn> single =
      bifurcation_diagram(sys, sweep[0].modes.back(), 1, start, alone);
  ASSERT_EQ(single[0].points.rows(), 8);
  EXPECT_EQ(single[0].points, sweep[1].points);
  // The mode of every point: the only one, "free".
  for (const DiagramColumn& col : sweep) {
    ASSERT_EQ(col.modes.size(), 8u);
    for (const ModeId m : col.modes) EXPECT_EQ(sys.mode(m).name, "free");
  }
  // The first value: the closed-form period-1 orbit (1e-7); the second alternates.
  ImpactOscillator at = o;
  at.sigma = 0.05;
  for (Eigen::Index k = 0; k < 8; ++k) {
    EXPECT_LE((sweep[0].points.row(k).head(2).transpose() - at.closed_form().state_at_zero)
                  .lpNorm<Eigen::Infinity>(),
              1e-7);
  }
  EXPECT_GT(std::abs(sweep[1].points(0, 0) - sweep[1].points(1, 0)), 1e-4);
  EXPECT_NEAR(sweep[1].points(0, 0), sweep[1].points(2, 0), 1e-6);
}

}  // namespace
}  // namespace saltus::analysis
