// Static and kinetic friction on a rigid contact (`mu_s`, `mu`) and a Stribeck curve
// (`stribeck`, an expression of the slip speed) in model files: the belt-driven stick-slip
// oscillator of models/belt_stick_slip.toml against its closed form (slip onset, stick, the
// slip's extremes, period), with mu_s = mu_k against the same oscillator written with sign()
// (models/dry_friction_sign.toml, a Filippov system), at seeded random parameters with the
// friction force in the cone at every sample, in millimetres, and with a Stribeck curve against
// the same oscillator written as explicit stick and slip modes; bad input refused at its line.
//
// Closed form (m x'' + k x = friction, x = u + vb t): stuck from x = 0, the block rides the belt
// until k x = mu_s m g (t1 = x_s / vb), slips on x = c + A cos(w t + phi) about c = mu_k m g / k
// with A = hypot(delta, vb / w), delta = (mu_s - mu_k) m g / k, for (pi + 2 atan(vb/(w delta)))/w,
// sticks at x = c - delta for 2 delta / vb, and repeats. Tolerances: 1e-9 s and 1e-9 m at the
// file's rtol = atol = 1e-12 (event times and extremes are transversal; the grazing return of
// mu_s = mu_k is not, and is checked through the extremes that follow it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/run/contact_force_columns.hpp"
#include "saltus/sim/csv_writer.hpp"
#include "support/metamorphic.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::expect_load_refused;
using saltus::testing::models_dir;
using saltus::testing::num;

constexpr double kPi = 3.14159265358979323846;

