// Discrete variables ([discrete]), a guard's terminate / terminate_after and [outputs]
// (docs/MODEL_FORMAT.md, issue 47 items 2 and 3): models/bouncing_ball_wear.toml counts its
// bounces, wears its restitution 1 % per bounce and stops after the fifth, against its closed form
// for seeded random drops, in metres and seconds and in millimetres and milliseconds; discrete
// variables are the states of rate 0 written out (the same run, bit for bit); bad input is refused
// at its line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/output_columns.hpp"
#include "saltus/run/run_outputs.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::expect_load_refused;
using saltus::testing::models_dir;
using saltus::testing::num;

// The wearing ball in closed form: it reaches the floor at t_1 = sqrt(2 h0/g) with speed s_1 =
// g t_1, rebounds at u_k = e0 wear^(k-1) s_k, and lands again 2 u_k/g later with s_(k+1) = u_k.
struct Bounces {
  std::vector<double> t;  // impact times
  std::vector<double> u;  // rebound speeds
};

Bounces closed_form(double g, double h0, double e0, double wear, int count) {
  Bounces b;
  double t = std::sqrt(2.0 * h0 / g), s = g * t, e = e0;
  for (int k = 0; k < count; ++k) {
    b.t.push_back(t);
    const double u = e * s;
    b.u.push_back(u);
    e *= wear;
    t += 2.0 * u / g;
    s = u;
  }
  return b;
}

ModelRun run_file(const std::vector<std::string>& set) {
  return run_model(std::make_shared<const Model>(
      load_model_file(models_dir() / "bouncing_ball_wear.toml", set)));
}

ModelRun run_text(const std::string& text) {
  return run_model(std::make_shared<const Model>(load_model_text(text, "ball.toml")));
}

