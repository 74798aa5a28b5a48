// The unit check of model files (issue 47 item 5; docs/MODEL_FORMAT.md "Units"): an equation
// whose sides differ in dimension is refused with file, line and both dimensions, a unit string
// that is not a unit is refused naming the token, a model without units loads as before, and
// every model in models/ passes.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "saltus/model/model_loader.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;

const char* kFall = R"toml([parameters]
g = { value = 9.81, unit = "m/s^2" }
[states]
x = { initial = 1.0, unit = "m" }
v = { initial = 0.0, unit = "m/s" }
[modes.fall]
flow = ["x' = g", "v' = -g"]
[solver]
t_end = 1.0
)toml";

std::vector<Diagnostic> problems(const std::string& text) {
  return check_model_text(text, "units.toml");
}

// The one problem of `text`: its line and message.
Diagnostic only_problem(const std::string& text) {
  const std::vector<Diagnostic> d = problems(text);
  EXPECT_EQ(d.size(), 1u) << format_diagnostics(d);
  return d.empty() ? Diagnostic{} : d.front();
}

TEST(UnitCheck, AVelocitySetToAnAccelerationIsRefusedWithFileLineAndBothDimensions) {
  const Diagnostic d = only_problem(kFall);
  EXPECT_EQ(d.file, "units.toml");
  EXPECT_EQ(d.line, 7);
  EXPECT_EQ(d.message,
            "mode 'fall' flow: 'x' = g': the right side has dimension m s^-2, the left side x' "
            "has m s^-1 (x in 'm', t in 's')");
  EXPECT_EQ(d.column, 10);  // the string, inside its quotes
  EXPECT_NE(d.format().find("units.toml:7:10: error: mode 'fall'"), std::string::npos)
      << d.format();
  try {
    (void)load_model_text(kFall, "units.toml");
    ADD_FAILURE() << "loaded";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("m s^-2"), std::string::npos) << e.what();
  }
  std::string fixed = kFall;
  fixed.replace(fixed.find("x' = g"), 6, "x' = v");
  EXPECT_TRUE(problems(fixed).empty()) << format_diagnostics(problems(fixed));
}

TEST(UnitCheck, AUnitStringThatIsNotAUnitIsRefusedNamingTheToken) {
  const Diagnostic d = only_problem(R"toml([parameters]
v = { value = 1.0, unit = "meters per fortnight" }
[states]
x = 0.0
[modes.m]
flow = ["x' = v"]
[solver]
t_end = 1.0
)toml");
  EXPECT_EQ(d.line, 2);
  EXPECT_EQ(d.column, 28);  // the token, inside the quotes
  EXPECT_EQ(d.message.rfind("unit 'meters per fortnight' of parameter 'v': 'meters' is not a "
                            "unit; expected SI units such as m, kg, s, N, rad",
                            0),
            0u)
      << d.message;
  const Diagnostic t = only_problem(
      "[model]\ntime_unit = \"fortnight\"\n[states]\nx = 0.0\n[modes.m]\nflow = [\"x' = 1\"]\n"
      "[solver]\nt_end = 1.0\n");
  EXPECT_EQ(t.line, 2);
  EXPECT_NE(t.message.find("unit 'fortnight' of the time (time_unit): 'fortnight' is not a unit"),
            std::string::npos)
      << t.message;
}

TEST(UnitCheck, AModelWithoutUnitsIsNotChecked) {
  EXPECT_TRUE(problems(R"toml([parameters]
g = 9.81
[states]
x = 1.0
v = 0.0
[modes.m]
flow = ["x' = sin(t) + g", "v' = x*v - 1"]
[[modes.m.guards]]
value = "-x + v*t"
reset = ["v = -x"]
[solver]
t_end = 1.0
)toml")
                  .empty());
  // A symbol without a unit is never a conflict: x' = v*k with k unknown passes.
  EXPECT_TRUE(problems(R"toml([parameters]
k = 2.0
[states]
x = { initial = 1.0, unit = "m" }
v = { initial = 0.0, unit = "m/s" }
[modes.m]
flow = ["x' = v*k", "v' = -k*x + k*sin(k*t)"]
[solver]
t_end = 1.0
)toml")
                  .empty());
}

