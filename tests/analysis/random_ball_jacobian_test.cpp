// Seeded random bouncing balls (gravity, restitution, drag, initial state, number of impacts):
// the flow-map Jacobian against central differences of the whole run, and the volume factors
// against Clark-Bloch's closed form: det S = e^2 per impact (Example 1, unchanged by linear drag)
// and det D phi = e^(2k) exp(-drag t_end) (Liouville on the arcs: div f = -drag).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "flow_map_differences.hpp"
#include "saltus/analysis/hybrid_sensitivity.hpp"
#include "saltus/systems/bouncing_ball.hpp"

namespace saltus::analysis {
namespace {

TEST(RandomBallJacobian, FlowMapMatchesDifferencesAndClosedForms) {
  std::mt19937 rng(20261123);
  std::uniform_real_distribution<double> gravity(5.0, 15.0), restitution(0.3, 0.95), drag(0.0, 0.5),
      height(0.3, 2.0), speed(-2.0, 2.0);
  std::uniform_int_distribution<int> impacts(1, 3);
  const SimulationOptions options = saltus::testing::differentiation_options();
  double worst = 0.0;
  for (int trial = 0; trial < 12; ++trial) {
    systems::BouncingBall ball;
    ball.g = gravity(rng);
    ball.e = restitution(rng);
    ball.drag = drag(rng);
    ball.with_rest_mode = false;
    const HybridSystem sys = ball.build();
    Vector x0(2);
    x0 << height(rng), speed(rng);
    const int k = impacts(rng);
    // t_end halfway between impacts k and k+1, far from both (the perturbed runs see k impacts).
    SimulationOptions find = options;
    find.output.record_events = true;
    const SimulationResult probe = simulate(sys, ball.flight, 0.0, x0, 60.0, find);
    ASSERT_GT(probe.events.size(), k) << probe.summary.message;
    const double t_end = 0.5 * (probe.events[k - 1].t + probe.events[k].t);
    SCOPED_TRACE("trial " + std::to_string(trial) + ": g = " + std::to_string(ball.g) +
                 ", e = " + std::to_string(ball.e) + ", drag = " + std::to_string(ball.drag) +
                 ", impacts = " + std::to_string(k));
    const FlowMapSensitivity s = flow_map_sensitivity(sys, ball.flight, 0.0, x0, t_end, options);
    ASSERT_TRUE(s.ok()) << s.message;
    ASSERT_EQ(static_cast<int>(s.events.size()), k);
    const Matrix fd =
        saltus::testing::flow_map_by_differences(sys, ball.flight, 0.0, x0, t_end, options);
    const double difference = saltus::testing::relative_difference(s.flow_map_jacobian, fd);
    worst = std::max(worst, difference);
    EXPECT_LE(difference, saltus::testing::kDifferenceTolerance) << s.flow_map_jacobian << "\nvs\n"
                                                                 << fd;
    for (const EventSensitivity& e : s.events) {
      EXPECT_NEAR(e.hybrid_jacobian, ball.e * ball.e, 1e-12);
    }
    // The arcs' determinant comes from the variational integration at rtol 1e-12.
    const double volume = std::pow(ball.e, 2 * k) * std::exp(-ball.drag * t_end);
    EXPECT_NEAR(s.volume_factor / volume, 1.0, 1e-9);
  }
  RecordProperty("worst_relative_difference", saltus::testing::measured(worst));
}

}  // namespace
}  // namespace saltus::analysis
