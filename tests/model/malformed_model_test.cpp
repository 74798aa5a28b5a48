// One test per kind of malformed model (issue 3, "Must show"): each problem is reported with
// file, line, column and what was expected; a run is refused or fails without output files.
// The data files are in tests/model/data/; apps/CMakeLists.txt runs the same files through the
// built `saltus` binary (exit status and absence of output files).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/run_outputs.hpp"

namespace saltus::model {
namespace {

std::filesystem::path data(const std::string& name) {
  return std::filesystem::path(__FILE__).parent_path() / "data" / name;
}

// Expects exactly the problems at (line, column) whose messages contain the given text.
struct Expected {
  int line, column;
  std::string text;
};
void expect_problems(const std::string& file, const std::vector<Expected>& expected) {
  const auto problems = check_model_file(data(file));
  ASSERT_EQ(problems.size(), expected.size()) << format_diagnostics(problems);
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(problems[i].file, data(file).string());
    EXPECT_EQ(problems[i].line, expected[i].line) << problems[i].format();
    EXPECT_EQ(problems[i].column, expected[i].column) << problems[i].format();
    EXPECT_NE(problems[i].message.find(expected[i].text), std::string::npos)
        << problems[i].format();
    EXPECT_NE(problems[i].message.find("expected"), std::string::npos) << problems[i].format();
  }
  // Loading throws with the same list, so nothing can be run.
  EXPECT_THROW(load_model_file(data(file)), ModelError);
}

TEST(MalformedModel, TomlSyntaxError) {
  expect_problems("toml_syntax.toml", {{12, 1, "TOML syntax"}});
}

TEST(MalformedModel, TableHeadersThatTomlPlusPlusWouldAssertOn) {
  // Found by the fuzzer: toml++ 3.3.0 asserts (release: assumes) a key after '['.
  for (const char* text : {"[=a]\n", "[\n", "[[ .a]]\n", "x = 1\n[{]\n"}) {
    const auto problems = check_model_text(text, "h.toml");
    ASSERT_EQ(problems.size(), 1u) << text;
    EXPECT_NE(problems[0].message.find("TOML syntax: malformed table header"), std::string::npos);
    EXPECT_GT(problems[0].line, 0);
  }
  // Found by the fuzzer: toml++ reaches an unreachable branch on U+029A outside a string.
  EXPECT_EQ(check_model_text("[s\xCF\x84]\n", "u.toml").size(), 1u);  // in a header too
  EXPECT_EQ(check_model_text(std::string("g = 8\n[\"\0x\xD2\x94\"]\n", 14), "u.toml").size(), 1u);
  const auto u = check_model_text("x = 1 \xCA\x9A\n", "u.toml");
  ASSERT_EQ(u.size(), 1u);
  EXPECT_NE(u[0].message.find("non-ASCII character"), std::string::npos);
  EXPECT_EQ(u[0].column, 7);
  // U+00B5 (micro) inside a string: toml++ 3.3.0 would still hit the branch elsewhere; refused.
  EXPECT_EQ(check_model_text("x = \"\xC2\xB5m\"\n", "u.toml").size(), 1u);
  EXPECT_EQ(check_model_text("\"\"\"\"?\\\n\xEF\xB9\xBF", "u.toml").size(), 1u);  // U+FE7F
  // Characters outside U+00A1..U+0499 are fine inside strings (U+2013 en dash).
  for (const auto& d : check_model_text("[model]\nname = \"a \xE2\x80\x93 b\"\n", "u.toml")) {
    EXPECT_EQ(d.message.find("TOML syntax"), std::string::npos) << d.format();
  }
  // Brackets inside strings, comments and multi-line arrays are not headers.
  const auto ok = check_model_text("# [=\nx = [\n  [+1],\n]\ny = \"[=\"\n", "h.toml");
  for (const auto& p : ok) EXPECT_EQ(p.message.find("malformed table header"), std::string::npos);
}

TEST(MalformedModel, UnknownSymbolsAllReported) {
  expect_problems("unknown_symbol.toml",
                  {{10, 26, "unknown symbol 'gravity'"}, {15, 18, "unknown symbol 'vel'"}});
}

TEST(MalformedModel, WrongArity) {
  expect_problems("wrong_arity.toml", {{10, 30, "'max' takes at least 2 arguments, got 1"},
                                       {10, 39, "'atan2' takes 2 arguments, got 1"}});
}

TEST(MalformedModel, ResetNamingAnUnknownMode) {
  expect_problems("reset_unknown_mode.toml", {{15, 10, "unknown mode 'flite'"}});
}

TEST(MalformedModel, ResetNamingAnUnknownState) {
  expect_problems("reset_unknown_state.toml", {{15, 11, "'w' is not a state"}});
}

TEST(MalformedModel, MissingInitialValue) {
  expect_problems("missing_initial.toml", {{6, 5, "state 'v' has no initial value"}});
}

TEST(MalformedModel, GuardThatIsNotAScalar) {
  expect_problems("non_scalar_guard.toml",
                  {{14, 9, "a guard is a scalar function"}, {19, 10, "is a condition"}});
}

TEST(MalformedModel, ContactKeysTheLawDoesNotReadAreErrors) {
  // Issue 34: before, each of these loaded and the law ignored the key without a word.
  expect_problems("ignored_contact_keys.toml",
                  {{23, 6, "contact 'floor' (law newton) does not read 'mu' (law newton reads e"},
                   {32, 7, "contact 'wall' (law routh_poisson) does not read 'e_t'"},
                   {39, 5,
                    "contact 'pad' (law linear_spring) does not read 'c' (law "
                    "linear_spring reads k, mu, tangent"},
                   {44, 11, "contact 'cushion' (law kelvin_voigt) has a tangent but no mu"},
                   {47, 7, "unknown key 'muu' in contact 'cushion' (law kelvin_voigt)"}});
}

TEST(MalformedModel, ContactKeysSetOnTheCommandLineMustBeReadToo) {
  const auto rod = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() /
                   "models" / "bouncing_rod.toml";
  const auto particle = rod.parent_path() / "compliant_particle.toml";
  // --set contacts.<c>.law switches laws: the file's keys for its own law (the rod's mu and
  // tangent for routh_poisson, the particle's c and release for kelvin_voigt) are left alone.
  EXPECT_TRUE(check_model_file(rod, {"contacts.tip.law=newton"}).empty());
  EXPECT_TRUE(check_model_file(particle, {"contacts.surface.law=linear_spring"}).empty());
  // A key given by --set that the law does not read is an error naming the --set.
  for (const auto& [file, set, text] :
       std::vector<std::tuple<std::filesystem::path, std::vector<std::string>, std::string>>{
           {rod,
            {"contacts.tip.law=newton", "contacts.tip.mu=0.5"},
            "'contacts.tip.mu': contact 'tip' (law newton) does not read 'mu'"},
           {rod, {"contacts.tip.e_t=0.2"}, "contact 'tip' (law routh_poisson) does not read 'e_t'"},
           {particle,
            {"contacts.surface.law=linear_spring", "contacts.surface.c=0"},
            "'contacts.surface.c': contact 'surface' (law linear_spring) does not read 'c'"}}) {
    const auto problems = check_model_file(file, set);
    ASSERT_EQ(problems.size(), 1u) << format_diagnostics(problems);
    EXPECT_EQ(problems[0].file, "--set");
    EXPECT_NE(problems[0].message.find(text), std::string::npos) << problems[0].format();
  }
  // A key the file wrote for a law it does not use stays an error under any --set.
  const auto ignored =
      std::filesystem::path(__FILE__).parent_path() / "data" / "ignored_contact_keys.toml";
  const auto problems = check_model_file(ignored, {"contacts.floor.law=newton"});
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].line, 23) << problems[0].format();
}

