// Parameter sensitivities d x(t_end) / d p (LoadOptions::parameters_as_states, `saltus sensitivity
// --parameters`): the jumping ball's restitution k against the closed form, its gravity g against
// central differences of whole runs, and the refusals that keep the derivative honest.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/run/model_sensitivity.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

std::shared_ptr<const Model> ball(double g, double k, double t_end,
                                  std::vector<std::string> parameters = {}) {
  LoadOptions options;
  options.parameters_as_states = std::move(parameters);
  return std::make_shared<const Model>(
      load_model_file(models_dir() / "jumping_ball.toml",
                      {"g=" + num(g), "k=" + num(k), "t_end=" + num(t_end)}, options));
}

TEST(ParameterSensitivity, JumpingBallRestitutionAndGravity) {
  std::mt19937 rng(20261124);
  std::uniform_real_distribution<double> restitution(0.3, 0.95), gravity(5.0, 15.0);
  for (int trial = 0; trial < 6; ++trial) {
    const double k = restitution(rng), g = gravity(rng), x0 = 10.0, v0 = 5.0;
    // First impact (x0 = 10 up at v0 = 5): t1 = (v0 + sqrt(v0^2 + 2 g x0)) / g, v1 = -sqrt(...).
    const double v1 = -std::sqrt(v0 * v0 + 2 * g * x0), t1 = (v0 - v1) / g;
    const double t = t1 + 0.5 * (-2 * k * v1 / g);  // half-way to the second impact
    const run::ModelSensitivity s = run::model_sensitivity(ball(g, k, t, {"k", "g"}));
    ASSERT_TRUE(s.sensitivity.ok()) << s.sensitivity.message;
    ASSERT_EQ(s.run.result.events.size(), 1);
    const Matrix P = run::parameter_sensitivity(s);  // rows x, v; columns k, g
    ASSERT_EQ(P.rows(), 2);
    ASSERT_EQ(P.cols(), 2);
    // x = -k v1 (t - t1) - g (t - t1)^2 / 2 after the impact; t1 and v1 do not depend on k.
    EXPECT_NEAR(P(0, 0), -v1 * (t - t1), 1e-7 * std::abs(v1) * t);
    EXPECT_NEAR(P(1, 0), -v1, 1e-7 * std::abs(v1));
    // d/dg: central differences of whole runs (t fixed), h = 1e-5 g: truncation ~h^2, rounding
    // ~rtol / h ~ 1e-3 relative at rtol 1e-8.
    const double h = 1e-5 * g;
    const Vector plus = run_model(ball(g + h, k, t)).result.x_final;
    const Vector minus = run_model(ball(g - h, k, t)).result.x_final;
    for (int i = 0; i < 2; ++i) {
      const double fd = (plus[i] - minus[i]) / (2 * h);
      EXPECT_NEAR(P(i, 1), fd, 2e-3 * (1 + std::abs(fd))) << "state " << i << ", g = " << g;
    }
  }
}

TEST(ParameterSensitivity, RefusedWhereTheDerivativeWouldBeLost) {
  const auto refused = [](const std::string& text, const std::string& parameter,
                          const std::string& cause) {
    LoadOptions options;
    options.parameters_as_states = {parameter};
    try {
      (void)load_model_text(text, "p.toml", {}, options);
      ADD_FAILURE() << "accepted: d/d" << parameter << " of\n" << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(cause), std::string::npos) << e.what();
    }
  };
  const std::string modes = "[modes.m]\nflow = [\"x' = -a*x\"]\n[solver]\nt_end = 1.0\n";
  refused("[parameters]\na = 1.0\nb = \"2*a\"\n[states]\nx = \"b\"\n" + modes, "a",
          "state 'x' starts at an expression of 'b'");
  refused("[parameters]\na = 1.0\n[states]\nx = \"a\"\n" + modes, "a",
          "state 'x' starts at an expression of 'a'");
  refused("[parameters]\na = 1.0\n[states]\nx = 1.0\n" + modes, "c", "no parameter 'c'");
  refused(
      "[parameters]\ne = 0.5\n[coordinates]\ny = 1.0\n[mechanics]\n"
      "kinetic_energy = \"0.5*y'^2\"\n[[contacts]]\ngap = \"y\"\ne = \"e\"\n"
      "[solver]\nt_end = 1.0\n",
      "e", "need a model with [states] and [modes]");
  // Accepted: the parameter is a state with x' = 0; its own sensitivity column is the identity.
  LoadOptions options;
  options.parameters_as_states = {"a"};
  const auto m = std::make_shared<const Model>(
      load_model_text("[parameters]\na = 1.5\n[states]\nx = 1.0\n" + modes, "p.toml", {}, options));
  ASSERT_EQ(m->parameter_states, std::vector<int>{1});
  const run::ModelSensitivity s = run::model_sensitivity(m);
  ASSERT_TRUE(s.sensitivity.ok()) << s.sensitivity.message;
  EXPECT_NEAR(run::parameter_sensitivity(s)(0, 0), -std::exp(-1.5),
              1e-7);  // d/da e^(-a t) at t = 1
  EXPECT_NEAR(s.sensitivity.flow_map_jacobian(1, 1), 1.0, 1e-12);
}

// Issue 47: a parameter computed from one loaded as a state follows it (phi = slope_deg*pi/180
// when slope_deg is continued or differentiated), also through a chain, as a definition of the
// state: x' = -b x with b = 2 c, c = "a", at a = 1.5 has d x(1) / d a = -2 e^(-3).
TEST(ParameterSensitivity, ParametersComputedFromOneFollowIt) {
  LoadOptions options;
  options.parameters_as_states = {"a"};
  const auto m = std::make_shared<const Model>(load_model_text(
      "[parameters]\na = 1.5\nc = \"a\"\nb = { value = \"2*c\", unit = \"1/s\" }\n"
      "[states]\nx = 1.0\n[modes.m]\nflow = [\"x' = -b*x\"]\n[solver]\nt_end = 1.0\n",
      "p.toml", {}, options));
  const run::ModelSensitivity s = run::model_sensitivity(m);
  ASSERT_TRUE(s.sensitivity.ok()) << s.sensitivity.message;
  EXPECT_NEAR(s.run.result.x_final[0], std::exp(-3.0), 1e-8);
  EXPECT_NEAR(run::parameter_sensitivity(s)(0, 0), -2.0 * std::exp(-3.0), 1e-7);
}

}  // namespace
}  // namespace saltus::model