// models/belt_stick_slip.toml as text, for variants of its contact.
std::string belt_file() {
  std::ifstream in(models_dir() / "belt_stick_slip.toml");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Belt {
  double m = 1.0, k = 4.0, g = 9.81, vb = 0.5, mu_k = 0.25, mu_s = 0.4;
  std::vector<std::string> sets() const {
    return {"m=" + num(m),   "k=" + num(k),       "g=" + num(g),
            "vb=" + num(vb), "mu_k=" + num(mu_k), "mu_s=" + num(mu_s)};
  }
};

struct Cycle {
  double first_slip, slip, stick, centre, amplitude;
  double period() const { return slip + stick; }
};

Cycle closed_form(const Belt& b) {
  const double w = std::sqrt(b.k / b.m), x_s = b.mu_s * b.m * b.g / b.k;
  const double c = b.mu_k * b.m * b.g / b.k, delta = x_s - c;
  const double slip = delta > 0.0 ? (kPi + 2.0 * std::atan(b.vb / (w * delta))) / w : 2.0 * kPi / w;
  return {x_s / b.vb, slip, 2.0 * delta / b.vb, c, std::hypot(delta, b.vb / w)};
}

struct Event {
  std::string name;
  double t, x;  // x = u + vb t, the block's position in the ground frame
};

std::vector<Event> events(const ModelRun& r, double vb) {
  std::vector<Event> out;
  for (long i = 0; i < r.result.events.size(); ++i) {
    const double t = r.result.events[i].t;
    out.push_back({event_guard_name(r.system, r.result.events[i]), t,
                   r.result.events.x_before(i)[0] + vb * t});
  }
  return out;
}

// Every event of a belt run against the closed form: slip-:belt at t1 + n T, stick:belt at
// t1 + slip + n T (x = c - delta there), `turn` at the slip's extremes c +- A.
void expect_closed_form_cycle(const ModelRun& r, const Belt& b, double tol, const std::string& at) {
  ASSERT_TRUE(r.succeeded()) << at << ": " << r.result.summary.message;
  const Cycle cf = closed_form(b);
  int slips = 0, sticks = 0, turns = 0;
  for (const Event& e : events(r, b.vb)) {
    if (e.name == "slip-:belt") {
      EXPECT_NEAR(e.t, cf.first_slip + slips * cf.period(), tol) << at << " slip " << slips;
      ++slips;
    } else if (e.name == "stick:belt") {
      EXPECT_NEAR(e.t, cf.first_slip + cf.slip + sticks * cf.period(), tol) << at;
      EXPECT_NEAR(e.x, 2.0 * cf.centre - b.mu_s * b.m * b.g / b.k, tol) << at;
      ++sticks;
    } else if (e.name == "turn") {
      const double extreme = cf.centre + (turns % 2 == 0 ? cf.amplitude : -cf.amplitude);
      EXPECT_NEAR(e.x, extreme, tol) << at << " turn " << turns;
      ++turns;
    } else {
      ADD_FAILURE() << at << ": unexpected event " << e.name << " at t = " << e.t;
    }
  }
  const double t_end = r.result.summary.t_final;
  const int cycles = static_cast<int>(std::floor((t_end - cf.first_slip) / cf.period()));
  EXPECT_GE(slips, cycles) << at;
  EXPECT_GE(turns, 2 * cycles) << at;
}

TEST(StaticFrictionModel, TheBeltOscillatorFollowsItsClosedForm) {
  const Belt b;
  const ModelRun r = saltus::testing::run_file(models_dir() / "belt_stick_slip.toml", {});
  expect_closed_form_cycle(r, b, 1e-9, "file");
  EXPECT_EQ(r.system.mode(r.result.events[0].mode_before).name, "stick:belt");
  // Three full cycles in the file's 12 s.
  EXPECT_GE(static_cast<int>(events(r, b.vb).size()), 12);
}

// mu_s = mu_k: the slip circles about x_s and returns to the belt's speed tangentially at the
// stick region's edge, the grazing cycle of the Filippov system written with sign().
TEST(StaticFrictionModel, EqualCoefficientsGiveTheCycleOfTheSignModel) {
  Belt b;
  b.mu_s = b.mu_k;
  const ModelRun mech = saltus::testing::run_file(models_dir() / "belt_stick_slip.toml", b.sets());
  ASSERT_TRUE(mech.succeeded()) << mech.result.summary.message;
  // The slip circles about x_s = c and meets the belt's speed again tangentially at x = c, the
  // stick region's edge: a zero-length stick there, or none, is the same motion (its time is
  // ill-conditioned, ~sqrt of the stick guard's offset). The first slip and every turn are
  // transversal: t1 + pi/(2 w) + k pi/w at x = c +- vb/w.
  const Cycle cf = closed_form(b);
  const double w = std::sqrt(b.k / b.m);
  int turns = 0;
  for (const Event& e : events(mech, b.vb)) {
    if (e.name == "slip-:belt" && turns == 0) {
      EXPECT_NEAR(e.t, cf.first_slip, 1e-9);
    } else if (e.name == "slip-:belt" || e.name == "stick:belt") {
      EXPECT_NEAR(e.x, cf.centre, 1e-6) << e.name << " at t = " << e.t;
    } else if (e.name == "turn") {
      EXPECT_NEAR(e.t, cf.first_slip + (0.5 + turns) * kPi / w, 1e-8) << "turn " << turns;
      EXPECT_NEAR(e.x, cf.centre + (turns % 2 == 0 ? 1.0 : -1.0) * b.vb / w, 1e-9);
      ++turns;
    } else {
      ADD_FAILURE() << "unexpected event " << e.name << " at t = " << e.t;
    }
  }
  EXPECT_EQ(turns, static_cast<int>(std::floor((12.0 - cf.first_slip) * w / kPi - 0.5)) + 1);
  const ModelRun sign = saltus::testing::run_file(
      models_dir() / "dry_friction_sign.toml",
      {"F=" + num(b.mu_k * b.g), "vb=" + num(b.vb), "w=" + num(w), "x=0", "v=" + num(b.vb),
       "solver.t_end=12", "output.sample_interval=0.05"});
  ASSERT_TRUE(sign.succeeded()) << sign.result.summary.message;
  // The Filippov model starts sliding on v = vb and leaves it where the mechanical contact's
  // stick turns into a slip.
  double leave = kNaN;
  for (const Event& e : events(sign, 0.0)) {
    if (e.name.rfind("leave:", 0) == 0) {
      leave = e.t;
      break;
    }
  }
  EXPECT_NEAR(leave, cf.first_slip, 1e-9);
  // Both trajectories at the common samples: x = u + vb t against the sign model's x.
  const Trajectory& a = mech.result.trajectory;
  const Trajectory& s = sign.result.trajectory;
  ASSERT_EQ(a.size(), s.size());
  double worst = 0.0;
  for (long i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a.times()[i], s.times()[i]);
    worst = std::max(worst, std::abs(a.x(i)[0] + b.vb * a.times()[i] - s.x(i)[0]));
  }
  EXPECT_LT(worst, 1e-8);
}

