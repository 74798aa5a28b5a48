// [solver] atol as a table of the states' own values (docs/MODEL_FORMAT.md "[solver]"; issue 34):
// each state's absolute tolerance in its own unit, `default` for the others; a table that gives
// every state the same value is the scalar atol, bit for bit; names that are not states and
// negative values are errors at their line; 0 takes the default with a note.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::expect_load_refused;

// A block sliding and twisting on a torsion spring: a length, an angle and their rates (energies
// per unit mass: I and k per kg, so that the units check).
std::string slider(const std::string& atol) {
  return R"([parameters]
g = { value = 9.81, unit = "m/s^2" }
I = { value = 0.2, unit = "m^2" }
k = { value = 100.0, unit = "m^2/s^2" }
[coordinates]
x = { initial = 0.0, velocity = 1.0, unit = "m" }
y = { initial = 1.0, velocity = 0.0, unit = "m" }
theta = { initial = 0.0, velocity = 3.0, unit = "rad" }
[mechanics]
kinetic_energy = "0.5*(x'^2 + y'^2) + 0.5*I*theta'^2"
potential_energy = "g*y + 0.5*k*theta^2"
[[contacts]]
name = "floor"
gap = "y"
e = 0.5
[solver]
t_end = 2.0
rtol = 1e-9
)" + atol +
         "\n";
}

TEST(PerStateAtol, TheTableSetsEachStatesToleranceAndDefaultTheRest) {
  const Model m = load_model_text(
      slider(R"(atol = { default = 1e-11, theta = 1e-13, "x'" = 1e-12 })"), "slider.toml");
  const ode::StepperOptions& s = m.options.stepper;
  EXPECT_EQ(s.atol, 1e-11);
  ASSERT_EQ(s.atol_per_component.size(), 6);
  EXPECT_EQ(s.atol_per_component[m.state_index("x")], 1e-11);
  EXPECT_EQ(s.atol_per_component[m.state_index("theta")], 1e-13);
  EXPECT_EQ(s.atol_per_component[m.state_index("x'")], 1e-12);
  EXPECT_EQ(s.atol_per_component[m.state_index("theta'")], 1e-11);
}

TEST(PerStateAtol, AUniformTableIsTheScalarAtolBitForBit) {
  const auto run = [](const std::string& atol) {
    return run_model(std::make_shared<const Model>(load_model_text(slider(atol), "slider.toml")));
  };
  const ModelRun scalar = run("atol = 1e-11");
  const ModelRun table = run(
      R"(atol = { x = 1e-11, y = 1e-11, theta = 1e-11, "x'" = 1e-11, "y'" = 1e-11, "theta'" = 1e-11 })");
  ASSERT_TRUE(scalar.succeeded()) << scalar.message();
  ASSERT_GE(scalar.result.events.size(), 3);
  ASSERT_EQ(table.result.events.size(), scalar.result.events.size());
  for (long i = 0; i < scalar.result.events.size(); ++i) {
    EXPECT_EQ(table.result.events[i].t, scalar.result.events[i].t) << i;
  }
  EXPECT_EQ(table.result.x_final, scalar.result.x_final);
  // A looser tolerance on the angle alone changes the steps: the table is read.
  const ModelRun loose = run(R"(atol = { default = 1e-11, theta = 1e-3, "theta'" = 1e-3 })");
  EXPECT_NE(loose.result.summary.stepper.rhs_evaluations,
            scalar.result.summary.stepper.rhs_evaluations);
}

// A state's atol of 0 gives its error test no scale where the state is 0 (the issue's "scales
// that cannot be derived"): it takes the default, and the model carries a note for the report.
TEST(PerStateAtol, AZeroAtolTakesTheDefaultWithANote) {
  const Model m =
      load_model_text(slider(R"(atol = { default = 1e-11, x = 0, theta = 1e-13 })"), "slider.toml");
  EXPECT_EQ(m.options.stepper.atol_per_component[m.state_index("x")], 1e-11);
  EXPECT_EQ(m.options.stepper.atol_per_component[m.state_index("theta")], 1e-13);
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("[solver] atol.x = 0 gives state 'x' no scale where it is 0 (it "
                            "starts at 0); it takes the default atol 1e-11"),
            std::string::npos)
      << m.notes[0];
  const ModelRun r = run_model(std::make_shared<const Model>(m));
  EXPECT_TRUE(r.succeeded()) << r.message();
}

TEST(PerStateAtol, UnknownNamesAndNonPositiveValuesAreErrorsAtTheirLine) {
  expect_load_refused(slider("atol = { z = 1e-10 }"),
                      "[solver] atol names 'z', which is not a state; expected default or one of");
  expect_load_refused(slider("atol = { theta = -1e-12 }"),
                      "[solver] atol.theta = -1e-12; expected a positive number");
  expect_load_refused(slider("atol = { default = -1e-10 }"),
                      "[solver] atol.default = -1e-10; expected a positive number");
  expect_load_refused(slider("atol = { theta = \"yes\" }"), "[solver] atol.theta");
}

}  // namespace
}  // namespace saltus::model
