// Events that cannot be missed (issue 43): model files whose crossings hide between any samples
// of a step, each against its closed form, with every integrator (dopri5, dop853, radau5):
//   - a parabola peaking 1e-9 above a level (two crossings 2.9e-5 s apart in steps of ~1 s),
//     and one peaking 1e-9 below it (none),
//   - a guard sin(50 t) - 0.999 on a slow flow (796 crossings in 20 s),
//   - a guard on a slowly decaying state, in steps far longer than its window,
//   - a near-grazing forced impact oscillator (first impact where the stop is 1e-3 .. 1e-9 inside
//     the free orbit's amplitude, none where it is outside),
//   - a stroboscopic section over 10^6 periods: every instant recorded, at k T to round-off,
// and a guard without a finite enclosure, refused with the interval named.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::num;

const std::vector<std::string> kIntegrators = {"dopri5", "dop853", "radau5"};

ModelRun run_text(const std::string& text) {
  return run_model(std::make_shared<const Model>(load_model_text(text, "certified.toml")));
}

// The times of the events of guard or section `name`.
std::vector<double> times_of(const ModelRun& run, const std::string& name) {
  std::vector<double> t;
  const EventLog& log = run.result.events;
  for (long i = 0; i < log.size(); ++i) {
    const EventRecord& r = log[i];
    if (r.guard < 0) continue;
    const Mode& m = run.system.mode(r.mode_before);
    if (m.guards[static_cast<size_t>(r.guard)].name == name) t.push_back(r.t);
  }
  return t;
}

std::string solver(const std::string& integrator, double t_end, double rtol) {
  return "[solver]\nt_end = " + num(t_end) + "\nintegrator = \"" + integrator +
         "\"\nrtol = " + num(rtol) + "\natol = " + num(rtol * 1e-2) + "\n";
}

// y'' = -g from y = 0 at speed v: y = v t - g t^2 / 2 reaches L at t = (v -+ sqrt(v^2 - 2 g L)) /
// g.
std::string parabola(double level, double peak_above, const std::string& integrator) {
  const double g = 9.81, v = std::sqrt(2.0 * g * (level + peak_above));
  return "[parameters]\ng = " + num(g) + "\nL = " + num(level) +
         "\n[states]\ny = 0.0\nv = " + num(v) +
         "\n[modes.flight]\nflow = [\"y' = v\", \"v' = -g\"]\n"
         "[[sections]]\nname = \"level\"\nvalue = \"y - L\"\ndirection = \"either\"\n" +
         solver(integrator, 2.0 * v / g, 1e-10);
}

TEST(CertifiedEvents, AParabolaPeakingOneNanometreAboveALevelCrossesItTwice) {
  for (const std::string& integrator : kIntegrators) {
    const double g = 9.81, level = 1.0, above = 1e-9;
    const double v = std::sqrt(2.0 * g * (level + above));
    const double half_width = std::sqrt(2.0 * g * above) / g;  // 1.43e-5 s
    const ModelRun run = run_text(parabola(level, above, integrator));
    ASSERT_TRUE(run.succeeded()) << integrator << ": " << run.message();
    const std::vector<double> t = times_of(run, "level");
    ASSERT_EQ(t.size(), 2u) << integrator;
    // The root's condition: the height's round-off over the crossing slope g * half_width.
    const double tol = 1e3 * 2.2e-16 * level / (g * half_width);
    EXPECT_NEAR(t[0], v / g - half_width, tol) << integrator;
    EXPECT_NEAR(t[1], v / g + half_width, tol) << integrator;
    // The run took steps much longer than the excursion above the level.
    EXPECT_LT(run.result.summary.stepper.accepted_steps, 40) << integrator;
    EXPECT_TRUE(run.result.summary.sampled_guards.empty()) << integrator;
    EXPECT_EQ(run.result.summary.undecided_searches, 0) << integrator;
  }
}

TEST(CertifiedEvents, AParabolaPeakingOneNanometreBelowALevelDoesNotCrossIt) {
  for (const std::string& integrator : kIntegrators) {
    const ModelRun run = run_text(parabola(1.0, -1e-9, integrator));
    ASSERT_TRUE(run.succeeded()) << integrator << ": " << run.message();
    EXPECT_TRUE(times_of(run, "level").empty()) << integrator;
  }
}

