// [outputs] of contact quantities and [outputs] at events (docs/MODEL_FORMAT.md "[outputs]",
// issue 47 item 3), against closed forms: a ball resting on the floor pushes with m g; a block
// sliding on a rough floor (tests/run/data/sliding_block.toml) has the friction force
// -mu m g sign(v) and a slip speed falling linearly to its stick time, then none; a bouncing
// ball keeps e^2 of its energy at every impact (events.csv's <output>_before and _after), as the
// wearing ball of models/bouncing_ball_wear.toml (a model of [states]) does with its own e; a
// sweep collects a contact output at several parameter values; units are checked and bad input
// is refused at its line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/contact_force_columns.hpp"
#include "saltus/run/output_columns.hpp"
#include "saltus/run/run_outputs.hpp"
#include "saltus/run/sweep.hpp"
#include "saltus/sim/csv_writer.hpp"
#include "support/model_files.hpp"

namespace saltus::run {
namespace {

using saltus::testing::expect_load_refused;
using saltus::testing::models_dir;
using saltus::testing::num;

std::filesystem::path block_file() {
  return std::filesystem::path(__FILE__).parent_path() / "data" / "sliding_block.toml";
}

std::string text_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

int line_of(const std::string& text, const std::string& what) {
  const size_t at = text.find(what);
  int line = 1;
  for (size_t i = 0; i < at && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

model::ModelRun run_text(const std::string& text, const std::vector<std::string>& set = {}) {
  return model::run_model(
      std::make_shared<const model::Model>(model::load_model_text(text, "test.toml", set)));
}

int column(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) ADD_FAILURE() << "no column " << name;
  return it == names.end() ? 0 : static_cast<int>(it - names.begin());
}

// A ball of mass m on a floor (models/ball.toml with units and a named contact).
std::string ball(double y0, double e) {
  return R"toml([parameters]
m = { value = 2.0, unit = "kg" }
g = { value = 9.81, unit = "m/s^2" }
[coordinates]
y = { initial = )toml" +
         num(y0) + R"toml(, unit = "m" }
[mechanics]
kinetic_energy = "0.5*m*y'^2"
potential_energy = "m*g*y"
[[contacts]]
name = "floor"
gap = "y"
e = )toml" +
         num(e) +
         R"toml(
[outputs]
push = { value = "normal_force(floor)", unit = "N" }
height = { value = "gap(floor)", unit = "m" }
closing = { value = "gap_rate(floor)", unit = "m/s" }
energy = { value = "0.5*m*y'^2 + m*g*y", unit = "J" }
[solver]
t_end = 1.0
rtol = 1e-12
)toml";
}

TEST(ContactOutputs, ABallRestingOnTheFloorPushesWithItsWeight) {
  const model::ModelRun r = run_text(ball(0.0, 0.8));
  ASSERT_TRUE(r.succeeded()) << r.message();
  const OutputColumns out = output_columns(r);
  const ContactForceColumns f = contact_force_columns(r);
  const Trajectory& tr = r.result.trajectory;
  ASSERT_GT(tr.size(), 100);
  const double weight = 2.0 * 9.81;
  double worst = 0.0;
  for (long i = 0; i < tr.size(); ++i) {
    EXPECT_EQ(r.system.mode(tr.mode(i)).name, "closed:floor");
    worst = std::max(worst, std::abs(out.values(i, 0) - weight) / weight);
    EXPECT_NEAR(out.values(i, 0), weight, 1e-14 * weight) << "t = " << tr.t(i);
    // The output is the force column, computed the same one way.
    EXPECT_EQ(out.values(i, 0), f.values(i, column(f.names, "lambda_N:floor")));
    EXPECT_EQ(out.values(i, 1), 0.0);
    EXPECT_EQ(out.values(i, 2), 0.0);
  }
  std::printf("resting ball: normal force against m g, worst %.2g relative\n", worst);
  const std::string csv = model_trajectory_csv(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "t,j,mode,y,y',lambda_N:floor,push,height,closing,energy");
}

TEST(ContactOutputs, ASlidingBlockHasCoulombFrictionUntilItSticks) {
  std::mt19937_64 rng(473);
  std::uniform_real_distribution<double> friction(0.1, 0.8), speed(0.5, 4.0);
  const double m = 2.0, g = 9.81;
  double worst_force = 0.0, worst_slip = 0.0, worst_stop = 0.0;
  for (int draw = 0; draw < 8; ++draw) {
    const double mu = friction(rng), v0 = (draw % 2 ? -1.0 : 1.0) * speed(rng);
    const double stop = std::abs(v0) / (mu * g), s = v0 > 0 ? 1.0 : -1.0;
    SCOPED_TRACE("mu = " + num(mu) + ", v0 = " + num(v0));
    const model::ModelRun r = run_text(
        text_of(block_file()), {"mu=" + num(mu), "v0=" + num(v0), "t_end=" + num(1.5 * stop)});
    ASSERT_TRUE(r.succeeded()) << r.message();
    const OutputColumns out = output_columns(r);
    const int normal = column(out.names, "normal"), tangent = column(out.names, "friction");
    const int slip = column(out.names, "slip"), rate = column(out.names, "sliding_velocity");
    const int height = column(out.names, "height"), closing = column(out.names, "closing");
    const int power = column(out.names, "friction_power");
    const Trajectory& tr = r.result.trajectory;
    int sliding = 0, stuck = 0;
    for (long i = 0; i < tr.size(); ++i) {
      const double t = tr.t(i);
      EXPECT_NEAR(out.values(i, normal), m * g, 1e-12 * m * g) << "t = " << t;
      EXPECT_EQ(out.values(i, height), 0.0);
      EXPECT_NEAR(out.values(i, closing), 0.0, 1e-12 * std::abs(v0));
      if (t < stop * (1 - 1e-6)) {
        ++sliding;
        const double v = v0 - s * mu * g * t;
        EXPECT_NEAR(out.values(i, tangent), -s * mu * m * g, 1e-12 * m * g) << "t = " << t;
        EXPECT_NEAR(out.values(i, slip), std::abs(v), 1e-12 * std::abs(v0)) << "t = " << t;
        EXPECT_NEAR(out.values(i, rate), v, 1e-12 * std::abs(v0)) << "t = " << t;
        EXPECT_NEAR(out.values(i, power), -mu * m * g * std::abs(v), 1e-12 * m * g * std::abs(v0));
        worst_force =
            std::max(worst_force, std::abs(out.values(i, tangent) + s * mu * m * g) / (mu * m * g));
        worst_slip =
            std::max(worst_slip, std::abs(out.values(i, slip) - std::abs(v)) / std::abs(v0));
      } else if (t > stop * (1 + 1e-6)) {
        ++stuck;
        EXPECT_NEAR(out.values(i, tangent), 0.0, 1e-12 * m * g) << "t = " << t;
        // Stuck, it keeps the speed it stuck at: the stick guard's level, 1e-12 of |v0|.
        EXPECT_NEAR(out.values(i, slip), 0.0, 2e-12 * std::abs(v0)) << "t = " << t;
      }
    }
    EXPECT_GT(sliding, 50);
    EXPECT_GT(stuck, 20);
    // The stick event: the friction force before it, none after; the slip speed 0 at it.
    const EventLog& log = r.result.events;
    ASSERT_EQ(log.size(), 1);
    EXPECT_EQ(event_guard_name(r.system, log[0]), "stick:floor");
    EXPECT_NEAR(log[0].t, stop, 1e-9 * stop);
    worst_stop = std::max(worst_stop, std::abs(log[0].t - stop) / stop);
    const OutputColumns at = event_output_columns(r);
    EXPECT_NEAR(at.values(0, column(at.names, "friction_before")), -s * mu * m * g, 1e-12 * m * g);
    EXPECT_NEAR(at.values(0, column(at.names, "friction_after")), 0.0, 1e-12 * m * g);
    EXPECT_NEAR(at.values(0, column(at.names, "slip_before")), 0.0, 2e-12 * std::abs(v0));
    EXPECT_NEAR(at.values(0, column(at.names, "normal_after")), m * g, 1e-12 * m * g);
  }
  std::printf(
      "sliding block, 8 draws: friction force %.2g of mu m g, slip speed %.2g of v0, stick time "
      "%.2g of its own\n",
      worst_force, worst_slip, worst_stop);
}

TEST(OutputsAtEvents, ABouncingBallKeepsESquaredOfItsEnergyAtEveryImpact) {
  std::mt19937_64 rng(4731);
  std::uniform_real_distribution<double> restitution(0.3, 0.9), height(0.2, 3.0);
  const double m = 2.0, g = 9.81;
  double worst_loss = 0.0, worst_ratio = 0.0, worst_energy = 0.0;
  for (int draw = 0; draw < 6; ++draw) {
    const double e = restitution(rng), h0 = height(rng);
    SCOPED_TRACE("e = " + num(e) + ", h0 = " + num(h0));
    const double t_inf = std::sqrt(2 * h0 / g) * (1 + e) / (1 - e);
    const model::ModelRun r = run_text(ball(h0, e), {"t_end=" + num(1.2 * t_inf)});
    ASSERT_TRUE(r.succeeded()) << r.message();
    const OutputColumns at = event_output_columns(r);
    ASSERT_EQ(at.names, (std::vector<std::string>{"push_before", "push_after", "height_before",
                                                  "height_after", "closing_before", "closing_after",
                                                  "energy_before", "energy_after"}));
    const EventLog& log = r.result.events;
    const double e0 = m * g * h0;  // the energy of the drop
    long impacts = 0;
    bool handed_over = false;
    for (long i = 0; i < log.size(); ++i) {
      const std::string guard = event_guard_name(r.system, log[i]);
      const double before = at.values(i, 6), after = at.values(i, 7);
      if (guard == "impact:floor") {
        // Energy before impact k: m g h0 e^(2(k-1)); after it e^2 of that (v+ = -e v-, y = 0).
        const double expected = e0 * std::pow(e, 2.0 * static_cast<double>(impacts++));
        if (expected < 1e-6 * e0) continue;  // near the Zeno point the impacts lose digits
        EXPECT_NEAR(before, expected, 1e-9 * e0) << "impact " << impacts;
        // The loss is (1 - e^2) of the kinetic energy at the event's state; the ratio is e^2
        // but for the potential energy m g y of the located state (y within the guard's band).
        const double v = log.x_before(i)[1], kinetic = 0.5 * m * v * v;
        EXPECT_NEAR(before - after, (1 - e * e) * kinetic, 1e-14 * before) << "impact " << impacts;
        EXPECT_NEAR(after, e * e * before, 1e-10 * before) << "impact " << impacts;
        worst_loss =
            std::max(worst_loss, std::abs(before - after - (1 - e * e) * kinetic) / before);
        worst_ratio = std::max(worst_ratio, std::abs(after - e * e * before) / before);
        worst_energy = std::max(worst_energy, std::abs(before - expected) / e0);
        EXPECT_EQ(at.values(i, 0), 0.0);  // free flight before and after: no contact force
        EXPECT_EQ(at.values(i, 1), 0.0);
        EXPECT_LT(at.values(i, 4), 0.0);  // approaching before, separating after
        EXPECT_NEAR(at.values(i, 5), -e * at.values(i, 4), 1e-12 * std::abs(at.values(i, 4)));
      } else if (guard == "zeno-handover") {
        handed_over = true;  // at rest on the floor after it: the weight, no energy
        EXPECT_EQ(r.system.mode(log[i].mode_after).name, "closed:floor");
        EXPECT_NEAR(at.values(i, 1), m * g, 1e-12 * m * g);
        EXPECT_NEAR(after, 0.0, 1e-9 * e0);
      }
    }
    EXPECT_GT(impacts, 10);
    EXPECT_TRUE(handed_over);
    // events.csv has the pairs after the states after the event, before the impulses.
    const std::string csv = model_events_csv(r);
    const std::string header = csv.substr(0, csv.find('\n'));
    EXPECT_NE(header.find("y_after,y'_after,push_before,push_after,height_before,height_after,"
                          "closing_before,closing_after,energy_before,energy_after,impulse"),
              std::string::npos)
        << header;
  }
  std::printf(
      "bouncing ball, 6 drops: energy lost against (1 - e^2) 1/2 m v^2, worst %.2g, energy "
      "after / before against e^2, worst %.2g, of the energy before; energy before impact k "
      "against m g h0 e^(2(k-1)), worst %.2g of m g h0\n",
      worst_loss, worst_ratio, worst_energy);
}

TEST(OutputsAtEvents, AModelOfStatesHasItsOutputsBeforeAndAfterEachEvent) {
  // models/bouncing_ball_wear.toml: the k-th impact uses e_k = e0 wear^(k-1), then wears it.
  const model::ModelRun r = model::run_model(std::make_shared<const model::Model>(
      model::load_model_file(models_dir() / "bouncing_ball_wear.toml")));
  const OutputColumns at = event_output_columns(r);
  ASSERT_EQ(at.names, (std::vector<std::string>{"energy_before", "energy_after", "worn_before",
                                                "worn_after"}));
  const EventLog& log = r.result.events;
  ASSERT_EQ(log.size(), 5);
  const double e0 = 0.9, wear = 0.99;
  for (long k = 0; k < 5; ++k) {
    const double ek = e0 * std::pow(wear, static_cast<double>(k));
    EXPECT_NEAR(at.values(k, 1), ek * ek * at.values(k, 0), 1e-12 * at.values(k, 0));
    EXPECT_NEAR(at.values(k, 2), 1 - std::pow(wear, static_cast<double>(k)), 1e-15);
    EXPECT_NEAR(at.values(k, 3), 1 - std::pow(wear, static_cast<double>(k + 1)), 1e-15);
  }
  const std::string csv = model_events_csv(r);
  EXPECT_NE(csv.substr(0, csv.find('\n'))
                .find("e_now_after,energy_before,energy_after,worn_before,worn_after"),
            std::string::npos)
      << csv.substr(0, csv.find('\n'));
}

TEST(ContactOutputs, ASweepCollectsThemAsTheirClosedForms) {
  const double m = 2.0, g = 9.81, v0 = 2.0;
  double worst_force = 0.0, worst_slip = 0.0;
  // Over mu, sliding at t_end = 0.3 s (it sticks after 0.41 s at mu = 0.5).
  SweepSpec spec;
  spec.model_file = block_file();
  spec.axes.push_back(parse_sweep_axis("mu=0.1:0.5:5"));
  spec.collect = {"final.friction", "final.slip", "final.normal"};
  spec.overrides = {"t_end=0.3"};
  const SweepResult a = run_sweep(spec, 2);
  ASSERT_EQ(a.points.size(), 5u);
  for (const SweepPoint& p : a.points) {
    const double mu = p.values[0];
    ASSERT_TRUE(p.succeeded) << mu << ": " << p.message;
    EXPECT_NEAR(p.collected[0], -mu * m * g, 1e-12 * m * g) << mu;
    EXPECT_NEAR(p.collected[1], v0 - mu * g * 0.3, 1e-12 * v0) << mu;
    EXPECT_NEAR(p.collected[2], m * g, 1e-12 * m * g) << mu;
    worst_force = std::max(worst_force, std::abs(p.collected[0] + mu * m * g) / (m * g));
    worst_slip = std::max(worst_slip, std::abs(p.collected[1] - (v0 - mu * g * 0.3)) / v0);
  }
  // Over v0 at mu = 0.3 and t_end = 0.5 s: the slower blocks have stuck by then (their last
  // mode's friction is 0), the faster still slide.
  spec.axes = {parse_sweep_axis("v0=0.5:3:6")};
  spec.overrides = {"t_end=0.5"};
  const SweepResult b = run_sweep(spec, 2);
  ASSERT_EQ(b.points.size(), 6u);
  int stuck = 0;
  for (const SweepPoint& p : b.points) {
    const double v = p.values[0], left = v - 0.3 * g * 0.5;
    ASSERT_TRUE(p.succeeded) << v << ": " << p.message;
    stuck += left < 0;
    EXPECT_NEAR(p.collected[0], left > 0 ? -0.3 * m * g : 0.0, 1e-12 * m * g) << v;
    EXPECT_NEAR(p.collected[1], std::max(left, 0.0), 2e-12 * v) << v;  // stuck: <= 1e-12 v
    worst_force =
        std::max(worst_force, std::abs(p.collected[0] - (left > 0 ? -0.3 * m * g : 0.0)) / (m * g));
    worst_slip = std::max(worst_slip, std::abs(p.collected[1] - std::max(left, 0.0)) / v);
  }
  EXPECT_EQ(stuck, 2);
  std::printf("sweeps of the sliding block: final friction %.2g of m g, final slip %.2g of v0\n",
              worst_force, worst_slip);
}

TEST(ContactOutputs, TheirUnitsAreChecked) {
  const std::string block = text_of(block_file());
  (void)model::load_model_text(block, "block.toml");  // every unit of the file agrees
  expect_load_refused(
      replaced(block, "value = \"normal_force(floor)\", unit = \"N\"",
               "value = \"normal_force(floor)\", unit = \"m\""),
      "output 'normal': 'normal_force(floor)': its value has dimension m kg s^-2, its unit 'm' m");
  expect_load_refused(replaced(block, "value = \"slip_speed(floor)\", unit = \"m/s\"",
                               "value = \"slip_speed(floor)\", unit = \"m\""),
                      "its value has dimension m s^-1, its unit 'm' m");
  expect_load_refused(
      replaced(block, "\"gap(floor)\", unit = \"m\"", "\"gap(floor) + t\", unit = \"m\""),
      "a sum of gap(floor) (m) and t (s)");
}

TEST(ContactOutputs, BadInputIsRefusedAtItsLineNamingTheOutputAndTheContact) {
  const std::string block = text_of(block_file());
  const std::string wall = replaced(block, "\"tangent_force(floor)\"", "\"tangent_force(wall)\"");
  expect_load_refused(wall, "bad.toml:" + std::to_string(line_of(wall, "friction =")) + ":");
  expect_load_refused(wall,
                      "output 'friction': unknown contact 'wall' in tangent_force(wall); "
                      "expected one of: floor");
  // A tangential quantity of a contact without a tangent.
  const std::string frictionless =
      replaced(ball(1.0, 0.8), "\"gap(floor)\"", "\"slip_speed(floor)\"");
  expect_load_refused(frictionless,
                      "output 'height': slip_speed(floor): contact 'floor' has no "
                      "tangent (no friction)");
  // Not a contact's name; more than one argument.
  expect_load_refused(replaced(block, "\"gap(floor)\"", "\"gap(1)\""),
                      "unexpected '1' in the argument of 'gap'; expected the name of a contact, "
                      "e.g. gap(floor)");
  expect_load_refused(replaced(block, "\"gap(floor)\"", "\"gap(floor, x)\""),
                      "expected ')' after the name of a contact");
  // A model of [states] has no contacts; nor has a mechanical model without [[contacts]].
  const std::string wear = text_of(models_dir() / "bouncing_ball_wear.toml");
  expect_load_refused(replaced(wear, "worn = \"1 - e_now/e0\"", "worn = \"normal_force(floor)\""),
                      "output 'worn': normal_force(floor): contact quantities are read in a "
                      "mechanical model with [[contacts]] ([coordinates], [mechanics]); this model "
                      "has [states]");
  const std::string none = R"toml([coordinates]
y = 1.0
[mechanics]
kinetic_energy = "0.5*y'^2"
potential_energy = "9.81*y"
[outputs]
push = "normal_force(floor)"
)toml";
  expect_load_refused(none, "bad.toml:7:");
  expect_load_refused(none,
                      "output 'push': normal_force(floor): contact quantities are read in "
                      "a mechanical model with [[contacts]] and this one has none");
  // Contact quantities belong to [outputs]: elsewhere they are unknown functions.
  expect_load_refused(
      replaced(block, "potential_energy = \"m*g*y\"",
               "potential_energy = \"m*g*y\"\nforces = { x = \"-normal_force(floor)\" }"),
      "unknown function 'normal_force'");
  // The walls of a model with velocity constraints: gaps, not forces.
  const std::string sleigh =
      text_of(models_dir() / "chaplygin_sleigh.toml") +
      "\n[outputs]\nclearance = \"gap(front)\"\nimpulse = \"normal_force(front)\"\n";
  expect_load_refused(sleigh,
                      "output 'impulse': normal_force(front): contact 'front' is a wall of "
                      "a model with velocity constraints");
}

}  // namespace
}  // namespace saltus::run
