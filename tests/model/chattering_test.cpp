// Chattering detected, never ground through (issue 45 item 5): a flow integrated across its own
// jump (`[solver] switching = "smooth"`, a sign() in a mechanical model's forces) stops with
// status chattering naming the expression, the mode and the time where the solution reaches the
// sliding surface, and keeps what it computed; flows whose jumps the steps resolve (a square-wave
// forcing, a bang-bang oscillator crossing its surface) run to t_end; chatter_steps = 0 turns the
// watch off. Before, the dry-friction oscillator written with sign() took 12.4 million steps for
// 1.95 s and reported success.
//
// Closed form (x'' + w^2 x = -F sign(x' - vb) from rest at x0 < F/w^2 - vb/w): the mass slips
// behind the belt, x = F/w^2 - (F/w^2 - x0) cos(w t), and reaches the belt's speed at
// t* = asin(vb / (w (F/w^2 - x0))) / w, where it should stick while |w^2 x| < F.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/metamorphic.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

constexpr double kPi = 3.14159265358979323846;

ModelRun smooth_oscillator(const std::vector<std::string>& extra) {
  std::vector<std::string> sets = {"solver.switching=\"smooth\""};
  sets.insert(sets.end(), extra.begin(), extra.end());
  return saltus::testing::run_file(models_dir() / "dry_friction_sign.toml", sets);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Chattering, TheDryFrictionOscillatorWrittenWithSignStopsWhereItShouldStick) {
  // The file: F = 1, vb = 0.2, w = 1 from rest at x = 0.
  const ModelRun r = smooth_oscillator({});
  EXPECT_EQ(r.result.summary.termination, Termination::Chattering) << r.result.summary.message;
  const std::string& m = r.result.summary.message;
  EXPECT_TRUE(has(m, "sign(v - 0.2)")) << m;  // parameters are folded into numbers
  EXPECT_TRUE(has(m, "mode 'belt'")) << m;
  EXPECT_TRUE(has(m, "switching = \"events\"")) << m;
  const double t_star = std::asin(0.2);
  EXPECT_GT(r.result.summary.t_final, t_star - 1e-9);
  EXPECT_LT(r.result.summary.t_final, t_star + 1e-6);
  // What it computed is kept: the samples up to the stop.
  ASSERT_GT(r.result.trajectory.size(), 1);
  EXPECT_NEAR(r.result.trajectory.times().back(), r.result.summary.t_final, 1e-12);
}

// Seeded random oscillators at several tolerances: every run stops as chattering just after the
// closed-form arrival on the belt's speed.
TEST(Chattering, RandomOscillatorsStopAtTheirArrivalOnTheSlidingSurface) {
  std::mt19937 rng(20261129);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  int checked = 0;
  for (int trial = 0; trial < 40 && checked < 16; ++trial) {
    const double F = 0.5 + 2.0 * U(rng), vb = 0.05 + 0.5 * U(rng), w = 0.5 + 2.0 * U(rng);
    const double A = F / (w * w) + vb / w + U(rng) * F / (w * w);  // F/w^2 - x0
    const double x0 = F / (w * w) - A;
    const double t_star = std::asin(vb / (w * A)) / w;
    const double x_star = F / (w * w) - A * std::cos(w * t_star);
    if (!(std::abs(w * w * x_star) < 0.9 * F)) continue;  // it would slip on at once
    const double rtol = trial % 2 == 0 ? 1e-8 : 1e-12;
    const ModelRun r = smooth_oscillator(
        {"F=" + num(F), "vb=" + num(vb), "w=" + num(w), "x=" + num(x0), "v=0",
         "solver.rtol=" + num(rtol), "solver.atol={ x = " + num(rtol) + ", v = " + num(rtol) + " }",
         "solver.t_end=" + num(t_star + kPi / w)});
    const std::string at = "trial " + std::to_string(trial);
    EXPECT_EQ(r.result.summary.termination, Termination::Chattering)
        << at << ": " << r.result.summary.message;
    EXPECT_GT(r.result.summary.t_final, t_star - 1e-6) << at;
    EXPECT_LT(r.result.summary.t_final, t_star + 1e-3) << at;
    ++checked;
  }
  EXPECT_GE(checked, 16);
}