std::string file_text() {
  std::ifstream in(models_dir() / "bouncing_ball_wear.toml");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(DiscreteVariables, AWearingBallStopsAtItsFifthBounceAsItsClosedForm) {
  std::mt19937_64 rng(47);
  std::uniform_real_distribution<double> height(0.05, 20.0), restitution(0.3, 0.97),
      gravity(1.0, 25.0);
  const double wear = 0.99;
  double worst_time = 0.0, worst_energy = 0.0;  // relative to T and to 1/2 (g T)^2
  for (int draw = 0; draw < 12; ++draw) {
    const double h0 = height(rng), e0 = restitution(rng), g = gravity(rng);
    const Bounces b = closed_form(g, h0, e0, wear, 5);
    const double T = std::sqrt(2.0 * h0 / g), speed = g * T;  // scales of time and speed
    // The same drop in metres and seconds, and in millimetres and milliseconds.
    for (const double mm : {1.0, 1e3}) {
      SCOPED_TRACE("draw " + std::to_string(draw) + (mm > 1 ? " in mm and ms" : " in m and s"));
      const ModelRun r =
          run_file({"g=" + num(g * mm / (mm * mm)), "h0=" + num(h0 * mm), "e0=" + num(e0),
                    "t_end=" + num(1.2 * b.t.back() * mm), "output.samples=401"});
      ASSERT_EQ(r.result.termination(), Termination::TerminalEvent) << r.message();
      EXPECT_NE(r.message().find("terminated by guard 'impact' of mode 'flight'"),
                std::string::npos)
          << r.message();
      EXPECT_NE(r.message().find("(its 5th event, j = 5): terminate = 'n >= 5' holds after its "
                                 "reset"),
                std::string::npos)
          << r.message();
      const EventLog& ev = r.result.events;
      ASSERT_EQ(ev.size(), 5);
      for (long k = 0; k < 5; ++k) {
        EXPECT_NEAR(ev[k].t / mm, b.t[static_cast<size_t>(k)], 1e-10 * T) << "bounce " << k + 1;
        worst_time = std::max(worst_time, std::abs(ev[k].t / mm - b.t[static_cast<size_t>(k)]) / T);
        // mm/ms is m/s: speeds (and the energy per unit mass below) keep their values.
        EXPECT_NEAR(ev.x_after(k)[1], b.u[static_cast<size_t>(k)], 1e-10 * speed);
        EXPECT_EQ(ev.x_after(k)[2], static_cast<double>(k + 1));  // n
        EXPECT_NEAR(ev.x_after(k)[3], e0 * std::pow(wear, static_cast<double>(k + 1)), 1e-15);
      }
      // It stopped at the fifth bounce, its state the one after the reset.
      EXPECT_EQ(r.result.summary.t_final, ev[4].t);
      EXPECT_EQ(r.result.x_final[2], 5.0);
      EXPECT_NEAR(r.result.x_final[1], b.u[4], 1e-10 * speed);
      // [outputs] energy: 1/2 m u_k^2 throughout flight k (m = 1), 1/2 m s_1^2 before the first.
      const run::OutputColumns out = run::output_columns(r);
      ASSERT_EQ(out.names, (std::vector<std::string>{"energy", "worn"}));
      const Trajectory& tr = r.result.trajectory;
      ASSERT_GT(tr.size(), 100);
      for (long i = 0; i < tr.size(); ++i) {
        const auto k = static_cast<size_t>(tr.j(i));  // bounces so far (times checked above)
        const double u = k == 0 ? speed : b.u[k - 1];
        EXPECT_NEAR(out.values(i, 0), 0.5 * u * u, 1e-9 * 0.5 * speed * speed) << "t = " << tr.t(i);
        worst_energy = std::max(worst_energy,
                                std::abs(out.values(i, 0) - 0.5 * u * u) / (0.5 * speed * speed));
        EXPECT_NEAR(out.values(i, 1), 1.0 - std::pow(wear, static_cast<double>(k)), 1e-15);
      }
    }
  }
  std::printf(
      "wearing ball: 12 drops in m, s and mm, ms: worst bounce time %.2g T, worst energy "
      "%.2g of the drop's\n",
      worst_time, worst_energy);
}

TEST(DiscreteVariables, TerminateAfterCountsTheGuardsEvents) {
  const std::string counted =
      replaced(file_text(), "terminate = \"n >= 5\"", "terminate_after = 5");
  const ModelRun a = run_file({}), b = run_text(counted);
  ASSERT_EQ(b.result.termination(), Termination::TerminalEvent);
  EXPECT_NE(b.message().find("(its 5th event, j = 5): terminate_after = 5"), std::string::npos)
      << b.message();
  ASSERT_EQ(a.result.events.size(), b.result.events.size());
  for (long k = 0; k < a.result.events.size(); ++k) {
    EXPECT_EQ(a.result.events[k].t, b.result.events[k].t);
  }
  // A discrete variable's initial value is set like a state's: two bounces already counted.
  const ModelRun c = run_file({"n=2"});
  EXPECT_EQ(c.result.events.size(), 3);
  EXPECT_NE(c.message().find("its 3rd event"), std::string::npos) << c.message();
  // Without terminate the ball bounces on to t_end (or its Zeno point).
  const ModelRun d = run_text(replaced(file_text(), "terminate = \"n >= 5\"", ""));
  EXPECT_NE(d.result.termination(), Termination::TerminalEvent);
  EXPECT_GT(d.result.events.size(), 5);
}

TEST(DiscreteVariables, AreTheStatesOfRateZeroWrittenOut) {
  // The same model with n and e_now in [states] and flows n' = 0, e_now' = 0.
  std::string text = replaced(file_text(), "[discrete]\n", "");
  text = replaced(text, "flow = [\"x' = v\", \"v' = -g\"]",
                  "flow = [\"x' = v\", \"v' = -g\", \"n' = 0\", \"e_now' = 0\"]");
  const ModelRun a = run_file({}), b = run_text(text);
  ASSERT_EQ(a.result.trajectory.size(), b.result.trajectory.size());
  for (long i = 0; i < a.result.trajectory.size(); ++i) {
    EXPECT_EQ(a.result.trajectory.t(i), b.result.trajectory.t(i));
    EXPECT_EQ(Vector(a.result.trajectory.x(i)), Vector(b.result.trajectory.x(i)));
  }
  EXPECT_EQ(a.message(), b.message());
  EXPECT_EQ(a.model->discrete_states, (std::vector<int>{2, 3}));
  EXPECT_TRUE(b.model->discrete_states.empty());
}

// The line of the first line of `text` holding `what` (1-based).
int line_of(const std::string& text, const std::string& what) {
  const size_t at = text.find(what);
  int line = 1;
  for (size_t i = 0; i < at && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

TEST(DiscreteVariables, BadInputIsRefusedAtItsLine) {
  const std::string base = file_text();
  // A flow that writes a discrete variable.
  const std::string flows = replaced(base, "flow = [\"x' = v\", \"v' = -g\"]",
                                     "flow = [\"x' = v\", \"v' = -g\", \"n' = 1\"]");
  const std::string at_flow = "bad.toml:" + std::to_string(line_of(flows, "flow = [")) + ":";
  expect_load_refused(flows, at_flow);
  expect_load_refused(flows,
                      "mode 'flight' flow: 'n' is a discrete variable ([discrete]): its "
                      "rate is 0 in every mode and only resets change it");
  // terminate that is no condition, terminate_after that is no count.
  expect_load_refused(replaced(base, "\"n >= 5\"", "\"n - 5\""),
                      "guard 'impact' of mode 'flight' terminate 'n - 5' is not a condition");
  expect_load_refused(replaced(base, "\"n >= 5\"", "\"k >= 5\""), "unknown symbol 'k'");
  expect_load_refused(replaced(base, "terminate = \"n >= 5\"", "terminate_after = 0"),
                      "terminate_after is 0; expected a whole number of events");
  expect_load_refused(replaced(base, "terminate = \"n >= 5\"", "terminate_after = \"5\""),
                      "terminate_after is a string; expected a whole number of events");
  // [discrete] names are new names, with initial values of parameters.
  expect_load_refused(replaced(base, "n = { initial = 0", "x = { initial = 0"),
                      "discrete variable name 'x' is already used by state 'x'");
  expect_load_refused(replaced(base, "initial = \"e0\"", "initial = \"x\""), "unknown symbol 'x'");
  // An implicit flow that reads a discrete variable's rate.
  expect_load_refused(replaced(base, "flow = [\"x' = v\", \"v' = -g\"]",
                               "residuals = [\"x' - v\", \"v' + g + n'\"]"),
                      "read n', the rate of a discrete variable");
  // [discrete] belongs to models with [states] and [modes].
  expect_load_refused(R"toml([coordinates]
y = 1.0
[discrete]
n = 0
[mechanics]
kinetic_energy = "0.5*y'^2"
[solver]
t_end = 1.0
)toml",
                      "[discrete] in a mechanical model");
  expect_load_refused(R"toml([coordinates]
x = { initial = 0.0, momentum = 1.0 }
[discrete]
n = 0
[hamiltonian]
H = "0.5*p_x^2"
[solver]
t_end = 1.0
)toml",
                      "[discrete] in a Hamiltonian model");
}

TEST(NamedOutputs, ReadTimeLetNamesAndStayWhateverTheVariables) {
  std::string text = replaced(file_text(), "[outputs]\n",
                              "[outputs]\nkinetic = \"0.5*m*speed2 + 0*t\"\nclock = \"t\"\n");
  text = replaced(text, "[modes.flight]", "[let]\nspeed2 = \"v^2\"\n\n[modes.flight]");
  text += "variables = [\"x\"]\n";  // [output] is the file's last table
  const ModelRun r = run_text(text);
  const run::OutputColumns out = run::output_columns(r);
  ASSERT_EQ(out.names, (std::vector<std::string>{"kinetic", "clock", "energy", "worn"}));
  const Trajectory& tr = r.result.trajectory;
  for (long i = 0; i < tr.size(); ++i) {
    EXPECT_EQ(out.values(i, 0), 0.5 * tr.x(i)[1] * tr.x(i)[1]);
    EXPECT_EQ(out.values(i, 1), tr.t(i));
  }
  const std::string csv = run::model_trajectory_csv(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "t,j,mode,x,kinetic,clock,energy,worn");
}

TEST(NamedOutputs, BadInputIsRefusedAtItsLine) {
  const std::string base = file_text();
  const std::string unknown =
      replaced(base, "worn = \"1 - e_now/e0\"", "worn = \"1 - e_now/e_first\"");
  expect_load_refused(unknown, "bad.toml:" + std::to_string(line_of(unknown, "worn =")) + ":");
  expect_load_refused(unknown, "output 'worn': unknown symbol 'e_first'");
  expect_load_refused(replaced(base, "worn = \"1 - e_now/e0\"", "x = \"1 - e_now/e0\""),
                      "output name 'x' is already used by state 'x'");
  expect_load_refused(replaced(base, "worn = \"1 - e_now/e0\"", "e0 = \"2\""),
                      "output name 'e0' is already used by parameter 'e0'");
  expect_load_refused(replaced(base, "worn = \"1 - e_now/e0\"", "j = \"n\""),
                      "output 'j': the name is already a column of trajectory.csv");
  expect_load_refused(replaced(base, "worn = \"1 - e_now/e0\"", "worn = [\"n\", \"x\"]"),
                      "output 'worn' is an array; expected one scalar expression (a string)");
  expect_load_refused(replaced(base, "worn = \"1 - e_now/e0\"", "worn = 3"),
                      "output 'worn' is an integer; expected one scalar expression (a string)");
  expect_load_refused(replaced(base, "worn = \"1 - e_now/e0\"", "worn = { unit = \"1\" }"),
                      "output 'worn' has no value");
  expect_load_refused(replaced(base, "worn = \"1 - e_now/e0\"", "worn = { value = \"n\", u = 1 }"),
                      "unknown key 'u' in output 'worn'");
}

}  // namespace
}  // namespace saltus::model