// Seeded random belts: every event at its closed-form time and place, the normal force m g and
// the friction force in the static cone at every sample, on the kinetic edge while slipping.
TEST(StaticFrictionModel, RandomBeltsFollowTheClosedFormInsideTheCone) {
  std::mt19937 rng(20261129);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  for (int trial = 0; trial < 16; ++trial) {
    Belt b;
    b.m = 0.5 + 1.5 * U(rng);
    b.k = 1.0 + 9.0 * U(rng);
    b.vb = 0.1 + 0.9 * U(rng);
    b.mu_k = 0.1 + 0.4 * U(rng);
    b.mu_s = b.mu_k * (1.1 + 0.9 * U(rng));
    const Cycle cf = closed_form(b);
    const double t_end = cf.first_slip + 3.0 * cf.period() + 0.25 * cf.slip;
    std::vector<std::string> sets = b.sets();
    sets.push_back("solver.t_end=" + num(t_end));
    sets.push_back("output.sample_interval=" + num(cf.period() / 40.0));
    const ModelRun r = saltus::testing::run_file(models_dir() / "belt_stick_slip.toml", sets);
    const std::string at = "trial " + std::to_string(trial);
    expect_closed_form_cycle(r, b, 1e-9 * (1.0 + t_end), at);
    const run::ContactForceColumns f = run::contact_force_columns(r);
    ASSERT_EQ(f.names.size(), 2u) << at;
    const Trajectory& tr = r.result.trajectory;
    const double N = b.m * b.g;
    for (long i = 0; i < tr.size(); ++i) {
      const double lambda_N = f.values(i, 0), lambda_T = f.values(i, 1);
      EXPECT_NEAR(lambda_N, N, 1e-9 * N) << at;
      EXPECT_LE(std::abs(lambda_T), b.mu_s * N * (1.0 + 1e-9)) << at << " t " << tr.times()[i];
      if (std::abs(tr.x(i)[2]) > 1e-6 * b.vb) {  // slipping: u' != 0
        EXPECT_NEAR(std::abs(lambda_T), b.mu_k * N, 1e-9 * N) << at << " t " << tr.times()[i];
      }
    }
  }
}

// The same belt in millimetres gives the same events.
TEST(StaticFrictionModel, TheBeltInMillimetresGivesTheSameEvents) {
  const ModelRun m = saltus::testing::run_file(models_dir() / "belt_stick_slip.toml", {});
  const ModelRun mm = saltus::testing::run_file(models_dir() / "belt_stick_slip.toml",
                                                {"g=9810", "vb=500"});  // k x: kg/s^2 * mm
  ASSERT_TRUE(m.succeeded() && mm.succeeded());
  const std::vector<Event> a = events(m, 0.5), b = events(mm, 500.0);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_NEAR(a[i].t, b[i].t, 1e-9);
    EXPECT_NEAR(1e3 * a[i].x, b[i].x, 1e-6);
  }
}

// A Stribeck curve mu_k(v) = mu_k + (mu_s - mu_k) exp(-v / vs) against the same oscillator
// written as explicit stick and slip modes in [states] (no contact, no LCP: an independent path).
TEST(StaticFrictionModel, AStribeckCurveMatchesExplicitStickAndSlipModes) {
  const std::string curve = "mu_k + (mu_s - mu_k)*exp(-slip_speed/vs)";
  const std::string params = R"(
[parameters]
m = 1.0
k = 4.0
g = 9.81
vb = 0.5
mu_k = 0.25
mu_s = 0.4
vs = 0.1
)";
  std::string file = belt_file();
  const std::string key = "mu_s = \"mu_s\"\n";
  file.replace(file.find(key), key.size(), key + "stribeck = \"" + curve + "\"\n");
  file.replace(file.find("mu_s = 0.4\n"), 11, "mu_s = 0.4\nvs = 0.1\n");
  const ModelRun mech = saltus::testing::run_text(file, {});
  ASSERT_TRUE(mech.succeeded()) << mech.result.summary.message;

  const std::string modes = R"([model]
