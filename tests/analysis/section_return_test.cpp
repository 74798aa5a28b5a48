// The period and the section's crossing rule stated, never guessed (issue 46 item 4): a start's
// first return to its section (section_start.hpp, first_return), which gives the section map's
// default min_time, and the returns a section map skips (MapValue::section_crossings).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "flow_map_differences.hpp"
#include "saltus/analysis/return_map.hpp"
#include "saltus/analysis/section_start.hpp"

namespace saltus::analysis {
namespace {

constexpr double kPi = std::numbers::pi;

// x'' = -w^2 x: from x = 0 the section x = 0 is crossed every half period pi / w.
HybridSystem oscillator(double w) {
  HybridSystem sys;
  sys.add_mode("free", ode_flow(2, [w](const auto&, const auto& x, auto& xd) {
                 xd[0] = x[1];
                 xd[1] = -w * w * x[0];
               }));
  return sys;
}

Guard section_x(Direction direction) {
  return make_observer("x = 0", direction,
                       [](const auto&, const auto& x, const auto&) { return x[0]; });
}

TEST(SectionReturn, OscillatorLeavesAgainstTheDirectionAndReturnsAPeriodLater) {
  std::mt19937 rng(46);
  std::uniform_real_distribution<double> frequency(0.3, 5.0), speed(0.1, 10.0);
  for (int k = 0; k < 8; ++k) {
    const double w = frequency(rng), v = speed(rng);
    const HybridSystem sys = oscillator(w);
    // Rising from x = 0 with x' = v > 0; falling from x' = -v.
    for (const Direction d : {Direction::Rising, Direction::Falling}) {
      Vector x0(2);
      x0 << 0.0, d == Direction::Rising ? v : -v;
      const double t0 = k * 100.0;
      const SectionReturn r = first_return(sys, 0, t0, x0, Vector(), section_x(d), 10.0 * kPi / w,
                                           saltus::testing::differentiation_options());
      ASSERT_TRUE(r.ok) << r.message;
      const double scale = 1e-9 * (1.0 + t0);
      EXPECT_NEAR(r.t_leave, t0 + kPi / w, scale) << "w " << w;
      EXPECT_NEAR(r.t_return, t0 + 2.0 * kPi / w, scale) << "w " << w;
      EXPECT_NEAR(r.min_time, 1.5 * kPi / w, scale) << "w " << w;
    }
  }
}

// x' = -1 with a jump x = -1 -> +1 (a walker's heel strike in miniature): the section x = 0
// falling is left by the jump onto its far side, not by a crossing.
HybridSystem sawtooth(bool with_jump) {
  HybridSystem sys;
  const ModeId m = sys.add_mode(
      "down", ode_flow(1, [](const auto&, const auto& x, auto& xd) { xd[0] = -1.0 + 0.0 * x[0]; }));
  if (with_jump) {
    sys.add_guard(m, make_guard(
                         "strike", Direction::Falling,
                         [](const auto&, const auto& x, const auto&) { return x[0] + 1.0; },
                         Reset::to_ad(m, [](const auto&, const auto& x, const auto&, auto& xp) {
                           xp[0] = x[0] + 2.0;
                         })));
  }
  return sys;
}

TEST(SectionReturn, AResetOntoTheFarSideLeavesTheSection) {
  const Vector x0 = Vector::Zero(1);
  const SectionReturn r =
      first_return(sawtooth(true), 0, 0.0, x0, Vector(), section_x(Direction::Falling), 10.0);
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_NEAR(r.t_leave, 1.0, 1e-10);
  EXPECT_NEAR(r.t_return, 2.0, 1e-10);
  EXPECT_NEAR(r.min_time, 1.5, 1e-10);
  // Without the jump the flow never comes back: a message, no min_time.
  const SectionReturn never =
      first_return(sawtooth(false), 0, 0.0, x0, Vector(), section_x(Direction::Falling), 10.0);
  EXPECT_FALSE(never.ok);
  EXPECT_TRUE(std::isnan(never.min_time));
  EXPECT_NE(never.message.find("never leaves the section 'x = 0'"), std::string::npos)
      << never.message;
}

TEST(SectionReturn, SectionMapCountsTheReturnsItSkipsButNotItsStart) {
  const double w = 1.3, T = 2.0 * kPi / w;
  const HybridSystem sys = oscillator(w);
  const SimulationOptions options = saltus::testing::differentiation_options();
  // A start a rounding error before the section: its own crossing is no return.
  for (const double before : {0.0, -1e-13}) {
    Vector x0(2);
    x0 << before, 1.0;
    const MapValue first =
        section_map(sys, 0, 0.0, section_x(Direction::Rising), 0.75 * T, 10.0 * T, options)(x0);
    ASSERT_TRUE(first.ok()) << first.message;
    EXPECT_EQ(first.section_crossings, 0) << "start at x = " << before;
    EXPECT_NEAR(first.return_time, T, 1e-9);
    // A min_time beyond one period skips one return, beyond two skips two.
    for (const long skipped : {1L, 2L}) {
      const MapValue later =
          section_map(sys, 0, 0.0, section_x(Direction::Rising),
                      (static_cast<double>(skipped) + 0.75) * T, 10.0 * T, options)(x0);
      ASSERT_TRUE(later.ok()) << later.message;
      EXPECT_EQ(later.section_crossings, skipped) << "start at x = " << before;
      EXPECT_NEAR(later.return_time, (static_cast<double>(skipped) + 1.0) * T, 1e-8);
    }
  }
  // A section of either direction returns at every crossing: T / 2 and T are skipped by a
  // min_time of 1.25 T, the return is at 1.5 T; the start's own crossing is not counted.
  Vector x0(2);
  x0 << 0.0, 1.0;
  const MapValue either =
      section_map(sys, 0, 0.0, section_x(Direction::Either), 1.25 * T, 10.0 * T, options)(x0);
  ASSERT_TRUE(either.ok()) << either.message;
  EXPECT_EQ(either.section_crossings, 2);
  EXPECT_NEAR(either.return_time, 1.5 * T, 1e-8);
}

}  // namespace
}  // namespace saltus::analysis
