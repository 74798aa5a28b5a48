// Newton shooting on a Poincare section of an autonomous hybrid system: the energising wall
// (energising_wall.hpp), its limit cycle, period and multiplier in closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "energising_wall.hpp"
#include "flow_map_differences.hpp"
#include "saltus/analysis/periodic_orbit.hpp"

namespace saltus::analysis {
namespace {

using saltus::testing::EnergisingWall;

Guard apex_section() {
  return make_observer("lowest", Direction::Rising,
                       [](const auto&, const auto& x, const auto&) { return x[1]; });
}

TEST(SectionShooting, EnergisingWallLimitCycleAndMultiplier) {
  const EnergisingWall ko;
  const HybridSystem sys = ko.build();
  const SimulationOptions options = saltus::testing::differentiation_options();
  Vector guess = ko.section_point();
  guess[0] *= 1.2;
  guess[1] = -0.05;
  const PeriodicOrbit orbit = shoot_on_section(sys, 0, 0.0, apex_section(), 0.25 * ko.period(),
                                               3.0 * ko.period(), guess, options);
  ASSERT_TRUE(orbit.converged()) << orbit.message;
  EXPECT_LE((orbit.x - ko.section_point()).lpNorm<Eigen::Infinity>(), 1e-8)
      << orbit.x.transpose() << " vs " << ko.section_point().transpose();
  EXPECT_NEAR(orbit.period, ko.period(), 1e-8);
  EXPECT_EQ(orbit.events_per_period, 1);
  // The Poincare map's multipliers: q and 0 (the flow direction).
  ASSERT_EQ(orbit.multipliers.size(), 2);
  EXPECT_NEAR(orbit.multipliers[0].real(), ko.q(), 1e-8);
  EXPECT_NEAR(std::abs(orbit.multipliers[1]), 0.0, 1e-8);
  // The monodromy over one period from the orbit: multipliers 1 (trivial) and q.
  const FlowMapSensitivity s = flow_map_sensitivity(sys, 0, 0.0, orbit.x, orbit.period, options);
  ASSERT_TRUE(s.ok()) << s.message;
  const Eigen::VectorXcd full = floquet_multipliers(s.flow_map_jacobian);
  EXPECT_NEAR(full[0].real(), 1.0, 1e-7);
  EXPECT_NEAR(full[1].real(), ko.q(), 1e-7);
  RecordProperty("multiplier", saltus::testing::measured(orbit.multipliers[0].real()) + " vs " +
                                   saltus::testing::measured(ko.q()));
}

TEST(SectionShooting, RandomWallsConvergeToTheirClosedForm) {
  std::mt19937 rng(20261123);
  std::uniform_real_distribution<double> damping(0.05, 0.8), kick(0.2, 3.0), offset(0.8, 1.25);
  const SimulationOptions options = saltus::testing::differentiation_options();
  for (int trial = 0; trial < 20; ++trial) {
    EnergisingWall w;
    w.c = damping(rng);
    w.k = kick(rng);
    Vector guess = w.section_point();
    guess[0] *= offset(rng);
    const PeriodicOrbit orbit = shoot_on_section(
        w.build(), 0, 0.0, apex_section(), 0.25 * w.period(), 3.0 * w.period(), guess, options);
    ASSERT_TRUE(orbit.converged()) << "c " << w.c << " k " << w.k << ": " << orbit.message;
    EXPECT_LE((orbit.x - w.section_point()).lpNorm<Eigen::Infinity>(), 1e-8 * (1.0 + w.u()));
    EXPECT_NEAR(orbit.period, w.period(), 1e-8);
    EXPECT_NEAR(orbit.multipliers[0].real(), w.q(), 1e-8);
    EXPECT_LE(std::abs(orbit.multipliers[1]), 1e-8);
  }
}

TEST(SectionShooting, SectionNeverCrossedIsAStatusWithItsName) {
  const EnergisingWall ko;
  const Guard far =
      make_observer("far wall", Direction::Rising,
                    [](const auto&, const auto& x, const auto&) { return -x[0] - 100.0; });
  const PeriodicOrbit orbit =
      shoot_on_section(ko.build(), 0, 0.0, far, 0.25 * ko.period(), 3.0 * ko.period(),
                       ko.section_point(), saltus::testing::differentiation_options());
  EXPECT_EQ(orbit.status, ShootingStatus::MapFailed);
  EXPECT_NE(orbit.message.find("'far wall' was not crossed"), std::string::npos) << orbit.message;
  EXPECT_EQ(orbit.monodromy.size(), 0);
}

}  // namespace
}  // namespace saltus::analysis
