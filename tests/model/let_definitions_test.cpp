// [let] named subexpressions: a model written with them is the model with their text written out
// (the same graph nodes, so the same tapes and bit-identical runs), for explicit and mechanical
// models and for seeded random chains of definitions; misuse is refused with file, line, cause.
// GCC 12 reports a false -Wrestrict inside std::string's operator+ at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/run_outputs.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

std::string run_csv(const std::string& text) {
  const auto m = std::make_shared<const Model>(load_model_text(text, "let.toml"));
  const ModelRun run = run_model(m);
  EXPECT_TRUE(run.succeeded()) << run.status() << " " << run.message();
  return run::model_trajectory_csv(run) + run::model_events_csv(run);
}

const char* kPendulumWithLets = R"toml(
[parameters]
g = 9.81
l = 0.7
[let]
s = "sin(theta)"
accel = "-g/l*s"
past_wall = "-s - 0.479"
[states]
theta = 1.2
omega = 0.0
[modes.swing]
flow = ["theta' = omega", "omega' = accel"]
[[modes.swing.guards]]
name = "stop"
value = "past_wall"
direction = "rising"
reset = ["omega = -0.9*omega"]
[solver]
t_end = 3.0
[output]
sample_interval = 0.05
)toml";

const char* kPendulumWrittenOut = R"toml(
[parameters]
g = 9.81
l = 0.7
[states]
theta = 1.2
omega = 0.0
[modes.swing]
flow = ["theta' = omega", "omega' = (-g/l*(sin(theta)))"]
[[modes.swing.guards]]
name = "stop"
value = "(-(sin(theta)) - 0.479)"
direction = "rising"
reset = ["omega = -0.9*omega"]
[solver]
t_end = 3.0
[output]
sample_interval = 0.05
)toml";

TEST(LetDefinitions, AnExplicitModelRunsAsWithTheTextWrittenOut) {
  const std::string with = run_csv(kPendulumWithLets);
  EXPECT_NE(with.find("stop"), std::string::npos) << "the guard never fired";
  EXPECT_EQ(with, run_csv(kPendulumWrittenOut));
}

TEST(LetDefinitions, AMechanicalModelDerivesThroughThem) {
  // The rod of models/bouncing_rod.toml with its centre of mass as definitions.
  const std::string head = R"toml(
[parameters]
m = 1.0
ell = 0.5
g = 9.81
[coordinates]
x = { initial = 0.0, velocity = 0.5 }
y = { initial = 0.5, velocity = 0.0 }
theta = { initial = 1.0, velocity = 0.0 }
)toml";
  const std::string tail = R"toml(
[[contacts]]
name = "tip"
gap = "y"
law = "newton"
e = 0.8
[solver]
t_end = 1.0
[output]
sample_interval = 0.01
)toml";
  const std::string with = head + R"toml(
[let]
xc_dot = "x' - ell*sin(theta)*theta'"
yc_dot = "y' + ell*cos(theta)*theta'"
yc = "y + ell*sin(theta)"
[mechanics]
kinetic_energy = "0.5*m*(xc_dot^2 + yc_dot^2) + 0.5*(m*ell^2/3)*theta'^2"
potential_energy = "m*g*yc"
)toml" + tail;
  const std::string out = head + R"toml(
[mechanics]
kinetic_energy = "0.5*m*((x' - ell*sin(theta)*theta')^2 + (y' + ell*cos(theta)*theta')^2) + 0.5*(m*ell^2/3)*theta'^2"
potential_energy = "m*g*(y + ell*sin(theta))"
)toml" + tail;
  EXPECT_EQ(run_csv(with), run_csv(out));
}