name = "belt_modes"
)" + params + R"(
[states]
x = { initial = 0.0 }
v = { initial = 0.5 }

[initial]
mode = "stick"

[modes.stick]
flow = ["x' = vb", "v' = 0"]

[[modes.stick.guards]]
name = "slip"
value = "k*x - mu_s*m*g"
target = "slip"

[modes.slip]
flow = ["x' = v", "v' = -k/m*x + (mu_k + (mu_s - mu_k)*exp(-(vb - v)/vs))*g"]

[[modes.slip.guards]]
name = "stick"
value = "v - vb"
target = "stick"
reset = ["v = vb"]

[solver]
t_end = 12.0
rtol = 1e-12
atol = 1e-12
)";
  const ModelRun ref = saltus::testing::run_text(modes, {});
  ASSERT_TRUE(ref.succeeded()) << ref.result.summary.message;
  std::vector<double> mech_slips, mech_sticks, ref_slips, ref_sticks;
  for (const Event& e : events(mech, 0.5)) {
    if (e.name == "slip-:belt") mech_slips.push_back(e.t);
    if (e.name == "stick:belt") mech_sticks.push_back(e.t);
  }
  for (const Event& e : events(ref, 0.0)) {
    if (e.name == "slip") ref_slips.push_back(e.t);
    if (e.name == "stick") ref_sticks.push_back(e.t);
  }
  ASSERT_GE(ref_slips.size(), 3u);
  ASSERT_EQ(mech_slips.size(), ref_slips.size());
  ASSERT_EQ(mech_sticks.size(), ref_sticks.size());
  for (size_t i = 0; i < ref_slips.size(); ++i) EXPECT_NEAR(mech_slips[i], ref_slips[i], 1e-8);
  for (size_t i = 0; i < ref_sticks.size(); ++i) EXPECT_NEAR(mech_sticks[i], ref_sticks[i], 1e-8);
  // The curve changes the cycle: slower slips than under mu_k alone.
  const Cycle kinetic = closed_form(Belt{});
  EXPECT_GT(std::abs(ref_sticks[0] - (kinetic.first_slip + kinetic.slip)), 1e-3);
}

TEST(StaticFrictionModel, BadFrictionInputIsRefusedAtItsLine) {
  const std::string file = belt_file();
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = file;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  expect_load_refused(with("mu_s = \"mu_s\"", "mu_s = 0.1"), "is below the kinetic mu = 0.25");
  expect_load_refused(with("mu_s = \"mu_s\"", "mu_s = \"mu_s\"\nstribeck = \"0.5\""),
                      "mu_k(0) = 0.5 is outside [0, mu_s = 0.4]");
  expect_load_refused(with("mu_s = \"mu_s\"", "mu_s = \"mu_s\"\nstribeck = \"mu_k + u\""),
                      "unknown");
  expect_load_refused(with("mu_s = \"mu_s\"", "mu_s = \"mu_s\"\nstribeck = \"mu_k + t\""),
                      "stribeck");
  expect_load_refused(with("e = 0.0\nmu = \"mu_k\"\nmu_s = \"mu_s\"", "e = 0.0"), "no mu");
  expect_load_refused(with("law = \"newton_coulomb\"\ne = 0.0\nmu = \"mu_k\"\nmu_s = \"mu_s\"",
                           "law = \"newton\"\ne = 0.0\nmu_s = 0.3"),
                      "does not read 'mu_s'");
  std::string hidden = with("mu_s = \"mu_s\"", "mu_s = \"mu_s\"\nstribeck = \"exp(-slip_speed)\"");
  hidden.replace(hidden.find("mu_k = 0.25"), 11, "mu_k = 0.25\nslip_speed = 1");
  expect_load_refused(hidden, "would hide the contact's slip speed");
}

// A Stribeck curve that turns negative at the run's slip speed stops the run with its value.
TEST(StaticFrictionModel, ANegativeStribeckCoefficientStopsTheRunNamingTheSpeed) {
  std::string file = belt_file();
  const std::string key = "mu_s = \"mu_s\"\n";
  file.replace(file.find(key), key.size(), key + "stribeck = \"mu_k - 10*slip_speed\"\n");
  const ModelRun r = saltus::testing::run_text(file, {});
  EXPECT_FALSE(r.succeeded());
  EXPECT_NE(r.result.summary.message.find("Stribeck curve mu_k("), std::string::npos)
      << r.result.summary.message;
  EXPECT_NE(r.result.summary.message.find("contact 'belt'"), std::string::npos)
      << r.result.summary.message;
}

}  // namespace
}  // namespace saltus::model
