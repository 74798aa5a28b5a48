// analysis::invariant_density: the time-1 maps of a particle bouncing between walls at x = 0 and
// x = 1 against their closed form (unfold: y = x0 + v t mod 2, x = y or 2 - y), the
// equidistribution of x for an irrational speed (Weyl), the merge over threads, options errors,
// and a Chaplygin sleigh billiard run through it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "corridor.hpp"
#include "saltus/analysis/invariant_density.hpp"
#include "saltus/core/error.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"

namespace saltus {
namespace {

using analysis::DensityOptions;
using analysis::DensityResult;

using test::corridor;
using test::Corridor;
using test::corridor_at;

DensityOptions corridor_options(long maps, long discard) {
  DensityOptions o;
  o.maps = maps;
  o.discard = discard;
  o.x_axis = {0, 0.0, 1.0, 20};
  o.y_axis = {1, -2.0, 2.0, 2};
  o.simulation.stepper.rtol = 1e-10;
  o.simulation.stepper.atol = 1e-12;
  return o;
}

TEST(InvariantDensity, CorridorMapsMatchTheClosedFormBoxByBox) {
  const Corridor c = corridor();
  const double v0 = std::sqrt(2.0) - 0.1;  // irrational: x is equidistributed
  const std::vector<Vector> starts = {Eigen::Vector2d(0.25, v0), Eigen::Vector2d(0.7, v0)};
  const DensityOptions o = corridor_options(20000, 100);
  const DensityResult r = analysis::invariant_density(c.system, c.mode, starts, o);
  ASSERT_EQ(r.trajectories.size(), starts.size());
  for (const auto& t : r.trajectories) {
    EXPECT_EQ(t.termination, Termination::EndTimeReached) << t.message;
    EXPECT_EQ(t.maps_done, o.maps);
  }
  EXPECT_EQ(r.histogram.binned + r.histogram.outside,
            static_cast<long>(starts.size()) * (o.maps - o.discard));
  EXPECT_EQ(r.histogram.outside, 0);

  // The closed-form histogram; states within 1e-6 of a box edge may fall on either side.
  analysis::DensityHistogram exact;
  exact.nx = 20;
  exact.ny = 2;
  exact.counts.assign(40, 0);
  long ambiguous = 0;
  for (const auto& s : starts) {
    for (long k = o.discard + 1; k <= o.maps; ++k) {
      const Eigen::Vector2d z = corridor_at(s[0], s[1], static_cast<double>(k));
      const double cell = z[0] * 20.0;
      if (std::abs(cell - std::round(cell)) < 1e-6 * 20.0) ++ambiguous;
      const int ix = std::min(19, static_cast<int>(cell)), iy = z[1] < 0.0 ? 0 : 1;
      ++exact.counts[static_cast<size_t>(iy) * 20 + ix];
    }
  }
  long differing = 0;
  for (size_t i = 0; i < exact.counts.size(); ++i) {
    differing += std::abs(exact.counts[i] - r.histogram.counts[i]);
  }
  std::printf("corridor: %ld states in boxes differing from the closed form, %ld near an edge\n",
              differing, ambiguous);
  EXPECT_LE(differing, 2 * ambiguous) << "ambiguous " << ambiguous;
  // Weyl: each x box holds 1/20 of the maps (both directions together) up to the discrepancy.
  for (int ix = 0; ix < 20; ++ix) {
    EXPECT_NEAR(r.histogram.fraction(ix, 0) + r.histogram.fraction(ix, 1), 0.05, 2e-3);
  }
}

TEST(InvariantDensity, ThreadsChangeNothing) {
  const Corridor c = corridor();
  std::vector<Vector> starts;
  for (int i = 0; i < 5; ++i) starts.push_back(Eigen::Vector2d(0.1 + 0.17 * i, 0.3 + 0.41 * i));
  DensityOptions o = corridor_options(500, 10);
  o.threads = 1;
  const DensityResult one = analysis::invariant_density(c.system, c.mode, starts, o);
  o.threads = 3;
  const DensityResult three = analysis::invariant_density(c.system, c.mode, starts, o);
  EXPECT_EQ(one.threads_used, 1);
  EXPECT_EQ(three.threads_used, 3);
  EXPECT_EQ(one.histogram.counts, three.histogram.counts);
  EXPECT_EQ(three.histogram.binned, 5 * (500 - 10));
  for (size_t i = 0; i < starts.size(); ++i) {
    EXPECT_EQ(one.trajectories[i].x_final, three.trajectories[i].x_final);
  }
}

TEST(InvariantDensity, BadOptionsAreNamed) {
  const Corridor c = corridor();
  const std::vector<Vector> starts = {Eigen::Vector2d(0.5, 1.0)};
  DensityOptions o = corridor_options(10, 10);
  try {
    analysis::invariant_density(c.system, c.mode, starts, o);
    FAIL() << "discard = maps accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("discard = 10 must be in [0, maps = 10)"),
              std::string::npos)
        << e.what();
  }
  o = corridor_options(10, 0);
  o.x_axis.variable = 2;
  EXPECT_THROW(analysis::invariant_density(c.system, c.mode, starts, o), Error);
  o = corridor_options(10, 0);
  EXPECT_THROW(analysis::invariant_density(c.system, c.mode, {Eigen::Vector3d(0, 0, 0)}, o), Error);
}

// The sleigh billiard through the tool: the blade never leaves the table, energy is kept.
TEST(InvariantDensity, SleighBilliardBladeStaysOnTheTable) {
  const systems::EllipticTable table{2.0, 1.0};
  const auto model = systems::chaplygin_sleigh({1.0, 0.1, 0.3, 0.3}, table);
  const auto compiled = model.compile();
  std::vector<Vector> starts = {systems::sleigh_state(0.0, 0.0, 0.3, 1.0, 0.5),
                                systems::sleigh_state(0.5, -0.2, 2.0, -0.7, 1.5)};
  DensityOptions o;
  o.maps = 300;
  o.discard = 10;
  o.x_axis = {0, -2.0, 2.0, 40};
  o.y_axis = {1, -1.0, 1.0, 20};
  o.simulation.stepper.rtol = 1e-10;
  o.simulation.stepper.atol = 1e-12;
  const DensityResult r = analysis::invariant_density(compiled.system, compiled.mode, starts, o);
  EXPECT_EQ(r.histogram.outside, 0);
  EXPECT_EQ(r.histogram.binned, 2 * (300 - 10));
  for (size_t i = 0; i < starts.size(); ++i) {
    const auto& t = r.trajectories[i];
    ASSERT_EQ(t.termination, Termination::EndTimeReached) << t.message;
    const double T0 = model.kinetic_energy(starts[i].head(3), starts[i].tail(3));
    const double T = model.kinetic_energy(t.x_final.head(3), t.x_final.tail(3));
    std::printf("sleigh density run %zu: |T - T0|/T0 = %.2e after 300 maps\n", i,
                std::abs(T - T0) / T0);
    EXPECT_NEAR(T, T0, 1e-7 * T0);
  }
}

}  // namespace
}  // namespace saltus