// A random expression over x, v and the names in `names`, as text.
std::string random_expression(std::mt19937& rng, const std::vector<std::string>& names, int depth) {
  std::uniform_int_distribution<int> pick(0, 5);
  if (depth == 0) {
    std::vector<std::string> leaves = names;
    leaves.insert(leaves.end(), {"x", "v", "0.5", "2"});
    return leaves[std::uniform_int_distribution<size_t>(0, leaves.size() - 1)(rng)];
  }
  const std::string a = random_expression(rng, names, depth - 1);
  const std::string b = random_expression(rng, names, depth - 1);
  switch (pick(rng)) {
    case 0:
      return "(" + a + " + " + b + ")";
    case 1:
      return "(" + a + " - " + b + ")";
    case 2:
      return "(" + a + " * " + b + ")";
    case 3:
      return "sin(" + a + ")";
    case 4:
      return "cos(" + a + " - " + b + ")";
    default:
      return "(" + a + ")^2";
  }
}

TEST(LetDefinitions, SeededRandomChainsEqualTheirSubstitutedText) {
  std::mt19937 rng(20261125);
  for (int trial = 0; trial < 20; ++trial) {
    // d0, d1, ... each over x, v and the earlier ones; the flow reads the last two.
    std::vector<std::string> names, texts, expanded;
    const int n = std::uniform_int_distribution<int>(1, 6)(rng);
    for (int k = 0; k < n; ++k) {
      const std::string text = random_expression(rng, names, 2);
      // The same text with every earlier name replaced by its (parenthesised) expansion.
      std::string full;
      for (size_t i = 0; i < text.size();) {
        bool replaced = false;
        for (size_t j = names.size(); j-- > 0;) {
          const std::string& name = names[j];
          const bool at_name = text.compare(i, name.size(), name) == 0 &&
                               (i + name.size() == text.size() ||
                                !std::isalnum(static_cast<unsigned char>(text[i + name.size()])));
          if (at_name) {
            full += "(" + expanded[j] + ")";
            i += name.size();
            replaced = true;
            break;
          }
        }
        if (!replaced) full += text[i++];
      }
      names.push_back("d" + std::to_string(k));
      texts.push_back(text);
      expanded.push_back(full);
    }
    const std::string last = names.back(), first = names.front();
    std::string with = "[let]\n";
    for (int k = 0; k < n; ++k) with += names[k] + " = \"" + texts[k] + "\"\n";
    const std::string body = "[solver]\nt_end = 0.5\n[output]\nsample_interval = 0.05\n";
    with += "[states]\nx = 0.3\nv = -0.2\n[modes.m]\nflow = [\"x' = sin(" + last +
            ")\", \"v' = cos(" + first + ")\"]\n" + body;
    // [let] is read after [states]: the table order in the file does not matter.
    const std::string out = "[states]\nx = 0.3\nv = -0.2\n[modes.m]\nflow = [\"x' = sin(" +
                            expanded.back() + ")\", \"v' = cos(" + expanded.front() + ")\"]\n" +
                            body;
    EXPECT_EQ(run_csv(with), run_csv(out)) << with;
  }
}

TEST(LetDefinitions, MisuseIsRefusedNamingFileLineAndCause) {
  const std::string states = "[states]\nx = 1.0\n[modes.m]\nflow = [\"x' = -x\"]\n";
  // A later name is not seen by an earlier one (no cycles).
  saltus::testing::expect_load_refused("[let]\na = \"b\"\nb = \"x\"\n" + states,
                                       "unknown symbol 'b'");
  saltus::testing::expect_load_refused("[parameters]\nk = 1.0\n[let]\nk = \"x\"\n" + states,
                                       "already used by parameter 'k'");
  saltus::testing::expect_load_refused("[let]\nx = \"2\"\n" + states, "already used by state 'x'");
  saltus::testing::expect_load_refused("[let]\nc = 2.0\n" + states,
                                       "[let] c is a number; expected an expression string");
  saltus::testing::expect_load_refused("[let]\nc = \"cos(\"\n" + states, "bad.toml:2:");
  // Algebraic states belong to one mode, definitions to the whole model.
  saltus::testing::expect_load_refused(R"toml([let]
half = "lam/2"
[states]
x = 1.0
[modes.m]
algebraic = { lam = { guess = 0.0 } }
flow = ["x' = -x"]
constraints = ["lam = x"]
)toml",
                                       "unknown symbol 'lam'");
}

}  // namespace
}  // namespace saltus::model