// A sign() in a mechanical model's forces: the same stop, with the advice of its layer.
TEST(Chattering, FrictionWrittenAsAForceInMechanicsStops) {
  const std::string text = R"toml([model]
name = "belt_force"
[parameters]
vb = 0.2
[coordinates]
x = { initial = 0.0, velocity = 0.0 }
[mechanics]
kinetic_energy = "0.5*x'^2"
potential_energy = "0.5*x^2"
forces = { x = "-sign(x' - vb)" }
[solver]
t_end = 3.0
rtol = 1e-10
)toml";
  const ModelRun r = saltus::testing::run_text(text, {});
  EXPECT_EQ(r.result.summary.termination, Termination::Chattering) << r.result.summary.message;
  EXPECT_TRUE(has(r.result.summary.message, "sign(x' - 0.2)")) << r.result.summary.message;
  EXPECT_TRUE(has(r.result.summary.message, "rigid contact with mu")) << r.result.summary.message;
  EXPECT_NEAR(r.result.summary.t_final, std::asin(0.2), 1e-6);
}

// Jumps the steps resolve are no chattering: a square-wave forcing (a jump in t), a bang-bang
// oscillator crossing its surface twice a period, abs() (continuous) in a decaying flow.
TEST(Chattering, JumpsTheStepsResolveRunToTheEnd) {
  const std::vector<std::string> flows = {
      R"f(["x' = v", "v' = -x + sign(sin(3*t))"])f",
      R"f(["x' = v", "v' = -sign(x)"])f",
      R"f(["x' = v", "v' = -x - 0.1*v + 0.5*(v > 0)"])f",
      R"f(["x' = -abs(x) + 0.1*v", "v' = -v"])f",
  };

  for (const std::string& flow : flows) {
    const std::string text = R"toml([model]
name = "resolved"
[states]
x = { initial = 1.0 }
v = { initial = 0.0 }
[modes.m]
flow = )toml" + flow + R"toml(
[solver]
t_end = 40.0
rtol = 1e-10
switching = "smooth"
)toml";
    const ModelRun r = saltus::testing::run_text(text, {});
    EXPECT_EQ(r.result.summary.termination, Termination::EndTimeReached)
        << flow << ": " << r.result.summary.message;
  }
}

// chatter_steps = 0: the watch is off and the run grinds on (at a loose tolerance, briefly).
TEST(Chattering, ChatterStepsZeroTurnsTheWatchOff) {
  const double t_end = std::asin(0.2) + 0.01;
  const std::vector<std::string> loose = {"solver.rtol=1e-6", "solver.atol=1e-6",
                                          "solver.t_end=" + num(t_end)};
  std::vector<std::string> off = loose;
  off.push_back("solver.chatter_steps=0");
  EXPECT_EQ(smooth_oscillator(off).result.summary.termination, Termination::EndTimeReached);
  EXPECT_EQ(smooth_oscillator(loose).result.summary.termination, Termination::Chattering);
  try {
    (void)load_model_file(models_dir() / "dry_friction_sign.toml", {"solver.chatter_steps=1"});
    ADD_FAILURE() << "chatter_steps = 1 accepted";
  } catch (const Error& e) {
    EXPECT_TRUE(has(e.what(), "chatter_steps")) << e.what();
  }
}

// The same oscillator in millimetres and started at t0 = 1e6 and 1e9 stops at the same instant.
TEST(Chattering, TheStopDoesNotDependOnUnitsOrTheStartTime) {
  const ModelRun base = smooth_oscillator({});
  const ModelRun mm = smooth_oscillator({"F=1000", "vb=200", "solver.atol={ x = 1e-9, v = 1e-9 }"});
  const ModelRun late = smooth_oscillator({"initial.t=1e6", "solver.t_end=1000024"});
  const ModelRun later = smooth_oscillator({"initial.t=1e9", "solver.t_end=1000000024"});
  for (const ModelRun* r : {&base, &mm, &late, &later}) {
    EXPECT_EQ(r->result.summary.termination, Termination::Chattering) << r->result.summary.message;
  }
  EXPECT_NEAR(mm.result.summary.t_final, base.result.summary.t_final, 1e-6);
  EXPECT_NEAR(late.result.summary.t_final - 1e6, base.result.summary.t_final, 1e-6);
  // At 1e9 an ulp of t is 1.2e-7 s: the same instant within 64 of them.
  EXPECT_NEAR(later.result.summary.t_final - 1e9, base.result.summary.t_final, 7.6e-6);
}

}  // namespace
}  // namespace saltus::model
