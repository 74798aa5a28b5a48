// Mechanical models (Zeno hand-overs, contact modes kept on their manifold by projection) are
// differentiated in one pass: the same events and matrices as two passes, the rod's flow-map
// Jacobian against central differences of whole runs, and a run that reaches a Zeno point keeps
// going through its hand-over (the two-pass path takes over) with status zeno point.
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

// The system with an unreachable mode of another dimension: flow_map_sensitivity then takes
// the two-pass path (the run, then every arc again).
HybridSystem forced_two_pass(HybridSystem sys) {
  sys.add_mode("unreached",
               ode_flow(1, [](const auto&, const auto& x, auto& xd) { xd[0] = 0.0 * x[0]; }));
  return sys;
}

TEST(MechanicalOnePass, AgreesWithTwoPassesAndDifferences) {
  SaltationOptions allowed;
  allowed.allow_numerical_derivatives = true;  // the impact and stick laws have no Jacobian
  // The rod's impacts (free flight, hand-over present); the rounded rod sliding into stick (a
  // contact mode with its projection).
  // The rounded rod starts on its contact, so a perturbation of its normal velocity leaves the
  // contact manifold (lift-off or penetration): no central differences there, and none for it.
  for (const char* file : {"bouncing_rod.toml", "painleve_rounded_rod.toml"}) {
    SCOPED_TRACE(file);
    const bool rod = std::string(file) == "bouncing_rod.toml";
    std::vector<std::string> overrides = {"rtol=1e-12", "atol=1e-14"};
    if (rod) overrides.push_back("t_end=0.5");  // one impact: differences stay at ~1e-8
    const Loaded m = load(file, overrides);
    const model::Model& mo = *m.model;
    const FlowMapSensitivity a =
        flow_map_sensitivity(m.run.system, m.start.mode, mo.t_start, m.start.x0, mo.t_end,
                             mo.options, m.start.z0, allowed);
    const FlowMapSensitivity b =
        flow_map_sensitivity(forced_two_pass(m.run.system), m.start.mode, mo.t_start, m.start.x0,
                             mo.t_end, mo.options, m.start.z0, allowed);
    ASSERT_TRUE(a.ok()) << a.message;
    ASSERT_TRUE(b.ok()) << b.message;
    EXPECT_EQ(a.arc_state_mismatch, 0.0);  // one pass
    EXPECT_GT(b.arc_state_mismatch, 0.0);  // two passes
    ASSERT_EQ(a.events.size(), b.events.size());
    ASSERT_GE(a.events.size(), 1u);
    for (size_t k = 0; k < a.events.size(); ++k) {
      EXPECT_NEAR(a.events[k].t, b.events[k].t, 1e-9);
      EXPECT_LE(relative_difference(a.events[k].saltation, b.events[k].saltation), 1e-8);
    }
    EXPECT_LE(relative_difference(a.flow_map_jacobian, b.flow_map_jacobian), 1e-8);
    if (!rod) continue;
    const Matrix fd = flow_map_by_differences(m.run.system, m.start.mode, mo.t_start, m.start.x0,
                                              mo.t_end, mo.options);
    EXPECT_LE(relative_difference(a.flow_map_jacobian, fd), 2e-7) << a.flow_map_jacobian << "\nvs\n"
                                                                  << fd;
  }
}

TEST(MechanicalOnePass, ZenoPointRunsThroughTheHandover) {
  // The rocking block settles (an accumulation of impacts, then its hand-over): no derivative,
  // and the run reported is the whole run to t_end as `saltus run` gives it.
  const Loaded m = load("rocking_block.toml", {});
  const model::Model& mo = *m.model;
  SaltationOptions allowed;
  allowed.allow_numerical_derivatives = true;
  const FlowMapSensitivity s =
      flow_map_sensitivity(m.run.system, m.start.mode, mo.t_start, m.start.x0, mo.t_end, mo.options,
                           m.start.z0, allowed);
  EXPECT_EQ(s.status, SensitivityStatus::ZenoPoint) << s.message;
  EXPECT_NEAR(s.run.t_final, mo.t_end, 1e-12);
  const model::ModelRun plain = model::run_model(m.model);
  EXPECT_EQ(s.run.events.size(), plain.result.events.size());
  EXPECT_NEAR(s.run.t_final, plain.result.t_final, 1e-12);
}

}  // namespace
}  // namespace saltus::analysis
