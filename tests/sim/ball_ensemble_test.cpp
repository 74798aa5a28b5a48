// Issue 9's seeded ensemble: random bouncing balls (x0 in [1e-3, 10], v0 in [-5, 5], e in
// [0.05, 0.99], g in [1, 20]) each run through its Zeno point to t_inf + 1 and checked against the
// closed form (tests/support/ball_ensemble.hpp): every impact time and the Zeno time within 1e-9
// relative, no impact applied to a ball moving up, no position below -1e-12, every run ending
// with end-time-reached after the hand-over to rest. 10^4 balls with the defaults, 2000 with each
// other integrator and root finder (all of which claim to locate events).
#include <gtest/gtest.h>

#include <string>

#include "support/ball_ensemble.hpp"

namespace saltus {
namespace {

struct EnsembleSetting {
  std::string name;
  Integrator integrator;
  events::RootFinderKind finder;
  long balls;
  unsigned seed;
};

class BallEnsemble : public ::testing::TestWithParam<EnsembleSetting> {};

TEST_P(BallEnsemble, EveryImpactAndZenoTimeMatchTheClosedForm) {
  const EnsembleSetting& s = GetParam();
  SimulationOptions o;
  o.integrator = s.integrator;
  o.events.root_finder = s.finder;
  o.stepper.rtol = 1e-10;
  o.stepper.atol = 1e-10;
  std::mt19937_64 rng(s.seed);
  long impacts = 0;
  for (long i = 0; i < s.balls; ++i) {
    const testing::BallCase b = testing::random_ball(rng);
    const testing::BallCheck c = testing::check_ball(b, o);
    const std::string ball = "ball " + std::to_string(i) + ": x0 = " + std::to_string(b.x0) +
                             ", v0 = " + std::to_string(b.v0) + ", e = " + std::to_string(b.e) +
                             ", g = " + std::to_string(b.g) + ": " + c.message;
    ASSERT_EQ(c.termination, Termination::EndTimeReached) << ball;
    ASSERT_TRUE(c.handed_over) << ball;
    ASSERT_GT(c.impacts, 0) << ball;
    ASSERT_LE(c.max_impact_error, 1e-9) << ball;
    ASSERT_LE(c.zeno_error, 1e-9) << ball;
    ASSERT_EQ(c.upward_impacts, 0) << ball;
    ASSERT_GE(c.lowest_position, -1e-12) << ball;
    impacts += c.impacts;
  }
  EXPECT_GT(impacts, 10 * s.balls);  // the runs really resolve many impacts each
}

INSTANTIATE_TEST_SUITE_P(
    Settings, BallEnsemble,
    ::testing::Values(
        EnsembleSetting{"dopri5_brent", Integrator::Dopri5, events::RootFinderKind::Brent, 10000,
                        1},
        EnsembleSetting{"dop853_brent", Integrator::Dop853, events::RootFinderKind::Brent, 2000, 2},
        EnsembleSetting{"radau5_brent", Integrator::Radau5, events::RootFinderKind::Brent, 2000, 3},
        EnsembleSetting{"dopri5_illinois", Integrator::Dopri5, events::RootFinderKind::Illinois,
                        2000, 4},
        EnsembleSetting{"dopri5_anderson_bjorck", Integrator::Dopri5,
                        events::RootFinderKind::AndersonBjorck, 2000, 5},
        EnsembleSetting{"dopri5_bisection", Integrator::Dopri5, events::RootFinderKind::Bisection,
                        2000, 6},
        EnsembleSetting{"dopri5_newton", Integrator::Dopri5, events::RootFinderKind::Newton, 2000,
                        7}),
    [](const ::testing::TestParamInfo<EnsembleSetting>& info) { return info.param.name; });

}  // namespace
}  // namespace saltus