// Every kind of equation, one problem each, all collected.
TEST(UnitCheck, EveryEquationIsCheckedAndEveryProblemReported) {
  const std::vector<Diagnostic> d = problems(R"toml([model]
time_unit = "ms"
[parameters]
g = { value = 9.81, unit = "m/s^2" }
L = { value = 2.0, unit = "m" }
w = { value = "2*pi/L", unit = "rad/s" }
h0 = { value = 1.0, unit = "m" }
[let]
bad = "x + g"
[states]
x = { initial = "h0", unit = "m" }
v = { initial = "g", unit = "m/s" }
[modes.m]
flow = ["x' = v", "v' = -g"]
[[modes.m.guards]]
name = "floor"
value = "-x + v"
when = "v < g"
reset = ["v = -x"]
[outputs]
energy = { value = "g*x", unit = "J" }
height = { value = "x - L", unit = "m" }
[solver]
t_end = 1.0
)toml");
  const std::vector<std::pair<int, std::string>> expected = {
      {6, "parameter 'w': '2*pi/L': its value has dimension m^-1, its unit 'rad/s' s^-1"},
      {12, "initial value of 'v': 'g': it has dimension m s^-2, the unit 'm/s' m s^-1"},
      {9, "[let] bad: 'x + g': a sum of g (m s^-2) and x (m)"},
      {17, "guard 'floor' of mode 'm' value: '-x + v': a difference of v (m s^-1) and x (m)"},
      {18, "guard 'floor' of mode 'm' when: 'v < g': a comparison of v (m s^-1) and g (m s^-2)"},
      {19,
       "guard 'floor' of mode 'm' reset: 'v = -x': the right side has dimension m, the left "
       "side v has m s^-1 (v in 'm/s')"},
      {21, "output 'energy': 'g*x': its value has dimension m^2 s^-2, its unit 'J' m^2 kg s^-2"}};
  ASSERT_EQ(d.size(), expected.size()) << format_diagnostics(d);
  for (size_t i = 0; i < d.size(); ++i) {
    EXPECT_EQ(d[i].line, expected[i].first) << d[i].message;
    EXPECT_EQ(d[i].message, expected[i].second);
  }
}

TEST(UnitCheck, ResidualsConstraintsAndDiscreteVariables) {
  const std::vector<Diagnostic> d = problems(R"toml([parameters]
b = { value = 1.0, unit = "1/s" }
c = { value = 0.5, unit = "m" }
[states]
x = { initial = 1.0, unit = "m" }
[discrete]
n = { initial = 0, unit = "1" }
[modes.slow]
algebraic = { z = { unit = "m/s" } }
residuals = ["x' + z = 0"]
constraints = ["z = b*x + c"]
[[modes.slow.guards]]
value = "x - c"
target = "fast"
reset = ["n = n + x"]
[modes.fast]
flow = ["x' = -b*x"]
[initial]
mode = "slow"
[solver]
t_end = 1.0
)toml");
  ASSERT_EQ(d.size(), 2u) << format_diagnostics(d);
  EXPECT_EQ(d[0].line, 11);
  EXPECT_EQ(d[0].message, "mode 'slow' constraints: 'z = b*x + c': a sum of m s^-1 and c (m)");
  EXPECT_EQ(d[1].line, 15);
  EXPECT_EQ(d[1].message,
            "guard 'guard0' of mode 'slow' reset: 'n = n + x': a sum of x (m) and "
            "n (1)");
}

TEST(UnitCheck, MechanicalModelsEnergiesForcesAndCoefficients) {
  const std::vector<Diagnostic> d = problems(R"toml([parameters]
m = { value = 1.0, unit = "kg" }
g = { value = 9.81, unit = "m/s^2" }
c = { value = 0.1, unit = "N s/m" }
e = { value = 0.8, unit = "m" }
[coordinates]
y = { initial = 1.0, unit = "m" }
[mechanics]
kinetic_energy = "0.5*m*y'^2"
potential_energy = "m*g"
forces = { y = "-c*y'*y'" }
[[contacts]]
gap = "y"
e = "e"
[solver]
t_end = 1.0
)toml");
  ASSERT_EQ(d.size(), 3u) << format_diagnostics(d);
  EXPECT_EQ(d[0].line, 10);
  EXPECT_EQ(d[0].message,
            "[mechanics] potential_energy: 'm*g': the potential energy has "
            "dimension m kg s^-2, the kinetic energy m^2 kg s^-2");
  EXPECT_EQ(d[1].line, 11);
  EXPECT_EQ(d[1].message,
            "[mechanics] force on y: '-c*y'*y'': the force has dimension m^2 kg "
            "s^-3, the energy per y ('m') m kg s^-2");
  EXPECT_EQ(d[2].line, 14);
  EXPECT_EQ(d[2].message, "contact 1 e: 'e': it has dimension m, expected 1");
}

TEST(UnitCheck, AnglesAndScaledUnits) {
  // deg and rad are dimensionless; a flow in mm per ms is checked by dimension only.
  EXPECT_TRUE(problems(R"toml([model]
time_unit = "ms"
[parameters]
a = { value = 30.0, unit = "deg" }
w = { value = 2.0, unit = "rad/s" }
r = { value = 5.0, unit = "mm" }
[states]
th = { initial = 0.0, unit = "rad" }
x = { initial = 0.0, unit = "mm" }
[modes.m]
flow = ["th' = w", "x' = r*w*cos(th + a*pi/180)"]
[solver]
t_end = 1.0
)toml")
                  .empty());
}

TEST(UnitCheck, EveryModelInTheModelsFolderPasses) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(models_dir())) {
    if (entry.path().extension() != ".toml") continue;
    ++count;
    const std::vector<Diagnostic> d = check_model_file(entry.path());
    EXPECT_TRUE(d.empty()) << entry.path() << "\n" << format_diagnostics(d);
  }
  EXPECT_GT(count, 30);
}

}  // namespace
}  // namespace saltus::model
