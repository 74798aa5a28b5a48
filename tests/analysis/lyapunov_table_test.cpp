// Lyapunov spectra with events (analysis/lyapunov.hpp): Holmes' ball on a vibrating table
// (models/vibrating_table.toml) in a chaotic regime against Benettin's two-trajectory estimate of
// the same trajectory and against its exact phase-volume contraction; random tables; the relay
// feedback cycle (models/relay_feedback.toml) against its closed-form Floquet multipliers.
//
// The table's impact (P = A sin(w t) - y, DR = diag(1, -e), P_t + P_x f- = u the approach speed,
// u+ = -e u-) has det S = det DR (1 + P_x DR^-1 (f+ - DR f- - DR_t) / u-) = (-e)(-e) = e^2, and
// the flight (y' = v, v' = -g) keeps volume: the exponents sum to 2 log(e) N / T for N impacts.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "relay_feedback_cycle.hpp"
#include "saltus/analysis/lyapunov.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::analysis {
namespace {

using saltus::testing::num;

struct Loaded {
  model::ModelRun run;
  model::ModelStart start;
};

Loaded load(const std::string& file, const std::vector<std::string>& set) {
  Loaded l;
  l.start = model::prepare_model_run(std::make_shared<const model::Model>(model::load_model_file(
                                         saltus::testing::models_dir() / file, set)),
                                     l.run);
  return l;
}

LyapunovSpectrum spectrum(const Loaded& l, double t0, double t_end, double window,
                          double transient = 0.0, int max_events = 8) {
  LyapunovOptions o;
  o.window = window;
  o.transient = transient;
  o.max_events_per_window = max_events;
  return lyapunov_spectrum(l.run.system, l.start.mode, t0, l.start.x0, t_end, l.run.model->options,
                           o);
}

// Benettin's two-trajectory estimate of the largest exponent on the windows of `s` (no transient):
// from each window's start (x0, then the checkpoints), a plain run and one from x + d0 u, u the
// normalised separation at the end of the window before (e_1 first, as Q's first column).
double two_trajectory_exponent(const Loaded& l, double t0, const LyapunovSpectrum& s, double d0) {
  SimulationOptions o = l.run.model->options;
  o.output.sample_times.clear();
  o.output.record_events = false;
  Vector x = l.start.x0, u = Vector::Unit(x.size(), 0);
  ModeId m = l.start.mode;
  double t = t0, sum = 0.0;
  for (const LyapunovCheckpoint& c : s.checkpoints) {
    const SimulationResult a = simulate(l.run.system, m, t, x, c.t, o);
    const SimulationResult b = simulate(l.run.system, m, t, x + d0 * u, c.t, o);
    EXPECT_TRUE(a.summary.ok() && b.summary.ok()) << a.summary.message << b.summary.message;
    const Vector d = b.x_final - a.x_final;
    sum += std::log(d.norm() / d0);
    u = d / d.norm();
    t = c.t;
    x = c.x;
    m = c.mode;
  }
  return sum / (t - t0);
}

const std::vector<std::string> kChaoticTable = {"A=0.8", "e=0.85"};  // y0 = 1, v0 = 0

TEST(LyapunovTable, ChaoticTableAgreesWithTwoNearbyTrajectories) {
  const Loaded table = load("vibrating_table.toml", kChaoticTable);
  const LyapunovSpectrum s = spectrum(table, 0.0, 300.0, 0.5);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_GT(s.exponents(0), 0.2);  // chaotic: measured 0.48 over these 300 s
  const double fd = two_trajectory_exponent(table, 0.0, s, 1e-8);
  EXPECT_NEAR(fd, s.exponents(0), 1e-2 * std::abs(s.exponents(0)));  // two digits
  // The sum against the exact contraction, from the engine's det S and from e^2 per impact.
  const double span = 300.0, e = 0.85;
  EXPECT_GT(s.events, 50);
  EXPECT_NEAR(s.exponents.sum(), s.impact_log_volume / span, 1e-8);
  EXPECT_NEAR(s.impact_log_volume, 2.0 * std::log(e) * static_cast<double>(s.events), 1e-10);
}

TEST(LyapunovTable, TransientAndCutWindowsKeepTheSpectrum) {
  // A transient keeps the volume identity; windows cut at K = 1 event give the exponents of
  // uncut ones over a span short enough that the restarts' rounding is not yet amplified.
  const Loaded table = load("vibrating_table.toml", kChaoticTable);
  const LyapunovSpectrum s = spectrum(table, 0.0, 250.0, 0.5, 50.0);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_NEAR(s.exponents.sum(), 2.0 * std::log(0.85) * static_cast<double>(s.events) / 200.0,
              1e-8);
  EXPECT_EQ(s.checkpoints.size(), 400u);
  EXPECT_EQ(s.checkpoints.front().t, 50.5);
  const LyapunovSpectrum wide = spectrum(table, 0.0, 20.0, 5.0);
  const LyapunovSpectrum cut = spectrum(table, 0.0, 20.0, 5.0, 0.0, 1);
  ASSERT_TRUE(wide.ok() && cut.ok()) << wide.message << cut.message;
  EXPECT_EQ(wide.cut_windows, 0);
  EXPECT_GT(cut.cut_windows, 0);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(cut.exponents(i), wide.exponents(i), 1e-6);
}

// Seeded random bouncing tables (A in [0.8, 2], e in [0.75, 0.9], y0 - A in [0.2, 1.5]): every
// run ends either with the volume identity or with a status and a message (a chattering table's
// Zeno point, a grazing impact), never with numbers.
TEST(LyapunovTable, RandomTablesSumToTheirImpactContraction) {
  std::mt19937_64 rng(46);
  std::uniform_real_distribution<double> amp(0.8, 2.0), rest(0.75, 0.9), lift(0.2, 1.5);
  int with_exponents = 0;
  for (int trial = 0; trial < 8; ++trial) {
    const double a = amp(rng), e = rest(rng), y0 = lift(rng);
    const Loaded table =
        load("vibrating_table.toml", {"A=" + num(a), "e=" + num(e), "y0=" + num(a + y0), "v0=0"});
    const LyapunovSpectrum s = spectrum(table, 0.0, 60.0, 0.5);
    if (!s.ok()) {
      EXPECT_TRUE(s.status == LyapunovStatus::ZenoPoint || s.status == LyapunovStatus::Grazing)
          << to_string(s.status) << ": " << s.message;
      EXPECT_EQ(s.exponents.size(), 0);
      EXPECT_NE(s.message.find("'impact'"), std::string::npos) << s.message;
      continue;
    }
    ++with_exponents;
    const double volume = 2.0 * std::log(e) * static_cast<double>(s.events) / 60.0;
    EXPECT_NEAR(s.exponents.sum(), volume, 1e-8) << "A = " << a << ", e = " << e;
    EXPECT_GE(s.exponents(0), s.exponents(1));
  }
  EXPECT_GE(with_exponents, 3);
}

TEST(LyapunovTable, RelayFeedbackCycleHasItsFloquetExponentsAndZeroAlongTheFlow) {
  // Averaged over whole periods after the transient (20 periods: the start's distance to the
  // cycle e^{-0.52 t}), window P/8: each period's product of R diagonals is the monodromy's
  // multipliers, |mu_1| = 1 along the flow. x' = A x + b u has tr A = -3 and the crossings det S
  // = 1 (e3^T f is the same on both sides): the sum is -3.
  const saltus::testing::RelayCycle cycle = saltus::testing::relay_cycle();
  const double period = 2.0 * cycle.half_period;
  const Loaded relay = load("relay_feedback.toml", {});
  const double tol = 1e4 * relay.run.model->options.stepper.rtol;
  const LyapunovSpectrum s = spectrum(relay, 0.0, 60.0 * period, period / 8.0, 20.0 * period);
  ASSERT_TRUE(s.ok()) << s.message;
  ASSERT_EQ(s.exponents.size(), 3);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(s.exponents(i), cycle.exponents[i], tol) << i;
  EXPECT_NEAR(s.exponents.sum(), -3.0, tol);
  EXPECT_EQ(s.events, 80);  // two crossings per period
  // The same from t0 = 1e6 (an autonomous flow: the clock counts from the start).
  const LyapunovSpectrum later =
      spectrum(relay, 1e6, 1e6 + 60.0 * period, period / 8.0, 20.0 * period);
  ASSERT_TRUE(later.ok()) << later.message;
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(later.exponents(i), s.exponents(i), tol) << i;
  // Over a span that is no whole number of periods the flow direction's exponent is
  // log(|f(end)| / |f(start)|) / T: within a few / T of 0.
  const LyapunovSpectrum any = spectrum(relay, 0.0, 240.0, 0.5, 40.0);
  ASSERT_TRUE(any.ok()) << any.message;
  EXPECT_LT(std::abs(any.exponents(0)), 2.0 / 200.0);
  EXPECT_NEAR(any.exponents.sum(), -3.0, tol);
}

}  // namespace
}  // namespace saltus::analysis
