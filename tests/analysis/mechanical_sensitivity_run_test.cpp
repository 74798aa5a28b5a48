// The run that flow_map_sensitivity differentiates for a mechanical model is the run `saltus run`
// makes: the same events and final state, through a Zeno hand-over too (the rocking block, the
// stacked balls). A one-pass integration of (x, Phi) tried for mechanical models (their modes are
// ODEs of one dimension) lost the stacked balls' impacts after the third: the simulator's guard
// band scales with the whole integrated state, and Phi grew to 1e12. So mechanical models stay
// in two passes (the run, then each arc); this test keeps them honest. The rod's flow-map
// Jacobian also against central differences of whole runs.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "flow_map_differences.hpp"
#include "saltus/analysis/hybrid_sensitivity.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::analysis {
namespace {

using saltus::testing::flow_map_by_differences;
using saltus::testing::models_dir;
using saltus::testing::relative_difference;

struct Loaded {
  std::shared_ptr<const model::Model> model;
  model::ModelRun run;
  model::ModelStart start;
};

Loaded load(const std::string& file, const std::vector<std::string>& overrides) {
  Loaded l;
  l.model =
      std::make_shared<const model::Model>(model::load_model_file(models_dir() / file, overrides));
  l.start = model::prepare_model_run(l.model, l.run);
  return l;
}

FlowMapSensitivity differentiate(const Loaded& m) {
  SaltationOptions allowed;
  allowed.allow_numerical_derivatives = true;  // the impact laws have no Jacobian
  const model::Model& mo = *m.model;
  return flow_map_sensitivity(m.run.system, m.start.mode, mo.t_start, m.start.x0, mo.t_end,
                              mo.options, m.start.z0, allowed);
}

TEST(MechanicalSensitivityRun, IsThePlainRun) {
  const std::vector<std::pair<std::string, SensitivityStatus>> cases = {
      {"rocking_block.toml", SensitivityStatus::ZenoPoint},
      {"stacked_balls.toml", SensitivityStatus::ZenoPoint},
      {"painleve_rounded_rod.toml", SensitivityStatus::Ok},
      {"bouncing_rod.toml", SensitivityStatus::Ok}};
  for (const auto& [file, status] : cases) {
    SCOPED_TRACE(file);
    const Loaded m = load(file, {});
    const FlowMapSensitivity s = differentiate(m);
    EXPECT_EQ(s.status, status) << s.message;
    const model::ModelRun plain = model::run_model(m.model);
    EXPECT_EQ(s.run.events.size(), plain.result.events.size());
    EXPECT_EQ(s.run.t_final, plain.result.t_final);
    EXPECT_EQ(s.run.x_final, plain.result.x_final);
  }
}

TEST(MechanicalSensitivityRun, RodAgainstDifferences) {
  const Loaded m = load("bouncing_rod.toml", {"rtol=1e-12", "atol=1e-14", "t_end=0.5"});
  const FlowMapSensitivity s = differentiate(m);
  ASSERT_TRUE(s.ok()) << s.message;
  ASSERT_EQ(s.events.size(), 1u);
  const model::Model& mo = *m.model;
  const Matrix fd = flow_map_by_differences(m.run.system, m.start.mode, mo.t_start, m.start.x0,
                                            mo.t_end, mo.options);
  EXPECT_LE(relative_difference(s.flow_map_jacobian, fd), 2e-7) << s.flow_map_jacobian << "\nvs\n"
                                                                << fd;
}

}  // namespace
}  // namespace saltus::analysis