TEST(MalformedModel, ProblemsInOneFileAreAllReported) {
  const std::string text = R"toml(
[parameters]
g = 9.81
[states]
x = 1.0
v = {}
[modes.a]
flow = ["x' = v + foo", "v' = sin(1, 2)"]
[[modes.a.guards]]
value = "-x"
target = "b"
reset = ["q = 0"]
[solver]
t_end = 1.0
integrator = "euler"
)toml";
  const auto problems = check_model_text(text, "m.toml");
  // Missing initial value, unknown symbol, arity, unknown mode, unknown state, bad integrator.
  EXPECT_EQ(problems.size(), 6u) << format_diagnostics(problems);
  for (const auto& p : problems) EXPECT_GT(p.line, 0) << p.format();
}

// Run-time failures: the engine names mode, guard and time; the files are written, labelled.
void expect_failed_run(const std::string& file, Termination termination,
                       const std::vector<std::string>& message_parts) {
  auto m = std::make_shared<const Model>(load_model_file(data(file)));
  const ModelRun r = run_model(m);
  EXPECT_FALSE(r.succeeded());
  EXPECT_EQ(r.result.termination(), termination) << r.result.summary.message;
  for (const std::string& part : message_parts) {
    EXPECT_NE(r.result.summary.message.find(part), std::string::npos)
        << "'" << part << "' not in: " << r.result.summary.message;
  }
  // The failed run's files are written, labelled: status and message in summary.json.
  const auto dir = std::filesystem::temp_directory_path() / ("saltus_malformed_" + file);
  std::filesystem::remove_all(dir);
  run::write_run_outputs(r, dir);
  EXPECT_TRUE(std::filesystem::exists(dir / "trajectory.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir / "events.csv"));
  const std::string summary = run::summary_json(r);
  EXPECT_NE(summary.find(std::string("\"status\": \"") + to_string(termination) + "\""),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("\"succeeded\": false"), std::string::npos) << summary;
  std::filesystem::remove_all(dir);
}

TEST(MalformedModel, DivisionByZeroAtRunTime) {
  expect_failed_run("division_by_zero.toml", Termination::NonFiniteState,
                    {"guard 'impact'", "mode 'flight'", "inf", "at t = 0.4515"});
}

TEST(MalformedModel, NaNInAFlowAtRunTime) {
  expect_failed_run("nan_flow.toml", Termination::NonFiniteState,
                    {"mode 'flight'", "NaN", "t = 0.330"});
}

TEST(MalformedModel, AlgebraicStateThatCannotBeMadeConsistent) {
  expect_failed_run("inconsistent_algebraic.toml", Termination::NewtonFailure,
                    {"mode 'rest'", "cannot be made consistent", "t0 = 0"});
}

}  // namespace
}  // namespace saltus::model
