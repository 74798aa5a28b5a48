// Run-time parameters (LoadOptions::runtime_parameters, model/runtime_parameters.hpp): a model
// loaded once and run after set_runtime_parameter gives, bit for bit (up to the sign of a zero),
// the run of the model loaded with that value as an override (explicit and mechanical models,
// hand-picked and seeded random values); the sweep's two paths agree; values computed from a
// run-time parameter at load time are refused with the file, line and cause.
#include "saltus/model/runtime_parameters.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/run_outputs.hpp"
#include "saltus/run/sweep.hpp"
#include "support/model_files.hpp"

namespace {

using saltus::model::LoadOptions;
using saltus::model::Model;
using saltus::model::ModelRun;
using saltus::testing::models_dir;
using saltus::testing::num;

// Bit for bit, except the sign of a zero: with e folded to 0 the reset -e*v is the constant 0,
// with e at run time it is -0 * v, which is -0 for v > 0.
bool same_value(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0 || (a == 0.0 && b == 0.0);
}

// `csv` with every -0 cell written 0.
std::string unsigned_zeros(std::string csv) {
  for (const char* from : {",-0,", ",-0\n"}) {
    const std::string f = from;
    const std::string to = "," + f.substr(2);
    for (size_t at; (at = csv.find(f)) != std::string::npos;) csv.replace(at, f.size(), to);
  }
  return csv;
}

// Two runs are the same run: status, jumps, every event time and state, every sample.
void expect_same_run(const ModelRun& a, const ModelRun& b, const std::string& what) {
  EXPECT_EQ(a.status(), b.status()) << what;
  EXPECT_EQ(a.result.summary.jumps, b.result.summary.jumps) << what;
  EXPECT_TRUE(same_value(a.result.summary.zeno_time, b.result.summary.zeno_time)) << what;
  ASSERT_EQ(a.result.x_final.size(), b.result.x_final.size()) << what;
  for (Eigen::Index i = 0; i < a.result.x_final.size(); ++i) {
    EXPECT_TRUE(same_value(a.result.x_final[i], b.result.x_final[i]))
        << what << ": x_final[" << i << "] " << a.result.x_final[i] << " vs "
        << b.result.x_final[i];
  }
  EXPECT_EQ(unsigned_zeros(saltus::run::model_trajectory_csv(a)),
            unsigned_zeros(saltus::run::model_trajectory_csv(b)))
      << what;
  EXPECT_EQ(unsigned_zeros(saltus::run::model_events_csv(a)),
            unsigned_zeros(saltus::run::model_events_csv(b)))
      << what;
}

// The model of `file` loaded with `names` kept at run time.
std::shared_ptr<const Model> runtime_model(const std::string& file,
                                           const std::vector<std::string>& names,
                                           const std::vector<std::string>& overrides = {}) {
  LoadOptions options;
  options.runtime_parameters = names;
  return std::make_shared<const Model>(
      saltus::model::load_model_file(models_dir() / file, overrides, options));
}

ModelRun reloaded_run(const std::string& file, std::vector<std::string> overrides) {
  return saltus::model::run_model(std::make_shared<const Model>(
      saltus::model::load_model_file(models_dir() / file, overrides)));
}

// Runs `file` built once with `name` at run time at each of `values`, against a reload per value.
void expect_runtime_equals_reload(const std::string& file, const std::string& name,
                                  const std::vector<double>& values,
                                  const std::vector<std::string>& overrides = {}) {
  ModelRun built;
  const saltus::model::ModelStart start =
      saltus::model::prepare_model_run(runtime_model(file, {name}, overrides), built);
  for (double v : values) {
    saltus::model::set_runtime_parameter(*built.model, name, v);
    saltus::model::simulate_model_run(built, start);
    std::vector<std::string> with = overrides;
    with.push_back(name + "=" + num(v));
    expect_same_run(built, reloaded_run(file, with), file + " " + name + "=" + num(v));
  }
}

std::string load_error(const std::string& text, const std::vector<std::string>& names) {
  LoadOptions options;
  options.runtime_parameters = names;
  try {
    (void)saltus::model::load_model_text(text, "bad.toml", {}, options);
  } catch (const saltus::Error& e) {
    return e.what();
  }
  return "";
}

const char* kBall = R"(
[parameters]
g = 9.81
e = 0.8
k = "2*e"
[states]
x = { initial = 1.0 }
v = { initial = "e" }
[modes.fly]
flow = ["x' = v", "v' = -g"]
[[modes.fly.guards]]
name = "floor"
value = "-x"
direction = "rising"
reset = ["v = -e*v"]
[solver]
t_end = 1.0
)";

}  // namespace

TEST(RuntimeParameters, BallRunAfterASetEqualsTheReloadedModelBitForBit) {
  // e in the reset, 0 and 1 included (where folding would simplify e*v).
  expect_runtime_equals_reload("bouncing_ball.toml", "e", {0.8, 0.05, 0.0, 0.5, 1.0, 0.95});
  expect_runtime_equals_reload("bouncing_ball.toml", "g", {9.81, 1.0, 20.0});
}

TEST(RuntimeParameters, MechanicalModelsFollowANewValueOfAParameterOfTheirEnergies) {
  // g only in the potential energy: M(q), h and the impact maps are derived with g a leaf.
  expect_runtime_equals_reload("bouncing_rod.toml", "g", {9.81, 3.0, 15.0});
  expect_runtime_equals_reload("rocking_block.toml", "g", {9.81, 4.0});
}

