// mech::energy_surface_starts: every start keeps the first one's configuration and kinetic
// energy, satisfies the constraints, and is reproducible from its seed; the velocities differ.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "saltus/core/error.hpp"
#include "saltus/mech/energy_surface_starts.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"

namespace saltus::mech {
namespace {

void expect_on_energy_surface(const NonholonomicModel& model, const Vector& x0, int count,
                              std::uint64_t seed) {
  const int n = model.dof();
  const std::vector<Vector> starts = energy_surface_starts(model, x0, count, seed);
  ASSERT_EQ(static_cast<int>(starts.size()), count);
  EXPECT_EQ(starts[0], x0);
  const double T0 = model.kinetic_energy(x0.head(n), x0.tail(n));
  for (int k = 1; k < count; ++k) {
    const Vector& x = starts[static_cast<size_t>(k)];
    EXPECT_EQ(x.head(n), x0.head(n)) << "start " << k;
    EXPECT_NEAR(model.kinetic_energy(x.head(n), x.tail(n)) / T0, 1.0, 1e-13) << "start " << k;
    const double scale = x.tail(n).lpNorm<Eigen::Infinity>();
    EXPECT_LE(model.constraint_values(x.head(n), x.tail(n)).lpNorm<Eigen::Infinity>(),
              1e-13 * scale)
        << "start " << k;
    EXPECT_GT((x.tail(n) - starts[static_cast<size_t>(k - 1)].tail(n)).norm(), 1e-6 * scale)
        << "start " << k << " repeats the one before";
  }
  EXPECT_EQ(energy_surface_starts(model, x0, count, seed), starts) << "not reproducible";
}

TEST(EnergySurfaceStarts, SeededRandomSleighsDisksAndBalls) {
  std::mt19937 rng(20261126);
  std::uniform_real_distribution<double> u(-1.0, 1.0), pos(0.2, 1.5);
  for (int trial = 0; trial < 10; ++trial) {
    SCOPED_TRACE(::testing::Message() << "trial " << trial);
    const systems::ChaplyginSleigh sleigh{pos(rng), 0.1 * pos(rng), 0.3 * pos(rng), 0.2};
    expect_on_energy_surface(
        systems::chaplygin_sleigh(sleigh, systems::EllipticTable{}),
        systems::sleigh_state(0.5 * u(rng), 0.3 * u(rng), 3 * u(rng), u(rng), u(rng)), 6,
        static_cast<std::uint64_t>(trial));
    const systems::VerticalDisk disk{pos(rng), 0.1, 0.01 * pos(rng), 0.01 * pos(rng)};
    expect_on_energy_surface(systems::vertical_disk(disk, systems::EllipticTable{}),
                             systems::vertical_disk_state(disk, 0.5 * u(rng), 0.3 * u(rng),
                                                          3 * u(rng), u(rng), u(rng), u(rng)),
                             6, static_cast<std::uint64_t>(trial));
    const systems::RollingBall ball{0.4 * pos(rng), 1.0};
    expect_on_energy_surface(systems::rolling_ball(ball),
                             systems::rolling_ball_state(ball, u(rng), u(rng), 1.5 + 0.2 * u(rng),
                                                         u(rng), u(rng), u(rng), u(rng), u(rng)),
                             6, static_cast<std::uint64_t>(trial));
  }
}

TEST(EnergySurfaceStarts, RefusesAStartAtRestOrOffTheConstraints) {
  const NonholonomicModel sleigh = systems::chaplygin_sleigh({}, systems::EllipticTable{});
  const Vector rest = systems::sleigh_state(0.0, 0.0, 0.3, 0.0, 0.0);
  try {
    energy_surface_starts(sleigh, rest, 3, 1);
    FAIL() << "a start at rest was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("kinetic energy T = 0"), std::string::npos) << e.what();
  }
  Vector sideways = systems::sleigh_state(0.0, 0.0, 0.0, 1.0, 0.0);
  sideways[4] = 0.5;  // y' with theta = 0: the blade slips
  EXPECT_THROW(energy_surface_starts(sleigh, sideways, 3, 1), Error);
}

}  // namespace
}  // namespace saltus::mech
