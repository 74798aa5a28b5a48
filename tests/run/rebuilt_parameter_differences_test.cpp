// Every parameter column of rebuilt_parameter_sensitivity against central differences of the
// whole hybrid run, the file reloaded with the parameter perturbed: the bouncing rod under two
// impact laws (parameters in the mass matrix, the potential, the initial state and the impact
// law), a Hamiltonian particle bouncing on a tilted wall and the refraction sphere (parameters
// in H, in the wall's and the surface's geometry, in the wall's e).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/rebuilt_parameter_sensitivity.hpp"
#include "support/model_files.hpp"

namespace saltus::run {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

ModelLoad file_load(const std::string& file, std::vector<std::string> overrides) {
  return [file, overrides](const std::vector<std::string>& extra) {
    std::vector<std::string> all = overrides;
    all.insert(all.end(), extra.begin(), extra.end());
    return model::load_model_file(models_dir() / file, all);
  };
}

ModelLoad text_load(const std::string& text, std::vector<std::string> overrides) {
  return [text, overrides](const std::vector<std::string>& extra) {
    std::vector<std::string> all = overrides;
    all.insert(all.end(), extra.begin(), extra.end());
    return model::load_model_text(text, "model.toml", all);
  };
}

// Each column of d x(t_end) / d p against (x(p + d) - x(p - d)) / 2d of whole runs, d = 1e-4
// max(1, |p|): truncation ~d^2 ~ 1e-8, the runs' own error (rtol 1e-12) / d ~ 1e-8 (measured:
// at most 6e-8 relative to 1 + |column| over every column below).
void expect_columns_match_differences(const ModelLoad& load,
                                      const std::vector<std::string>& parameters,
                                      int expected_events, double tolerance) {
  analysis::SaltationOptions saltation;
  saltation.allow_numerical_derivatives = true;  // impact laws solved by an LCP or Routh
  const ModelSensitivity s = rebuilt_parameter_sensitivity(load, parameters, saltation);
  ASSERT_TRUE(s.sensitivity.ok()) << s.sensitivity.message;
  EXPECT_EQ(static_cast<int>(s.sensitivity.events.size()), expected_events);
  const Matrix P = parameter_sensitivity(s);
  const model::Model nominal = load({});
  ASSERT_EQ(P.rows(), static_cast<Eigen::Index>(nominal.states.size()));
  for (size_t k = 0; k < parameters.size(); ++k) {
    double p = 0.0;
    for (const model::Quantity& q : nominal.parameters) {
      if (q.name == parameters[k]) p = q.value;
    }
    const double d = 1e-4 * std::max(1.0, std::abs(p));
    const auto final_state = [&](double value) {
      const model::ModelRun run = model::run_model(
          std::make_shared<const model::Model>(load({parameters[k] + "=" + num(value)})));
      EXPECT_TRUE(run.succeeded()) << run.message();
      EXPECT_EQ(static_cast<int>(run.result.events.size()), expected_events);
      return Vector(run.result.x_final);
    };
    const Vector fd = (final_state(p + d) - final_state(p - d)) / (2 * d);
    const Vector column = P.col(static_cast<Eigen::Index>(k));
    const double scale = 1.0 + fd.lpNorm<Eigen::Infinity>();
    EXPECT_LE((column - fd).lpNorm<Eigen::Infinity>(), tolerance * scale)
        << "d x / d " << parameters[k] << "\n  sensitivity " << column.transpose()
        << "\n  differences " << fd.transpose();
  }
}

TEST(RebuiltParameterDifferences, BouncingRodUnderThreeImpactLaws) {
  for (const char* law : {"routh_poisson", "newton", "chatterjee_ruina"}) {
    SCOPED_TRACE(law);
    const ModelLoad rod = file_load("bouncing_rod.toml", {"t_end=0.5", "rtol=1e-12", "atol=1e-14",
                                                          std::string("contacts.tip.law=") + law});
    expect_columns_match_differences(rod, {"e", "mu", "ell", "g", "m", "theta0"}, 1, 2e-7);
  }
}

const char* kHamiltonianWall = R"(
[model]
name = "hamiltonian_wall"
[parameters]
m = 1.3
g = 9.81
a = 0.2
e = 0.7
[coordinates]
x = { initial = 0.0, momentum = 0.4 }
y = { initial = 1.0, momentum = 0.0 }
[hamiltonian]
H = "(p_x^2 + p_y^2)/(2*m) + m*g*y"
[[contacts]]
name = "floor"
gap = "y - a*x"
e = "e"
[solver]
t_end = 1.2
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
)";

TEST(RebuiltParameterDifferences, HamiltonianWallAndRefraction) {
  {
    SCOPED_TRACE("hamiltonian wall");
    expect_columns_match_differences(text_load(kHamiltonianWall, {}), {"m", "g", "a", "e"}, 2,
                                     2e-7);
  }
  {
    SCOPED_TRACE("refraction sphere");
    // Example 3 with the disc's radius r a parameter (the surface) beside the ray's height y0.
    std::ifstream in(models_dir() / "refraction_sphere.toml");
    std::stringstream text;
    text << in.rdbuf();
    std::string sphere = text.str();
    sphere.replace(sphere.find("x^2 + y^2 - 1/4"), 15, "x^2 + y^2 - r^2");
    sphere.replace(sphere.find("y0 = 0.2"), 8, "y0 = 0.2\nr = 0.5");
    expect_columns_match_differences(text_load(sphere, {}), {"y0", "r"}, 2, 2e-7);
  }
}

}  // namespace
}  // namespace saltus::run
