// The Zeno accumulation of a run (src/sim/accumulation.hpp) fed with event times and states
// directly, without an integrator.
#include "sim/accumulation.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace saltus::detail {
namespace {

// Events at t_k = T (1 - r^k) (geometric durations, ratio r), state x_k = (1 + r^k, r^k): the
// accumulation point is T, the limit state (1, 0).
struct Geometric {
  double T, r;
  double t(int k) const { return T * (1.0 - std::pow(r, k)); }
  Vector x(int k) const {
    Vector v(2);
    v << 1.0 + std::pow(r, k), std::pow(r, k);
    return v;
  }
};

TEST(Accumulation, GeometricEventsAreHandedOverAtTheirLimit) {
  for (double r : {0.3, 0.6, 0.8, 0.95}) {
    const Geometric g{2.0, r};
    events::ZenoOptions o;
    Accumulation a(o, 2);
    a.reset();
    int k = 1;
    Accumulation::Verdict v = Accumulation::Verdict::None;
    for (; k < 2000 && v == Accumulation::Verdict::None; ++k)
      v = a.on_event(g.t(k), 0, 0, 0, g.x(k));
    ASSERT_EQ(v, Accumulation::Verdict::HandoverDue) << "r = " << r;
    const double t_last = g.t(k - 1);
    // Handed over once the time left is below handover_tolerance (or t cannot resolve a cycle).
    EXPECT_LE(g.T - t_last, 1e-6) << r;
    EXPECT_NEAR(a.prediction().t_inf, g.T, 1e-9 * g.T) << r;
    EXPECT_NEAR(a.prediction().ratio, r, 1e-6) << r;
    EXPECT_EQ(a.prediction_mode(), 0);
    EXPECT_TRUE(a.accumulating(t_last, 0)) << r;
    EXPECT_FALSE(a.accumulating(t_last, 1)) << "another mode does not accumulate";
    Vector x_inf(2);
    a.limit_state(a.prediction().period, g.x(k - 1), x_inf);
    EXPECT_NEAR(x_inf[0], 1.0, 1e-12) << r;
    EXPECT_NEAR(x_inf[1], 0.0, 1e-12) << r;
    a.reset();
    EXPECT_FALSE(a.prediction().detected);
    EXPECT_FALSE(a.accumulating(t_last, 0));
  }
}

// Identity resets of one guard in a row closer than zeno.min_gap (1e-13 relative): the state no
// longer moves and the guard only crosses in round-off; anything else breaks the chain.
TEST(Accumulation, IdentityResetsInARowBelowTheMinimumGapAreStalled) {
  events::ZenoOptions o;
  Accumulation a(o, 2);
  a.reset();
  // The window is min_gap relative to the time since the run's start (the loop's clock).
  const double t = 0.5, window = o.min_gap * t, gap = 0.5 * window;
  // As the loop does at every reset: ask, then record.
  const auto reset_at = [&a](double when, ModeId mode, int k, bool identity) {
    const bool stalled = a.stalled(when, mode, k, identity);
    a.note_reset(when, mode, k, identity);
    return stalled;
  };
  EXPECT_FALSE(reset_at(t, 0, 2, true)) << "one identity reset is an ordinary event";
  EXPECT_TRUE(reset_at(t + gap, 0, 2, true));
  EXPECT_FALSE(reset_at(t + 2 * gap, 0, 2, false)) << "a reset that changes the state";
  EXPECT_FALSE(reset_at(t + 3 * gap, 0, 2, true));
  EXPECT_FALSE(reset_at(t + 4 * gap, 0, 1, true)) << "another guard";
  EXPECT_FALSE(reset_at(t + 5 * gap, 1, 1, true)) << "another mode";
  EXPECT_FALSE(reset_at(t + 5 * gap + 3 * window, 1, 1, true)) << "beyond the minimum gap";
  EXPECT_TRUE(reset_at(t + 5 * gap + 3.5 * window, 1, 1, true));
  a.reset();
  EXPECT_FALSE(reset_at(t + 6 * window, 1, 1, true)) << "a new arc forgets the chain";
}

TEST(Accumulation, PolicyOffNeverHandsOver) {
  const Geometric g{1.0, 0.7};
  events::ZenoOptions o;
  o.policy = events::ZenoOptions::Policy::Off;
  Accumulation a(o, 2);
  a.reset();
  for (int k = 1; k < 60; ++k) {
    const Accumulation::Verdict v = a.on_event(g.t(k), 0, 0, 0, g.x(k));
    ASSERT_NE(v, Accumulation::Verdict::HandoverDue) << k;
    EXPECT_FALSE(a.accumulating(g.t(k), 0));
  }
}

// Gaps below zeno.min_gap without a geometric pattern: after min_gap_count of them the run
// stops (EventCap), it is not mistaken for an accumulation.
TEST(Accumulation, TinyGapsWithoutAPatternAreACap) {
  events::ZenoOptions o;
  Accumulation a(o, 1);
  a.reset();
  Vector x(1);
  x << 0.0;
  double t = 1.0;
  Accumulation::Verdict v = Accumulation::Verdict::None;
  int n = 0;
  for (; n < 200 && v == Accumulation::Verdict::None; ++n) {
    t += (n % 3 == 0 ? 3e-15 : 1e-15);  // constant-ish gaps: no shrinking ratio
    v = a.on_event(t, 0, 0, 0, x);
  }
  EXPECT_EQ(v, Accumulation::Verdict::UnrecognisedAccumulation);
  EXPECT_GE(a.small_gaps(), o.min_gap_count);
  EXPECT_LE(n, o.min_gap_count + 2);
}

}  // namespace
}  // namespace saltus::detail