TEST(RuntimeParameters, SeededRandomValuesGiveTheReloadedRunOnEveryModelParameter) {
  std::mt19937_64 draw(20261124);
  std::uniform_real_distribution<double> e(0.0, 0.99), g(0.5, 30.0);
  std::vector<double> es, gs;
  for (int i = 0; i < 6; ++i) {
    es.push_back(e(draw));
    gs.push_back(g(draw));
  }
  expect_runtime_equals_reload("bouncing_ball.toml", "e", es);
  expect_runtime_equals_reload("bouncing_ball.toml", "g", gs);
  expect_runtime_equals_reload("jumping_ball.toml", "g", {gs[0], gs[1]});
}

TEST(RuntimeParameters, SummaryShowsTheValueTheRunWasMadeWith) {
  ModelRun run;
  const auto start =
      saltus::model::prepare_model_run(runtime_model("bouncing_ball.toml", {"e"}), run);
  saltus::model::set_runtime_parameter(*run.model, "e", 0.25);
  saltus::model::simulate_model_run(run, start);
  const std::string json = saltus::run::summary_json(run);
  EXPECT_NE(json.find("\"value\": 0.25"), std::string::npos) << json;
  EXPECT_EQ(run.model->parameter_value(run.model->runtime_parameters[0]), 0.25);
  // A later value does not rewrite what the run was made with.
  saltus::model::set_runtime_parameter(*run.model, "e", 0.5);
  EXPECT_EQ(saltus::run::summary_json(run), json);
}

TEST(RuntimeParameters, SweepThroughRunTimeParametersEqualsOneModelPerPoint) {
  // The sweep keeps e at run time; the same points as their own models (--set e=...).
  saltus::run::SweepSpec spec;
  spec.model_file = models_dir() / "bouncing_ball.toml";
  spec.axes = {saltus::run::parse_sweep_axis("e=0:0.95:9"),
               saltus::run::parse_sweep_axis("g=5:15:2")};
  spec.collect = {"zeno_time", "events.count", "t_final", "final.v"};
  EXPECT_TRUE(saltus::run::SweepPlan(spec).loads_once());
  const saltus::run::SweepResult swept = saltus::run::run_sweep(spec, 2);
  ASSERT_EQ(swept.points.size(), 18u);
  for (const saltus::run::SweepPoint& p : swept.points) {
    const ModelRun run =
        reloaded_run("bouncing_ball.toml", {"e=" + num(p.values[0]), "g=" + num(p.values[1])});
    EXPECT_EQ(p.status, run.status());
    ASSERT_EQ(p.collected.size(), 4u);
    EXPECT_TRUE(same_value(p.collected[0], run.result.summary.zeno_time)) << p.values[0];
    EXPECT_EQ(p.collected[1], static_cast<double>(run.result.summary.jumps)) << p.values[0];
    EXPECT_TRUE(same_value(p.collected[2], run.result.summary.t_final)) << p.values[0];
    EXPECT_TRUE(same_value(p.collected[3], run.result.x_final[1])) << p.values[0];
  }
  // h0 is the initial value of x, read when the model loads: that sweep loads the model per
  // point. A rigid contact's e follows a run-time parameter (runtime_contact_laws_test.cpp).
  spec.axes = {saltus::run::parse_sweep_axis("h0=0.5:1:2")};
  EXPECT_FALSE(saltus::run::SweepPlan(spec).loads_once());
  spec.model_file = models_dir() / "bouncing_rod.toml";
  spec.axes = {saltus::run::parse_sweep_axis("e=0.5:1:2")};
  spec.collect = {"t_final"};
  EXPECT_TRUE(saltus::run::SweepPlan(spec).loads_once());
}

TEST(RuntimeParameters, ValuesComputedFromOneWhenLoadingAreRefused) {
  // k = 2*e, v0 = e: both would keep the loaded e.
  const std::string both = load_error(kBall, {"e"});
  EXPECT_NE(both.find("bad.toml:"), std::string::npos) << both;
  EXPECT_NE(both.find("parameter 'k' is computed from run-time parameter 'e'"), std::string::npos)
      << both;
  EXPECT_NE(both.find("reads run-time parameter 'e'"), std::string::npos) << both;
  // g is read only by the flow: fine.
  EXPECT_EQ(load_error(kBall, {"g"}), "");
  EXPECT_NE(load_error(kBall, {"nope"}).find("no parameter 'nope' to keep at run time"),
            std::string::npos);
}

TEST(RuntimeParameters, SettingAnUnknownOrNonFiniteValueIsRefused) {
  const auto m = runtime_model("bouncing_ball.toml", {"e"});
  try {
    saltus::model::set_runtime_parameter(*m, "g", 1.0);
    ADD_FAILURE() << "g is not run-time here";
  } catch (const saltus::Error& e) {
    EXPECT_NE(std::string(e.what()).find("run-time parameters: e"), std::string::npos) << e.what();
  }
  EXPECT_THROW(saltus::model::set_runtime_parameter(*m, "e", std::nan("")), saltus::Error);
  EXPECT_EQ(saltus::model::runtime_parameter_index(*m, "e"), 1);
  EXPECT_EQ(saltus::model::runtime_parameter_index(*m, "g"), -1);
}
