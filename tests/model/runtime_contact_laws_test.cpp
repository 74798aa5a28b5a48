// A rigid contact's e, mu and e_t written as expressions of run-time parameters
// (model/runtime_contact_laws.hpp): a model built once and run after set_runtime_parameter gives,
// bit for bit, the run of the model loaded with that value (the rod under Routh's process and
// under the Newton-Coulomb law with e_t, the Frictional Bounce Model in mu and e); a value the
// built system cannot take (an invalid law, a frictional contact made frictionless) is refused
// naming the file and the contact and leaves the model as it was, and a sweep through it loads
// that point's own model; coefficients that still cannot follow are refused at load.
#include "saltus/model/runtime_contact_laws.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/model/runtime_parameters.hpp"
#include "saltus/run/run_outputs.hpp"
#include "saltus/run/sweep.hpp"
#include "support/model_files.hpp"

namespace {

using saltus::model::LoadOptions;
using saltus::model::Model;
using saltus::model::ModelRun;
using saltus::testing::models_dir;
using saltus::testing::num;

bool same_value(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// The same run: status, every event and sample (as written to the CSV files, %.17g) and the
// final state bit for bit.
void expect_same_run(const ModelRun& a, const ModelRun& b, const std::string& what) {
  EXPECT_EQ(a.status(), b.status()) << what;
  EXPECT_EQ(a.result.summary.jumps, b.result.summary.jumps) << what;
  ASSERT_EQ(a.result.x_final.size(), b.result.x_final.size()) << what;
  for (Eigen::Index i = 0; i < a.result.x_final.size(); ++i) {
    EXPECT_TRUE(same_value(a.result.x_final[i], b.result.x_final[i]))
        << what << ": x_final[" << i << "] " << a.result.x_final[i] << " vs "
        << b.result.x_final[i];
  }
  EXPECT_EQ(saltus::run::model_trajectory_csv(a), saltus::run::model_trajectory_csv(b)) << what;
  EXPECT_EQ(saltus::run::model_events_csv(a), saltus::run::model_events_csv(b)) << what;
}

std::string file_text(const std::string& file) {
  std::ifstream in(models_dir() / file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ModelRun reloaded_run(const std::string& text, const std::string& file,
                      const std::vector<std::string>& overrides) {
  return saltus::model::run_model(
      std::make_shared<const Model>(saltus::model::load_model_text(text, file, overrides)));
}

// The model `text` built once with `names` at run time, run at each row of `values` (one value
// per name), against the model loaded with those values.
void expect_runtime_equals_reload(const std::string& text, const std::string& file,
                                  const std::vector<std::string>& names,
                                  const std::vector<std::vector<double>>& values,
                                  const std::vector<std::string>& overrides = {}) {
  LoadOptions options;
  options.runtime_parameters = names;
  ModelRun built;
  const saltus::model::ModelStart start = saltus::model::prepare_model_run(
      std::make_shared<const Model>(saltus::model::load_model_text(text, file, overrides, options)),
      built);
  for (const std::vector<double>& row : values) {
    std::vector<std::string> with = overrides;
    std::string what = file;
    for (size_t i = 0; i < names.size(); ++i) {
      saltus::model::set_runtime_parameter(*built.model, names[i], row[i]);
      with.push_back(names[i] + "=" + num(row[i]));
      what += " " + with.back();
    }
    saltus::model::simulate_model_run(built, start);
    expect_same_run(built, reloaded_run(text, file, with), what);
  }
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const saltus::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(RuntimeContactLaws, RodUnderRouthsProcessFollowsEAndMuBitForBit) {
  // models/bouncing_rod.toml: e = "e", mu = "mu" under routh_poisson; e = 0 and 1 included.
  expect_runtime_equals_reload(
      file_text("bouncing_rod.toml"), "bouncing_rod.toml", {"e", "mu"},
      {{0.8, 0.3}, {0.2, 0.3}, {0.2, 0.9}, {1.0, 0.05}, {0.0, 0.5}, {0.8, 0.3}});
  // One of them at run time, the other folded.
  expect_runtime_equals_reload(file_text("bouncing_rod.toml"), "bouncing_rod.toml", {"mu"},
                               {{0.6}, {0.1}});
}

TEST(RuntimeContactLaws, NewtonCoulombLawFollowsETAndAnExpressionOfParameters) {
  // The rod under Glocker's law with a tangential restitution e_t = "et" and e = "1 - loss".
  std::string text = file_text("bouncing_rod.toml");
  const auto replace = [&text](const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("law = \"routh_poisson\"\ne = \"e\"",
          "law = \"newton_coulomb\"\ne = \"1 - loss\"\n"
          "e_t = \"et\"");
  replace("e = { value = 0.8, unit = \"1\" }", "loss = 0.2\net = 0.5");
  expect_runtime_equals_reload(text, "rod_newton_coulomb.toml", {"loss", "et"},
                               {{0.2, 0.5}, {0.7, 0.0}, {0.05, 0.9}});
}

TEST(RuntimeContactLaws, FrictionalBounceModelFollowsMuAndE) {
  expect_runtime_equals_reload(file_text("frictional_bounce.toml"), "frictional_bounce.toml",
                               {"mu", "e"}, {{0.49, 0.0}, {0.3, 0.0}, {0.3, 0.5}, {0.55, 0.2}},
                               {"t_end=1.5"});
}

TEST(RuntimeContactLaws, AValueTheSystemCannotTakeIsRefusedAndChangesNothing) {
  const std::string text = file_text("bouncing_rod.toml");
  LoadOptions options;
  options.runtime_parameters = {"e", "mu"};
  ModelRun built;
  const auto start =
      saltus::model::prepare_model_run(std::make_shared<const Model>(saltus::model::load_model_text(
                                           text, "bouncing_rod.toml", {}, options)),
                                       built);
  saltus::model::set_runtime_parameter(*built.model, "e", 0.4);
  const std::string invalid =
      error_of([&] { saltus::model::set_runtime_parameter(*built.model, "e", 1.5); });
  EXPECT_NE(invalid.find("bouncing_rod.toml"), std::string::npos) << invalid;
  EXPECT_NE(invalid.find("contact 'tip'"), std::string::npos) << invalid;
  EXPECT_NE(invalid.find("restitution e = 1.5 is outside [0, 1]"), std::string::npos) << invalid;
  // The rod's modes were compiled with friction: mu = 0 would need its frictionless modes.
  const std::string frictionless =
      error_of([&] { saltus::model::set_runtime_parameter(*built.model, "mu", 0.0); });
  EXPECT_NE(frictionless.find("bouncing_rod.toml"), std::string::npos) << frictionless;
  EXPECT_NE(frictionless.find("contact 'tip'"), std::string::npos) << frictionless;
  EXPECT_NE(frictionless.find("would make the contact frictionless"), std::string::npos)
      << frictionless;
  // Neither value was set: the run is the one with e = 0.4 and the file's mu.
  EXPECT_EQ(built.model->parameter_value(saltus::model::runtime_parameter_index(*built.model, "e")),
            0.4);
  EXPECT_EQ(
      built.model->parameter_value(saltus::model::runtime_parameter_index(*built.model, "mu")),
      0.3);
  saltus::model::simulate_model_run(built, start);
  expect_same_run(built, reloaded_run(text, "bouncing_rod.toml", {"e=0.4"}), "after refusals");
}

TEST(RuntimeContactLaws, SweepLoadsOnceAndLoadsAPointTheSystemCannotTake) {
  // mu = 0 is frictionless: that point loads its own model, the others set mu in the built one;
  // every point is the reloaded model's.
  saltus::run::SweepSpec spec;
  spec.model_file = models_dir() / "bouncing_rod.toml";
  spec.axes = {saltus::run::parse_sweep_axis("mu=0:0.6:4")};
  spec.collect = {"events.count", "t_final", "final.x", "final.theta"};
  EXPECT_TRUE(saltus::run::SweepPlan(spec).loads_once());
  const saltus::run::SweepResult swept = saltus::run::run_sweep(spec, 1);
  ASSERT_EQ(swept.points.size(), 4u);
  const std::string text = file_text("bouncing_rod.toml");
  for (const saltus::run::SweepPoint& p : swept.points) {
    const ModelRun run = reloaded_run(text, "bouncing_rod.toml", {"mu=" + num(p.values[0])});
    EXPECT_EQ(p.status, run.status()) << p.values[0];
    ASSERT_EQ(p.collected.size(), 4u);
    EXPECT_EQ(p.collected[0], static_cast<double>(run.result.summary.jumps)) << p.values[0];
    EXPECT_TRUE(same_value(p.collected[1], run.result.summary.t_final)) << p.values[0];
    EXPECT_TRUE(same_value(p.collected[2], run.result.x_final[0])) << p.values[0];
    EXPECT_TRUE(same_value(p.collected[3], run.result.x_final[2])) << p.values[0];
  }
}

TEST(RuntimeContactLaws, CoefficientsThatCannotFollowAreRefusedAtLoad) {
  const auto load = [](const std::string& text, const std::vector<std::string>& names) {
    LoadOptions options;
    options.runtime_parameters = names;
    return error_of([&] { (void)saltus::model::load_model_text(text, "bad.toml", {}, options); });
  };
  const std::string compliant = R"([parameters]
k = 1e4
[coordinates]
y = { initial = 1.0 }
[mechanics]
kinetic_energy = "0.5*y'^2"
potential_energy = "9.81*y"
[[contacts]]
name = "floor"
gap = "y"
law = "linear_spring"
k = "k"
)";
  const std::string refused = load(compliant, {"k"});
  EXPECT_NE(refused.find("bad.toml:12"), std::string::npos) << refused;
  EXPECT_NE(refused.find("reads run-time parameter 'k'"), std::string::npos) << refused;
  // A rigid law's coefficient reads parameters only: not a coordinate.
  const std::string rigid = R"([parameters]
e = 0.5
[coordinates]
y = { initial = 1.0 }
[mechanics]
kinetic_energy = "0.5*y'^2"
potential_energy = "9.81*y"
[[contacts]]
name = "floor"
gap = "y"
e = "e*y"
[solver]
t_end = 1.0
)";
  const std::string state = load(rigid, {"e"});
  EXPECT_NE(state.find("bad.toml:11"), std::string::npos) << state;
  EXPECT_NE(state.find("contact 'floor' e"), std::string::npos) << state;
  EXPECT_NE(state.find("'y'"), std::string::npos) << state;
  // The walls of a model with velocity constraints (the Chaplygin sleigh) take e when built.
  LoadOptions options;
  options.runtime_parameters = {"e"};
  const std::string sleigh = error_of([&] {
    (void)saltus::model::load_model_file(models_dir() / "chaplygin_sleigh.toml", {}, options);
  });
  EXPECT_NE(sleigh.find("chaplygin_sleigh.toml:41"), std::string::npos) << sleigh;
  EXPECT_NE(sleigh.find("reads run-time parameter 'e'"), std::string::npos) << sleigh;
}
