// analysis::invariant_density's checkpoints (the histogram after fewer maps) and the distances
// that measure a density's convergence (density_distance.hpp): a checkpoint at a run boundary is
// bit for bit the histogram of the shorter run; seeded random checkpoints of the corridor (a
// particle bouncing between x = 0 and x = 1) against its closed form; a trajectory that stops
// early gives later checkpoints all it has; the L1 distance and the independent-sampling L1
// against hand values and a direct simulation of independent draws.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "corridor.hpp"
#include "saltus/analysis/density_distance.hpp"
#include "saltus/analysis/invariant_density.hpp"
#include "saltus/core/error.hpp"

namespace saltus {
namespace {

using analysis::DensityHistogram;
using analysis::DensityOptions;
using analysis::DensityResult;

using test::corridor;
using test::Corridor;

constexpr int kBoxes = 16;

DensityOptions corridor_options(long maps, long discard) {
  DensityOptions o;
  o.maps = maps;
  o.discard = discard;
  o.x_axis = {0, 0.0, 1.0, kBoxes};
  o.y_axis = {1, -2.0, 2.0, 2};
  o.simulation.stepper.rtol = 1e-10;
  o.simulation.stepper.atol = 1e-12;
  return o;
}

DensityHistogram histogram(int nx, int ny) {
  DensityHistogram h;
  h.nx = nx;
  h.ny = ny;
  h.counts.assign(static_cast<size_t>(nx) * ny, 0);
  return h;
}

// The maps of one trajectory run in pieces of 1024 from t = 0: a run of discard + c maps with c
// + discard a multiple of 1024 computes exactly the first c binned maps of a longer run.
TEST(DensityCheckpoints, ACheckpointAtARunBoundaryIsTheShorterRunsHistogram) {
  const Corridor c = corridor();
  std::vector<Vector> starts;
  for (int i = 0; i < 5; ++i) starts.push_back(Eigen::Vector2d(0.05 + 0.19 * i, 0.37 + 0.29 * i));
  for (int threads : {1, 3}) {
    DensityOptions longer = corridor_options(3000, 24);
    longer.checkpoints = {2024};
    longer.threads = threads;
    const DensityResult a = analysis::invariant_density(c.system, c.mode, starts, longer);
    DensityOptions shorter = corridor_options(2048, 24);
    shorter.threads = threads;
    const DensityResult b = analysis::invariant_density(c.system, c.mode, starts, shorter);
    ASSERT_EQ(a.checkpoints.size(), 1u);
    EXPECT_EQ(a.checkpoints[0].counts, b.histogram.counts) << threads << " threads";
    EXPECT_EQ(a.checkpoints[0].binned, b.histogram.binned);
    EXPECT_EQ(a.checkpoints[0].outside, b.histogram.outside);
    EXPECT_EQ(a.checkpoints[0].binned + a.checkpoints[0].outside, 5 * 2024);
    EXPECT_EQ(a.histogram.binned + a.histogram.outside, 5 * (3000 - 24));
    EXPECT_GT(analysis::l1_distance(a.checkpoints[0], a.histogram), 0.0);
  }
}

// Seeded random corridors, maps, discards and checkpoints: each checkpoint holds exactly the
// first c maps of every trajectory (the closed form), never more than a
// later checkpoint or the final histogram in any box.
TEST(DensityCheckpoints, RandomCheckpointsHoldTheFirstMapsOfEveryTrajectory) {
  const Corridor c = corridor();
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  long cases = 0, compared = 0;
  for (int trial = 0; trial < 10; ++trial) {
    std::vector<Vector> starts;
    const int n_starts = 1 + static_cast<int>(unit(rng) * 3);
    for (int i = 0; i < n_starts; ++i) {
      starts.push_back(Eigen::Vector2d(0.02 + 0.96 * unit(rng), 0.2 + 1.7 * unit(rng)));
    }
    const long maps = 200 + static_cast<long>(unit(rng) * 1800);
    const long discard = static_cast<long>(unit(rng) * 60);
    DensityOptions o = corridor_options(maps, discard);
    const long binned = maps - discard;
    const int n_checkpoints = 1 + static_cast<int>(unit(rng) * 3);
    long previous = 0;
    for (int j = 0; j < n_checkpoints && previous < binned; ++j) {
      previous += 1 + static_cast<long>(unit(rng) * static_cast<double>(binned - previous - 1));
      o.checkpoints.push_back(previous);
    }
    o.threads = 1 + trial % 2;
    const DensityResult r = analysis::invariant_density(c.system, c.mode, starts, o);
    ASSERT_EQ(r.checkpoints.size(), o.checkpoints.size());
    for (size_t j = 0; j < o.checkpoints.size(); ++j) {
      const long cj = o.checkpoints[j];
      const DensityHistogram& h = r.checkpoints[j];
      EXPECT_EQ(h.binned + h.outside, n_starts * cj) << "trial " << trial << " checkpoint " << j;
      EXPECT_EQ(h.outside, 0);
      DensityHistogram exact = histogram(kBoxes, 2);
      long ambiguous = 0;
      for (const Vector& s : starts) {
        for (long k = discard + 1; k <= discard + cj; ++k) {
          const Eigen::Vector2d z = test::corridor_at(s[0], s[1], static_cast<double>(k));
          const double cell = z[0] * kBoxes;
          if (std::abs(cell - std::round(cell)) < 1e-6 * kBoxes) ++ambiguous;
          const int ix = std::min(kBoxes - 1, static_cast<int>(cell)), iy = z[1] < 0.0 ? 0 : 1;
          ++exact.counts[static_cast<size_t>(iy) * kBoxes + ix];
        }
      }
      long differing = 0;
      for (size_t i = 0; i < exact.counts.size(); ++i) {
        differing += std::abs(exact.counts[i] - h.counts[i]);
        const DensityHistogram& later =
            j + 1 < r.checkpoints.size() ? r.checkpoints[j + 1] : r.histogram;
        EXPECT_LE(h.counts[i], later.counts[i]) << "trial " << trial << " box " << i;
      }
      EXPECT_LE(differing, 2 * ambiguous) << "trial " << trial << " checkpoint " << j;
      ++compared;
    }
    ++cases;
  }
  std::printf("random checkpoints: %ld cases, %ld checkpoints against the closed form\n", cases,
              compared);
  EXPECT_EQ(cases, 10);
  EXPECT_GE(compared, 10);
}

// A trajectory stopped by the event cap before a checkpoint gives it every map it binned.
TEST(DensityCheckpoints, ATrajectoryThatStopsEarlyGivesLaterCheckpointsAllItHas) {
  const Corridor c = corridor();
  const std::vector<Vector> starts = {Eigen::Vector2d(0.3, 1.4), Eigen::Vector2d(0.6, 0.05)};
  DensityOptions o = corridor_options(500, 5);
  o.simulation.events.max_events = 50;  // the fast start (1.4 bounces per map) stops at ~36 maps
  o.checkpoints = {10, 200, 495};
  const DensityResult r = analysis::invariant_density(c.system, c.mode, starts, o);
  ASSERT_NE(r.trajectories[0].termination, Termination::EndTimeReached);
  ASSERT_EQ(r.trajectories[1].termination, Termination::EndTimeReached)
      << r.trajectories[1].message;
  const long stopped_binned = r.trajectories[0].maps_done - o.discard;
  ASSERT_GT(stopped_binned, 10);
  ASSERT_LT(stopped_binned, 200);
  EXPECT_EQ(r.checkpoints[0].binned + r.checkpoints[0].outside, 2 * 10);
  EXPECT_EQ(r.checkpoints[1].binned + r.checkpoints[1].outside, stopped_binned + 200);
  EXPECT_EQ(r.checkpoints[2].counts, r.histogram.counts);
  EXPECT_EQ(r.checkpoints[2].binned, r.histogram.binned);
}

TEST(DensityCheckpoints, BadCheckpointsAreNamed) {
  const Corridor c = corridor();
  const std::vector<Vector> starts = {Eigen::Vector2d(0.5, 1.0)};
  for (const std::vector<long>& bad :
       {std::vector<long>{0}, std::vector<long>{5, 5}, std::vector<long>{91}}) {
    DensityOptions o = corridor_options(100, 10);
    o.checkpoints = bad;
    try {
      analysis::invariant_density(c.system, c.mode, starts, o);
      FAIL() << "checkpoints accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("checkpoints["), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("maps - discard = 90"), std::string::npos) << e.what();
    }
  }
}

TEST(DensityDistance, L1OfHandHistograms) {
  DensityHistogram a = histogram(2, 1), b = histogram(2, 1);
  a.counts = {3, 1};
  a.binned = 4;
  b.counts = {1, 1};
  b.binned = 2;
  b.outside = 2;
  // a: (0.75, 0.25, outside 0); b: (0.25, 0.25, outside 0.5): 0.5 + 0 + 0.5.
  EXPECT_DOUBLE_EQ(analysis::l1_distance(a, b), 1.0);
  EXPECT_DOUBLE_EQ(analysis::l1_distance(b, a), 1.0);
  EXPECT_EQ(analysis::l1_distance(a, a), 0.0);
  DensityHistogram disjoint = histogram(2, 1);
  disjoint.counts = {0, 7};
  disjoint.binned = 7;
  DensityHistogram other = histogram(2, 1);
  other.counts = {5, 0};
  other.binned = 5;
  EXPECT_DOUBLE_EQ(analysis::l1_distance(disjoint, other), 2.0);
  EXPECT_THROW(analysis::l1_distance(a, histogram(1, 2)), Error);
  EXPECT_THROW(analysis::l1_distance(a, histogram(2, 1)), Error);  // no maps
}

// E|X/n - p| summed over categories, against the binomial by hand (n = 2, p = (1/2, 1/4, 1/4):
// each category's mean absolute deviation from its pmf) and against independent draws.
TEST(DensityDistance, IndependentSamplingL1MatchesTheBinomialAndDraws) {
  DensityHistogram ref = histogram(3, 1);
  ref.counts = {2, 1, 1};
  ref.binned = 4;
  // p = 1/2, n = 2: X = 0, 1, 2 with 1/4, 1/2, 1/4: E|X/2 - 1/2| = 1/4.
  // p = 1/4, n = 2: X = 0, 1, 2 with 9/16, 6/16, 1/16: E|X/2 - 1/4| = (9 + 6 + 3)/64 = 9/32.
  EXPECT_NEAR(analysis::independent_sampling_l1(ref, 2), 0.25 + 2 * 9.0 / 32.0, 1e-13);
  // A finer reference: the mean over many draws of n maps, within its standard error.
  DensityHistogram fine = histogram(10, 1);
  fine.counts = {1, 2, 3, 4, 5, 6, 7, 8, 9, 55};
  fine.outside = 100;
  fine.binned = 100;
  std::mt19937_64 rng(7);
  std::discrete_distribution<int> draw({1, 2, 3, 4, 5, 6, 7, 8, 9, 55, 100});
  for (long n : {7L, 60L, 500L}) {
    const int repeats = 4000;
    double sum = 0.0, sum2 = 0.0;
    for (int rep = 0; rep < repeats; ++rep) {
      DensityHistogram h = histogram(10, 1);
      for (long k = 0; k < n; ++k) {
        const int i = draw(rng);
        if (i == 10) {
          ++h.outside;
        } else {
          ++h.counts[static_cast<size_t>(i)];
          ++h.binned;
        }
      }
      const double d = analysis::l1_distance(h, fine);
      sum += d;
      sum2 += d * d;
    }
    const double mean = sum / repeats;
    const double standard_error = std::sqrt((sum2 / repeats - mean * mean) / repeats);
    const double predicted = analysis::independent_sampling_l1(fine, n);
    std::printf("n = %ld: independent sampling L1 %.5f, drawn %.5f +- %.5f\n", n, predicted, mean,
                standard_error);
    EXPECT_NEAR(mean, predicted, 4.0 * standard_error);
  }
  EXPECT_THROW(analysis::independent_sampling_l1(fine, 0), Error);
}

}  // namespace
}  // namespace saltus
