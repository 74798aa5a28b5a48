// The instant a continuation re-times a stroboscopic map to (stroboscopic_phase.hpp): the middle
// of the widest cyclic gap between the orbit's resets, and their distance from the map's instant.
#include <gtest/gtest.h>

#include "saltus/analysis/stroboscopic_phase.hpp"

namespace saltus::analysis {
namespace {

MapValue with_resets(std::vector<double> times) {
  MapValue v;
  v.reset_times = std::move(times);
  return v;
}

TEST(StroboscopicPhase, QuietestInstantIsTheMiddleOfTheWidestCyclicGap) {
  const double t0 = 10.0, T = 2.0;
  // No reset: half a period on.
  EXPECT_DOUBLE_EQ(quietest_instant(with_resets({}), t0, T), 11.0);
  // One reset: half a period after it, wrapped into (t0, t0 + T).
  EXPECT_DOUBLE_EQ(quietest_instant(with_resets({10.2}), t0, T), 11.2);
  EXPECT_DOUBLE_EQ(quietest_instant(with_resets({11.8}), t0, T), 10.8);
  // The widest gap wraps past t0 + T: resets at phases 0.2 and 0.6, gap 0.6 -> 2.2.
  EXPECT_DOUBLE_EQ(quietest_instant(with_resets({10.2, 10.6}), t0, T), 11.4);
  // The widest gap lies inside: phases 0.1, 0.3 and 1.9, gap 0.3 -> 1.9.
  EXPECT_DOUBLE_EQ(quietest_instant(with_resets({10.1, 10.3, 11.9}), t0, T), 11.1);
  // A reset exactly at t0 + T is the reset at phase 0.
  EXPECT_DOUBLE_EQ(quietest_instant(with_resets({12.0}), t0, T), 11.0);
}

TEST(StroboscopicPhase, MarginIsTheDistanceOfTheNearestResetFromEitherEnd) {
  const double t0 = 10.0, T = 2.0;
  EXPECT_EQ(reset_margin(with_resets({}), t0, T), kInfinity);
  EXPECT_NEAR(reset_margin(with_resets({10.02, 11.0}), t0, T), 0.02, 1e-12);
  EXPECT_NEAR(reset_margin(with_resets({11.0, 11.97}), t0, T), 0.03, 1e-12);
  EXPECT_EQ(reset_margin(with_resets({10.0}), t0, T), 0.0);
}

}  // namespace
}  // namespace saltus::analysis
