// Metamorphic suite, other units (issue 34 item 6a; docs/VALIDATION.md): every model of models/
// written in units of length, mass and time that are other multiples of the file's units
// (tests/support/unit_rescaling.hpp converts the file: parameters, initial values, times, atol
// per state) must give the same run.
//   - Factors that are powers of two change no rounding in any product or quotient, so a run
//     whose every tolerance comes from the model's own scales is the same run bit for bit: the
//     same events, times x T exactly, states after each event x their factor exactly. A constant
//     with a unit, or a norm across states of different units, breaks this equality.
//   - Random factors (1e-3 to 1e3): the same events in the same order, times to the solver's
//     error, over the model's horizon.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "saltus/model/diagnostic.hpp"
#include "saltus/model/model_file_text.hpp"
#include "support/metamorphic.hpp"
#include "support/model_files.hpp"
#include "support/unit_rescaling.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;
using saltus::testing::named_events;
using saltus::testing::NamedEvent;
using saltus::testing::rescale_model_units;
using saltus::testing::RescaledModel;
using saltus::testing::run_text;
using saltus::testing::UnitFactors;

std::string text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Models that write a dimensional constant as a number inside an expression (the README's
// ten-line ball: "9.81*y"), which no change of units can reach.
const std::set<std::string> kLiteralConstants = {"ball.toml"};

// Models whose motion separates nearby trajectories fast, compared over a shorter horizon
// (in the file's time unit) in the random units: the vibrating table at its file's values
// amplifies a difference 10x every ~2 s (rtol 1e-12 against 1e-13: event times 4e-16 apart at
// the first impact, 1e-8 at the 17th, t = 19.5), so at its t_end of 20 any two roundings of
// the same run differ by more than the comparison's 1e4 x tolerance, whatever the units.
const std::map<std::string, double> kChaoticHorizon = {{"vibrating_table.toml", 8.0}};

// Overrides that shorten a chaotic model's run to its horizon, in units whose time is `t_factor`
// times the file's (with `others` kept).
std::vector<std::string> horizon(const std::string& name, double t_factor,
                                 std::vector<std::string> others) {
  const auto it = kChaoticHorizon.find(name);
  if (it != kChaoticHorizon.end()) others.push_back("solver.t_end=" + text(it->second * t_factor));
  return others;
}

struct ModelText {
  std::string name, text;
};
std::vector<ModelText> model_texts() {
  std::vector<ModelText> out;
  for (const auto& entry : std::filesystem::directory_iterator(models_dir())) {
    if (entry.path().extension() != ".toml") continue;
    std::vector<Diagnostic> unreadable;
    out.push_back(
        {entry.path().filename().string(), read_model_file_text(entry.path(), unreadable)});
    EXPECT_TRUE(unreadable.empty()) << entry.path();
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

// Each state's factor, in the order of the model's states.
std::vector<double> state_factors(const ModelRun& r, const RescaledModel& rescaled) {
  std::vector<double> out;
  for (const Quantity& q : r.model->states) {
    const auto it = rescaled.state_factor.find(q.name);
    out.push_back(it != rescaled.state_factor.end() ? it->second : 1.0);
  }
  return out;
}

// Both runs with the same starting step (in the file's time unit times T): HNW's automatic
// starting step compares ||f|| (1/time) with ||x''|| (1/time^2) and so is not the same step in
// another unit of time (docs/VALIDATION.md says what this leaves).
std::vector<std::string> fixed_start(const Model& m, double time_factor) {
  return {"solver.h_initial=" + text(1e-4 * (m.t_end - m.t_start) * time_factor)};
}

// How run b (the model in units `f`) compares with run a, in a's units.
saltus::testing::RunComparison compare(const ModelRun& a, const ModelRun& b,
                                       const RescaledModel& rescaled, const UnitFactors& f,
                                       bool exact_units) {
  const std::vector<double> factor = state_factors(a, rescaled);
  return saltus::testing::compare_runs(
      a, b, [&](double t) { return t / f.time; },
      [&](Eigen::Index k, double x) {
        return x / (k < static_cast<Eigen::Index>(factor.size()) ? factor[k] : 1.0);
      },
      exact_units);
}

// The model's tolerance for event times in these comparisons: 1e4 x rtol, far above round-off
// and the solver's local errors, far below every model's time between events. States: 1e4 of
// the error test's scale.
double time_tolerance(const ModelRun& a) {
  return 1e4 * a.model->options.stepper.rtol;
}
constexpr double kStateTolerance = 1e4;

// Units chosen so that no product or quotient rounds differently (powers of two, even so that
// square roots stay exact): every run must take the same events; bit for bit where nothing
// compares across states of different units.
TEST(UnitRescaling, PowerOfTwoUnitsGiveTheSameEvents) {
  const UnitFactors f{std::ldexp(1.0, 10), std::ldexp(1.0, -6), std::ldexp(1.0, 4)};
  int compared = 0, identical = 0;
  double worst_time = 0.0, worst_state = 0.0;
  for (const ModelText& m : model_texts()) {
    SCOPED_TRACE(m.name);
    const RescaledModel rescaled = rescale_model_units(m.text, f);
    if (!rescaled.problems.empty()) {
      std::printf("unit rescaling: %s not convertible: %s\n", m.name.c_str(),
                  rescaled.problems.front().c_str());
      continue;
    }
    const Model model = load_model_text(m.text, m.name);
    const ModelRun a = run_text(m.text, fixed_start(model, 1.0));
    const ModelRun b = run_text(rescaled.text, fixed_start(model, f.time));
    if (kLiteralConstants.count(m.name) != 0) continue;
    ++compared;
    const saltus::testing::RunComparison c = compare(a, b, rescaled, f, true);
    EXPECT_EQ(c.first_difference, "");
    EXPECT_LE(c.worst_time, time_tolerance(a));
    EXPECT_LE(c.worst_state, kStateTolerance);
    identical += c.bit_identical;
    worst_time = std::max(worst_time, c.worst_time);
    worst_state = std::max(worst_state, c.worst_state);
    std::printf("unit rescaling: %s: %s (times %.2g, states %.2g)\n", m.name.c_str(),
                c.bit_identical ? "bit for bit" : "same events", c.worst_time, c.worst_state);
  }
  std::printf(
      "unit rescaling (powers of two): %d models, %d bit for bit; worst time %.2g, "
      "state %.2g\n",
      compared, identical, worst_time, worst_state);
  EXPECT_GE(compared, 19) << "the suite must cover the models of models/ written in units";
  // 18 of 19 on 2026-11-27 (docs/VALIDATION.md names the others and why): fewer means a new
  // comparison across units somewhere.
  EXPECT_GE(identical, 18);
}

// Random units of length, mass and time (factors 1e-3 to 1e3, seeded): the same events in the
// same order, times and states to the model's tolerance. With `automatic_start` each run takes
// HNW's starting step in its own units (the step differs, the answer may differ only within the
// tolerance), as a user who writes no h_initial gets.
void expect_same_events_in_random_units(unsigned seed, bool automatic_start) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> decades(-3.0, 3.0);
  int compared = 0;
  double worst_time = 0.0, worst_state = 0.0;
  for (const ModelText& m : model_texts()) {
    if (kLiteralConstants.count(m.name) != 0) continue;
    for (int k = 0; k < 3; ++k) {
      const UnitFactors f{std::pow(10.0, decades(rng)), std::pow(10.0, decades(rng)),
                          std::pow(10.0, decades(rng) / 3.0)};
      SCOPED_TRACE(m.name + " in units of 1/" + text(f.length) + " m, 1/" + text(f.mass) +
                   " kg, 1/" + text(f.time) + " s");
      const RescaledModel rescaled = rescale_model_units(m.text, f);
      if (!rescaled.problems.empty()) break;
      const Model model = load_model_text(m.text, m.name);
      const std::vector<std::string> none;
      const ModelRun a =
          run_text(m.text, horizon(m.name, 1.0, automatic_start ? none : fixed_start(model, 1.0)));
      const ModelRun b =
          run_text(rescaled.text,
                   horizon(m.name, f.time, automatic_start ? none : fixed_start(model, f.time)));
      ++compared;
      const saltus::testing::RunComparison c = compare(a, b, rescaled, f, false);
      EXPECT_EQ(c.first_difference, "");
      EXPECT_LE(c.worst_time, time_tolerance(a));
      EXPECT_LE(c.worst_state, kStateTolerance);
      worst_time = std::max(worst_time, c.worst_time);
      worst_state = std::max(worst_state, c.worst_state);
    }
  }
  std::printf("unit rescaling (random factors%s): %d runs; worst time %.2g, state %.2g\n",
              automatic_start ? ", automatic starting step" : "", compared, worst_time,
              worst_state);
  EXPECT_GE(compared, 57);
}

TEST(UnitRescaling, RandomUnitsGiveTheSameEvents) {
  expect_same_events_in_random_units(34, false);
}

TEST(UnitRescaling, RandomUnitsWithTheAutomaticStartingStepGiveTheSameEvents) {
  expect_same_events_in_random_units(35, true);
}

// The Frictional Bounce Model at mu = 0.55 (issue 32): every stick-to-slip transition is a
// Painleve point where the run takes the free motion among several (painleve-lift-off rows,
// bridge/bridged_run.hpp). The choice reads the contact-force problem's verdict and the touching
// band, both relative to the model's own scales: in power-of-two units the same run bit for bit,
// in random units the same events, lift-offs included, to the model's tolerance.
TEST(UnitRescaling, PainleveLiftOffsAreTakenInAnyUnits) {
  std::vector<Diagnostic> unreadable;
  std::string fbm = read_model_file_text(models_dir() / "frictional_bounce.toml", unreadable);
  const std::string from = "mu = { value = 0.49,";
  ASSERT_NE(fbm.find(from), std::string::npos);
  fbm.replace(fbm.find(from), from.size(), "mu = { value = 0.55,");
  const Model model = load_model_text(fbm, "frictional_bounce.toml");
  std::mt19937 rng(3207);
  std::uniform_real_distribution<double> decades(-3.0, 3.0);
  std::vector<UnitFactors> units = {{std::ldexp(1.0, 10), std::ldexp(1.0, -6), std::ldexp(1.0, 4)}};
  for (int k = 0; k < 3; ++k) {
    units.push_back({std::pow(10.0, decades(rng)), std::pow(10.0, decades(rng)),
                     std::pow(10.0, decades(rng) / 3.0)});
  }
  const ModelRun a = run_text(fbm, fixed_start(model, 1.0));
  ASSERT_EQ(a.result.termination(), Termination::EndTimeReached) << a.message();
  long lift_offs = 0;
  for (long i = 0; i < a.result.events.size(); ++i) {
    lift_offs += a.result.events[i].guard == bridge::kPainleveChoiceGuard;
  }
  ASSERT_GT(lift_offs, 20);
  for (size_t k = 0; k < units.size(); ++k) {
    const UnitFactors& f = units[k];
    SCOPED_TRACE("units of 1/" + text(f.length) + " m, 1/" + text(f.mass) + " kg, 1/" +
                 text(f.time) + " s");
    const RescaledModel rescaled = rescale_model_units(fbm, f);
    ASSERT_TRUE(rescaled.problems.empty()) << rescaled.problems.front();
    const ModelRun b = run_text(rescaled.text, fixed_start(model, f.time));
    const saltus::testing::RunComparison c = compare(a, b, rescaled, f, k == 0);
    EXPECT_EQ(c.first_difference, "");
    EXPECT_LE(c.worst_time, time_tolerance(a));
    EXPECT_LE(c.worst_state, kStateTolerance);
    if (k == 0) {
      EXPECT_TRUE(c.bit_identical);
    }
    std::printf("unit rescaling, FBM at mu = 0.55 (%ld lift-offs): %s (times %.2g, states %.2g)\n",
                lift_offs, c.bit_identical ? "bit for bit" : "same events", c.worst_time,
                c.worst_state);
  }
}

}  // namespace
}  // namespace saltus::model
