// Model files with [mechanics] constraints (linear in the velocities): models/chaplygin_sleigh.toml
// and models/vertical_disk.toml run the same trajectories as the C++ catalogue's systems
// (systems/nonholonomic_billiards.hpp), keep energy and the constraints with elastic walls, and
// malformed constraints are refused with file:line and cause.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/sim/simulator.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

std::shared_ptr<const Model> model_file(const std::string& name,
                                        const std::vector<std::string>& sets) {
  return std::make_shared<const Model>(load_model_file(models_dir() / name, sets));
}

// The file's run against the catalogue model's from the same state and solver options: the same
// equations, evaluated by tapes vs C++ (different roundings), at rtol 1e-10.
void expect_same_run(const ModelRun& run, const mech::NonholonomicModel& model) {
  ASSERT_TRUE(run.succeeded()) << run.message();
  const auto compiled = model.compile();
  const Vector x0 = run.model->initial_state();
  const SimulationResult ref = simulate(compiled.system, compiled.initial_mode(x0), 0.0, x0,
                                        run.model->t_end, run.model->options);
  ASSERT_EQ(ref.termination(), Termination::EndTimeReached);
  const EventLog& a = run.result.events;
  const EventLog& b = ref.events;
  ASSERT_GE(a.size(), 2);
  ASSERT_EQ(a.size(), b.size());
  for (long i = 0; i < a.size(); ++i) {
    EXPECT_EQ(run.system.mode(a[i].mode_before).guards[static_cast<size_t>(a[i].guard)].name,
              compiled.system.mode(b[i].mode_before).guards[static_cast<size_t>(b[i].guard)].name);
    EXPECT_NEAR(a[i].t, b[i].t, 1e-8) << "impact " << i;
    EXPECT_LE((a.x_after(i) - b.x_after(i)).cwiseAbs().maxCoeff(), 1e-7) << "impact " << i;
    // Elastic walls keep T, and the constraints hold after every impact.
    const int n = model.dof();
    const auto s = a.x_after(i);
    EXPECT_NEAR(model.kinetic_energy(s.head(n), s.tail(n)),
                model.kinetic_energy(x0.head(n), x0.tail(n)), 1e-8);
    EXPECT_LE(model.constraint_values(s.head(n), s.tail(n)).cwiseAbs().maxCoeff(), 1e-8);
  }
}

TEST(VelocityConstraintsModel, SleighAndDiskFilesMatchTheCatalogueSystems) {
  std::mt19937 rng(20261124);
  std::uniform_real_distribution<double> heading(-3.0, 3.0), speed(0.5, 1.5);
  const systems::EllipticTable table{2.0, 1.0};
  for (int trial = 0; trial < 4; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const std::string theta0 = num(heading(rng)), v0 = num(speed(rng));
    expect_same_run(
        run_model(model_file("chaplygin_sleigh.toml", {"theta0=" + theta0, "v0=" + v0, "t_end=6"})),
        systems::chaplygin_sleigh({1.0, 0.1, 0.3, 0.3}, table));
    expect_same_run(
        run_model(model_file("vertical_disk.toml",
                             {"phi0=" + theta0, "omega0=" + num(5 * speed(rng)), "t_end=6"})),
        systems::vertical_disk({1.0, 0.2, 0.02, 0.01}, table));
  }
}

TEST(VelocityConstraintsModel, MalformedConstraintsNameFileLineAndCause) {
  const std::string head =
      "[coordinates]\nx = { initial = 0.0, velocity = 1.0 }\ny = { initial = 0.0 }\n"
      "theta = { initial = 0.0 }\n[mechanics]\n"
      "kinetic_energy = \"0.5*(x'^2 + y'^2 + theta'^2)\"\n";
  const std::string tail = "[solver]\nt_end = 1.0\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"constraints = { c = \"x'^2\" }\n", "not linear in the velocities"},
      {"constraints = { c = \"y' - 1\" }\n", "at zero velocity"},
      {"constraints = { c = \"x\" }\n", "does not depend on the velocities"},
      {"constraints = { c = \"t*x'\" }\n", "depends on t"},
      {"constraints = [\"x'\"]\n", "expected a table"},
      {"constraints = { c = \"y'\" }\n[[contacts]]\ngap = \"1 - x\"\nlaw = \"routh_poisson\"\n"
       "e = 1.0\nmu = 0.2\ntangent = \"y\"\n",
       "expected law = \"newton\" without tangent"},
      {"constraints = { c = \"x'\" }\n", "violat"},  // x' = 1 at the start
  };
  for (const auto& [text, cause] : cases) {
    try {
      const auto m = std::make_shared<const Model>(load_model_text(head + text + tail, "bad.toml"));
      (void)run_model(m);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(cause), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace saltus::model