// Seed 004's predictive step (h = -gamma p / pdot while a guard approaches) shrinks the steps
// geometrically towards a crossing it never reaches, and stalled at near-tangential approaches;
// with its floor (1/64 of the error-controlled step) it ends, with the same two crossings.
TEST(CertifiedEvents, ThePredictiveStepMakesProgressAtANearTangentialApproach) {
  for (const std::string& integrator : kIntegrators) {
    std::string text = parabola(1.0, 1e-9, integrator) + "predictive_step = true\n";
    const ModelRun run = run_text(text);
    ASSERT_TRUE(run.succeeded()) << integrator << ": " << run.message();
    EXPECT_EQ(times_of(run, "level").size(), 2u) << integrator;
    EXPECT_LT(run.result.summary.stepper.accepted_steps, 2000) << integrator;
  }
}

// sin(50 t) - 0.999 > 0 on windows of 1.8e-3 s around t = (pi/2 + 2 pi k) / 50; the state's own
// flow (x' = -0.01 x) lets the steps grow far beyond the windows.
TEST(CertifiedEvents, EveryWindowOfAFastTimeGuardIsFoundOnASlowFlow) {
  for (const std::string& integrator : kIntegrators) {
    const double t_end = 20.0;
    const ModelRun run = run_text(
        "[states]\nx = 1.0\n[modes.slow]\nflow = [\"x' = -0.01*x\"]\n"
        "[[sections]]\nname = \"window\"\nvalue = \"sin(50*t) - 0.999\"\ndirection = "
        "\"either\"\n" +
        solver(integrator, t_end, 1e-10));
    ASSERT_TRUE(run.succeeded()) << integrator << ": " << run.message();
    std::vector<double> expected;
    const double a = std::asin(0.999);
    for (int k = 0;; ++k) {
      const double up = (a + 2.0 * std::numbers::pi * k) / 50.0;
      const double down = (std::numbers::pi - a + 2.0 * std::numbers::pi * k) / 50.0;
      if (up > t_end) break;
      expected.push_back(up);
      if (down <= t_end) expected.push_back(down);
    }
    const std::vector<double> t = times_of(run, "window");
    ASSERT_EQ(t.size(), expected.size()) << integrator;
    double worst = 0.0;
    for (size_t i = 0; i < t.size(); ++i) worst = std::max(worst, std::abs(t[i] - expected[i]));
    // sin's slope at the crossings is 50 sqrt(1 - 0.999^2) = 2.2: times to the clock's round-off.
    EXPECT_LT(worst, 1e-12) << integrator;
  }
}

// x = exp(-0.01 t) passes the window |x - 0.5| < 3.2e-4 (1e-7 - (x - 0.5)^2 > 0) in 0.13 s, with
// steps of several seconds.
TEST(CertifiedEvents, ANarrowWindowOfASlowlyDecayingStateIsFound) {
  for (const std::string& integrator : kIntegrators) {
    const ModelRun run = run_text(
        "[states]\nx = 1.0\n[modes.decay]\nflow = [\"x' = -0.01*x\"]\n"
        "[[sections]]\nname = \"window\"\nvalue = \"1e-7 - (x - 0.5)^2\"\ndirection = "
        "\"either\"\n" +
        solver(integrator, 200.0, 1e-10));
    ASSERT_TRUE(run.succeeded()) << integrator << ": " << run.message();
    const std::vector<double> t = times_of(run, "window");
    ASSERT_EQ(t.size(), 2u) << integrator;
    const double w = std::sqrt(1e-7);
    // Accuracy: the global error (1e3 rtol) over the decay's relative slope 0.01 (x' / x).
    const double tol = 1e3 * 1e-10 / 0.01;
    EXPECT_NEAR(t[0], -100.0 * std::log(0.5 + w), tol) << integrator;
    EXPECT_NEAR(t[1], -100.0 * std::log(0.5 - w), tol) << integrator;
    EXPECT_LT(run.result.summary.stepper.accepted_steps, 200) << integrator;
  }
}

