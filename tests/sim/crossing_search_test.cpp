// The certified crossing search alone (src/sim/crossing_search.hpp), on functions of time given
// with their IntervalJet enclosures: crossings closer than any sampling, a grazing within the
// band, a maximum just below it, a guard leaving its surface, a function without a finite
// enclosure, and seeded random polynomials against their roots found by a dense scan.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "saltus/core/interval_jet.hpp"
#include "sim/crossing_search.hpp"

namespace saltus::detail {
namespace {

using Kind = CrossingSearchResult::Kind;

// Searches s over [t0, t1], s given generically (double or IntervalJet).
template <class F>
CrossingSearchResult search(F s, double t0, double t1, double band, bool departed) {
  auto enclose = [&](double a, double b) { return s(IntervalJet::time(a, b)); };
  auto point = [&](double t) { return s(t); };
  return search_crossing(enclose, point, t0, point(t0), t1, band, departed);
}

TEST(CrossingSearch, APeakOneNanometreAboveZeroIsFound) {
  // s = 1e-9 - (t - 0.5)^2: positive on (0.5 - 3.2e-5, 0.5 + 3.2e-5), in a step of length 1.
  auto s = [](const auto& t) {
    using T = std::decay_t<decltype(t)>;
    return T(1e-9) - (t - T(0.5)) * (t - T(0.5));
  };
  const CrossingSearchResult r = search(s, 0.0, 1.0, 1e-15, true);
  ASSERT_EQ(r.kind, Kind::Bracket);
  EXPECT_LT(r.sa, 0.0);
  EXPECT_GE(r.sb, 0.0);
  EXPECT_LE(r.a, 0.5 - std::sqrt(1e-9));
  EXPECT_GE(r.b, 0.5 - std::sqrt(1e-9));
  EXPECT_LT(r.enclosures, 400);
}

TEST(CrossingSearch, APeakBelowTheBandIsNoEventAndOneWithinItIsAGrazing) {
  auto below = [](const auto& t) {
    using T = std::decay_t<decltype(t)>;
    return T(-1e-9) - (t - T(0.5)) * (t - T(0.5));
  };
  EXPECT_EQ(search(below, 0.0, 1.0, 1e-12, true).kind, Kind::None);
  auto within = [](const auto& t) {
    using T = std::decay_t<decltype(t)>;
    return T(-1e-13) - (t - T(0.5)) * (t - T(0.5));
  };
  const CrossingSearchResult r = search(within, 0.0, 1.0, 1e-12, true);
  ASSERT_EQ(r.kind, Kind::Grazing);
  EXPECT_NEAR(r.a, 0.5, 1e-6);
  EXPECT_GE(r.sa, -1e-12);
}

TEST(CrossingSearch, AGuardAboveZeroThroughoutCostsOneEnclosure) {
  // A jump set's guard of discrete variables alone is the constant 1 (waiting on its trigger
  // side); a wiggling guard above zero is not monotone either. Neither has a crossing in the
  // step, and one enclosure says so (the search used to halve them to its piece limit).
  auto constant = [](const auto& t) {
    using T = std::decay_t<decltype(t)>;
    return T(1.0) + T(0.0) * t;
  };
  auto wiggle = [](const auto& t) {
    using T = std::decay_t<decltype(t)>;
    using std::sin;
    return T(2.0) + sin(T(40.0) * t);
  };
  for (const bool needs_departure : {false, true}) {
    auto enclose = [&](double a, double b) { return constant(IntervalJet::time(a, b)); };
    auto point = [&](double t) { return constant(t); };
    const CrossingSearchResult r =
        search_crossing(enclose, point, 0.0, 1.0, 1.0, 1e-12, false, needs_departure);
    EXPECT_EQ(r.kind, Kind::None);
    EXPECT_EQ(r.enclosures, 1);
  }
  const CrossingSearchResult w = search(wiggle, 0.0, 1.0, 1e-12, false);
  EXPECT_EQ(w.kind, Kind::None);
  EXPECT_EQ(w.enclosures, 1);
  // Negative first, then above zero and wiggling: the crossing before the positive piece.
  auto rises = [](const auto& t) {
    using T = std::decay_t<decltype(t)>;
    using std::sin;
    return T(2.0) + sin(T(40.0) * t) - T(3.5) * exp(T(-50.0) * t);
  };
  const CrossingSearchResult c = search(rises, 0.0, 1.0, 1e-12, true);
  ASSERT_EQ(c.kind, Kind::Bracket);
  EXPECT_LT(c.sa, 0.0);
  EXPECT_GE(c.sb, 0.0);
}

TEST(CrossingSearch, AMonotoneGuardCostsOneEnclosure) {
  auto s = [](const auto& t) {
    using T = std::decay_t<decltype(t)>;
    return t - T(3.0);
  };
  const CrossingSearchResult none = search(s, 0.0, 1.0, 1e-12, true);
  EXPECT_EQ(none.kind, Kind::None);
  EXPECT_LE(none.enclosures, 1);
  const CrossingSearchResult found = search(s, 2.0, 4.0, 1e-12, true);
  ASSERT_EQ(found.kind, Kind::Bracket);
  EXPECT_LE(found.enclosures, 2);
}

TEST(CrossingSearch, AGuardLeavingItsSurfaceHasNotCrossedUntilItReturns) {
  // s = -t (1 - t) - starts at 0 (its reset), falls, returns through 0 at t = 1 (a ball
  // bouncing: the return crossing, not the start, is the event).
  auto s = [](const auto& t) {
    using T = std::decay_t<decltype(t)>;
    return -(t * (T(1.0) - t));
  };
  const CrossingSearchResult r = search(s, 0.0, 2.0, 1e-12, false);
  ASSERT_EQ(r.kind, Kind::Bracket);
  EXPECT_LE(r.a, 1.0);
  EXPECT_GE(r.b, 1.0);
  EXPECT_GT(r.a, 0.5);
}

TEST(CrossingSearch, NoFiniteEnclosureIsAFailureNamingTheInterval) {
  // sqrt(t - 0.3) - 10 is not finite below t = 0.3.
  auto s = [](const auto& t) {
    using T = std::decay_t<decltype(t)>;
    using std::sqrt;
    return sqrt(t - T(0.3)) - T(10.0);
  };
  const CrossingSearchResult r = search(s, 0.5, 1.0, 1e-12, true);
  EXPECT_EQ(r.kind, Kind::None);  // finite throughout [0.5, 1]
  const CrossingSearchResult bad = search(s, 0.1, 1.0, 1e-12, true);
  ASSERT_EQ(bad.kind, Kind::Unbounded);
  EXPECT_LE(bad.a, 0.3);
}

// Random polynomials of degree 4 with two roots closer than 1e-4 inside [0, 1]: the first
// crossing the search brackets is the first sign change of a scan at 1e-7 spacing.
TEST(CrossingSearch, RandomCloseRootPairsAreFoundFirstTime) {
  std::mt19937_64 rng(4343);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int found = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const double r1 = 0.05 + 0.9 * u(rng), gap = 1e-6 + 1e-4 * u(rng), c = 0.5 + u(rng);
    const double q = 2.0 + 3.0 * u(rng);
    // s = -(t - r1)(t - r1 - gap)(c + (t - q)^2): positive only between r1 and r1 + gap.
    auto s = [=](const auto& t) {
      using T = std::decay_t<decltype(t)>;
      return -((t - T(r1)) * (t - T(r1 + gap)) * (T(c) + (t - T(q)) * (t - T(q))));
    };
    const CrossingSearchResult r = search(s, 0.0, 1.0, 1e-14, true);
    ASSERT_EQ(r.kind, Kind::Bracket) << "trial " << trial;
    EXPECT_LE(r.a, r1 + 1e-12) << "trial " << trial;
    EXPECT_GE(r.b, r1 - 1e-12) << "trial " << trial;
    ++found;
  }
  EXPECT_EQ(found, 200);
}

}  // namespace
}  // namespace saltus::detail
