// Closed contacts stay on g_N = 0, gdot_N = 0 over long runs (issue 11 item 4): a particle sliding
// without friction inside a circular bowl (a pendulum held by the contact force, always pressed
// on) for 200 s at rtol 1e-8. The closed mode's flow enforces gddot_N = 0 only, so without the
// projection after every step (src/mech/closed_contact_projection.cpp) g_N grows quadratically:
// measured 4.9e-5 at t = 200 and gdot_N 4.8e-7 before it existed.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

constexpr const char* kBowl = R"toml([parameters]
R = 1.0
g = 9.81
th0 = 0.5
[coordinates]
x = { initial = "R*sin(th0)" }
y = { initial = "-R*cos(th0)" }
[mechanics]
kinetic_energy = "0.5*(x'^2 + y'^2)"
potential_energy = "g*y"
[[contacts]]
name = "bowl"
gap = "0.5*(R^2 - x^2 - y^2)"
law = "newton"
e = 0.0
[solver]
t_end = 200.0
[output]
sample_interval = 0.5
)toml";

TEST(ClosedContactDrift, ParticleInABowlStaysOnTheSurface) {
  std::mt19937 rng(20261124);
  std::uniform_real_distribution<double> angle(0.2, 1.2), radius(0.5, 2.0);
  for (int trial = 0; trial < 3; ++trial) {
    const double th0 = angle(rng), R = radius(rng);
    const ModelRun run = run_model(std::make_shared<const Model>(load_model_text(
        kBowl, "bowl.toml", {"th0=" + saltus::testing::num(th0), "R=" + saltus::testing::num(R)})));
    ASSERT_TRUE(run.succeeded()) << run.message();
    ASSERT_EQ(run.result.events.size(), 0) << "the particle never leaves the bowl";
    const Trajectory& tr = run.result.trajectory;
    const double e0 = 9.81 * (-R * std::cos(th0));
    double worst_gap = 0, worst_rate = 0, worst_energy = 0;
    for (long i = 0; i < tr.size(); ++i) {
      const auto x = tr.x(i);
      EXPECT_EQ(run.system.mode(tr.mode(i)).name, "closed:bowl");
      // Samples are dense output inside steps whose ends are projected: the interpolation's
      // error (~rtol) remains, but nothing accumulates.
      worst_gap =
          std::max(worst_gap, std::abs(0.5 * (R * R - x[0] * x[0] - x[1] * x[1])) / (R * R));
      worst_rate = std::max(worst_rate, std::abs(x[0] * x[2] + x[1] * x[3]) / (R * R));
      worst_energy =
          std::max(worst_energy, std::abs(0.5 * (x[2] * x[2] + x[3] * x[3]) + 9.81 * x[1] - e0));
    }
    EXPECT_LT(worst_gap, 1e-8) << "th0 = " << th0 << ", R = " << R;
    EXPECT_LT(worst_rate, 1e-7) << "th0 = " << th0 << ", R = " << R;
    EXPECT_LT(worst_energy, 1e-4 * std::abs(e0));  // not kept by the projection: the flow's own
    std::printf(
        "bowl R = %.3f th0 = %.3f: max |g_N| / R^2 %.1e, |gdot_N| / R^2 %.1e, energy %.1e\n", R,
        th0, worst_gap, worst_rate, worst_energy);
  }
}

}  // namespace
}  // namespace saltus::model