// x'' + x = cos(w t) from the free periodic orbit x = cos(w t) / (1 - w^2) (amplitude
// 1 / (w^2 - 1) = 0.1905 at w = 2.5, reached at w t = pi): a stop at sigma = amplitude - delta is
// reached first where cos(w t) = -sigma / amplitude.
TEST(CertifiedEvents, ANearGrazingImpactOscillatorFindsItsFirstImpact) {
  const double w = 2.5, amplitude = 1.0 / (w * w - 1.0);
  for (const std::string& integrator : kIntegrators) {
    for (const double delta : {1e-3, 1e-6, 1e-9, -1e-9}) {
      const double sigma = amplitude - delta;
      const ModelRun run =
          run_text("[parameters]\nw = 2.5\ne = 0.8\nsigma = " + num(sigma) +
                   "\n[states]\nx = " + num(-amplitude) +
                   "\nv = 0.0\n[modes.free]\nflow = [\"x' = v\", \"v' = -x + cos(w*t)\"]\n"
                   "[[modes.free.guards]]\nname = \"stop\"\nvalue = \"x - sigma\"\ndirection = "
                   "\"rising\"\nreset = [\"v = -e*v\"]\nterminal = true\n" +
                   solver(integrator, 2.0, 1e-12));
      ASSERT_TRUE(run.succeeded()) << integrator << " delta " << delta << ": " << run.message();
      const std::vector<double> t = times_of(run, "stop");
      if (delta < 0.0) {
        EXPECT_TRUE(t.empty()) << integrator << " delta " << delta;
        continue;
      }
      ASSERT_EQ(t.size(), 1u) << integrator << " delta " << delta;
      const double expected = (std::numbers::pi - std::acos(sigma / amplitude)) / w;
      // The state's error (rtol x amplitude, times the steps) over the crossing slope.
      const double slope = w * std::sqrt(2.0 * delta * amplitude);
      EXPECT_NEAR(t[0], expected, 1e3 * 1e-12 * amplitude / slope)
          << integrator << " delta " << delta;
    }
  }
}

// A stroboscopic section of period 1 over 10^6 periods: every instant k, at k to round-off (the
// instants are scheduled from their index, not searched or summed).
TEST(CertifiedEvents, AStroboscopicSectionRecordsEveryInstantOverAMillionPeriods) {
  const long periods = 1000000;
  const ModelRun run = run_text(
      "[states]\nx = 1.0\n[modes.decay]\nflow = [\"x' = -1e-7*x\"]\n"
      "[[sections]]\nname = \"clock\"\nperiod = 1.0\n"
      "[solver]\nt_end = " +
      num(static_cast<double>(periods)) + "\nmax_events = 2000000\n");
  ASSERT_TRUE(run.succeeded()) << run.message();
  const std::vector<double> t = times_of(run, "clock");
  ASSERT_EQ(static_cast<long>(t.size()), periods + 1);
  long exact = 0;
  for (long k = 0; k <= periods; ++k) {
    ASSERT_NEAR(t[static_cast<size_t>(k)], static_cast<double>(k), 1e-16 * std::max(1.0, 1.0 * k));
    exact += t[static_cast<size_t>(k)] == static_cast<double>(k) ? 1 : 0;
  }
  EXPECT_EQ(exact, periods + 1);
}

TEST(CertifiedEvents, AGuardThatIsNotFiniteBetweenSamplesStopsTheRunNamingIt) {
  // sqrt(|x - 0.5| - 1e-6) is NaN for 2e-6 s around t = 0.5, between any two samples of the
  // run's long steps (x' = 1): the run may not say "no crossing" there.
  const ModelRun run = run_text(
      "[states]\nx = 0.0\n[modes.m]\nflow = [\"x' = 1\"]\n"
      "[[modes.m.guards]]\nname = \"root\"\nvalue = \"sqrt(abs(x - 0.5) - 1e-6) - 5\"\n"
      "direction = \"rising\"\nreset = [\"x = 0\"]\n[solver]\nt_end = 2.0\n");
  ASSERT_FALSE(run.succeeded());
  EXPECT_EQ(run.result.summary.termination, Termination::NonFiniteState);
  EXPECT_NE(run.message().find("guard 'root'"), std::string::npos) << run.message();
  EXPECT_NE(run.message().find("no finite enclosure"), std::string::npos) << run.message();
}

}  // namespace
}  // namespace saltus::model
