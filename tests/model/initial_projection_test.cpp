// [initial] project = tol (docs/MODEL_FORMAT.md "Inconsistent initial states"): a mechanical
// start a hair inside a contact is moved onto it by the nearest state in the kinetic metric
// (closed form for a linear gap), a velocity that breaks a constraint onto the constraint
// (checked by the conditions of the minimum); more than the tolerance is refused naming the
// model, the contact or constraint and the value.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

// A particle of masses m1 (along x) and m2 (along y) above the plane a x + b y = 0.
constexpr const char* kSlope = R"toml([model]
name = "slope"
[parameters]
m1 = 1.0
m2 = 3.0
a = 0.6
b = 0.8
g = 9.81
[coordinates]
x = { initial = 0.1, velocity = 0.2 }
y = { initial = 0.0, velocity = -0.1 }
[mechanics]
kinetic_energy = "0.5*(m1*x'^2 + m2*y'^2)"
potential_energy = "m2*g*y"
[[contacts]]
name = "plane"
gap = "a*x + b*y"
e = 0.5
[initial]
project = 1e-6
[solver]
t_end = 0.2
)toml";

TEST(InitialProjection, StartInsideAContactMovesOntoItAsTheClosedForm) {
  std::mt19937 rng(33041);
  std::uniform_real_distribution<double> mass(0.2, 5.0), angle(0.2, 1.3), depth(1e-9, 9e-7),
      at(-1.0, 1.0), speed(-0.5, 0.5);
  for (int trial = 0; trial < 20; ++trial) {
    const double m1 = mass(rng), m2 = mass(rng), phi = angle(rng), d = depth(rng);
    const double a = std::cos(phi), b = std::sin(phi), x0 = at(rng);
    const double y0 = (-d - a * x0) / b;  // gap a x0 + b y0 = -d (up to rounding)
    const double vx = speed(rng), vy = speed(rng);
    const Model m =
        load_model_text(kSlope, "slope.toml",
                        {"m1=" + num(m1), "m2=" + num(m2), "a=" + num(a), "b=" + num(b),
                         "x=" + num(x0), "y=" + num(y0), "x'=" + num(vx), "y'=" + num(vy)});
    // The minimum of (dq)^T M dq with w . (q0 + dq) = 0: dq = -M^-1 w g0 / (w^T M^-1 w).
    const double g0 = a * x0 + b * y0, wMw = a * a / m1 + b * b / m2;
    const double dx = -a / m1 * g0 / wMw, dy = -b / m2 * g0 / wMw;
    ASSERT_EQ(m.initial_projection.violated, std::vector<std::string>{"contact 'plane'"});
    EXPECT_NEAR(m.initial_projection.violation[0], -g0, 1e-21);
    EXPECT_NEAR(m.states[0].value, x0 + dx, 1e-15);
    EXPECT_NEAR(m.states[1].value, y0 + dy, 1e-15);
    // The normal rate w . qdot is kept; w is constant, so the velocities are unchanged.
    EXPECT_NEAR(m.states[2].value, vx, 1e-15);
    EXPECT_NEAR(m.states[3].value, vy, 1e-15);
    EXPECT_NEAR(m.initial_projection.size(), std::max(std::abs(dx), std::abs(dy)), 1e-15);
    EXPECT_LE(std::abs(a * m.states[0].value + b * m.states[1].value), 1e-15);
    const ModelRun run = run_model(std::make_shared<const Model>(m));
    EXPECT_TRUE(run.succeeded()) << run.message();
  }
}

TEST(InitialProjection, WithoutTheOptionTheStartIsRefusedAsBefore) {
  std::string text = kSlope;
  const std::string option = "[initial]\nproject = 1e-6\n";
  text.erase(text.find(option), option.size());
  const auto m =
      std::make_shared<const Model>(load_model_text(text, "slope.toml", {"x=0", "y=-1e-6"}));
  EXPECT_EQ(m->initial_projection.tolerance, 0.0);
  try {
    (void)run_model(m);
    FAIL() << "a start inside the contact ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("[initial] project"), std::string::npos) << e.what();
  }
}

TEST(InitialProjection, ViolationBeyondTheToleranceNamesModelContactAndValue) {
  try {
    (void)load_model_text(kSlope, "slope.toml", {"x=0", "y=-2.5e-6"});  // gap -2e-6
    FAIL() << "accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    for (const char* part : {"slope.toml", "model 'slope'", "contact 'plane'", "by 2e-06",
                             "[initial] project = 1e-06"}) {
      EXPECT_NE(what.find(part), std::string::npos) << part << " not in: " << what;
    }
  }
  // A consistent start is not moved (and the summary says so).
  const Model ok = load_model_text(kSlope, "slope.toml", {"x=0", "y=0.01"});
  EXPECT_TRUE(ok.initial_projection.violated.empty());
  EXPECT_EQ(ok.initial_projection.size(), 0.0);
  EXPECT_EQ(ok.states[1].value, 0.01);
}

TEST(InitialProjection, VelocityBreakingAConstraintIsProjectedOntoIt) {
  // The Chaplygin sleigh with a sideways blade speed of 3e-9: eta = (-sin th, cos th, 0).
  const std::string path = (models_dir() / "chaplygin_sleigh.toml").string();
  const double th = 0.4, m = 1.0, I = 0.1, a = 0.3, slip = 3e-9;
  const std::vector<std::string> set = {"y'=" + num(std::sin(th) + slip * std::cos(th)),
                                        "x'=" + num(std::cos(th) - slip * std::sin(th)),
                                        "initial.project=1e-8"};
  const Model model = load_model_file(path, set);
  ASSERT_EQ(model.initial_projection.violated, std::vector<std::string>{"constraint 'blade'"});
  EXPECT_NEAR(model.initial_projection.violation[0], slip, 1e-15);
  Eigen::Vector3d v(model.states[3].value, model.states[4].value, model.states[5].value);
  const Eigen::Vector3d before(std::cos(th) - slip * std::sin(th),
                               std::sin(th) + slip * std::cos(th), 1.5);
  const double s = std::sin(th), c = std::cos(th);
  EXPECT_NEAR(-s * v[0] + c * v[1], 0.0, 1e-15);  // on the constraint
  // The nearest admissible velocity in the kinetic metric: the change is M-orthogonal to the
  // admissible directions (c, s, 0) and (0, 0, 1).
  Eigen::Matrix3d M;
  M << m, 0, -m * a * s, 0, m, m * a * c, -m * a * s, m * a * c, I + m * a * a;
  const Eigen::Vector3d dv = v - before;
  EXPECT_NEAR((M * dv).dot(Eigen::Vector3d(c, s, 0)), 0.0, 1e-15);
  EXPECT_NEAR((M * dv).dot(Eigen::Vector3d(0, 0, 1)), 0.0, 1e-15);
  EXPECT_GT(dv.norm(), 1e-9);
  // Beyond its tolerance: refused naming the constraint.
  std::vector<std::string> strict = set;
  strict.back() = "initial.project=1e-9";
  try {
    (void)load_model_file(path, strict);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("constraint 'blade' by 3e-09"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace saltus::model
