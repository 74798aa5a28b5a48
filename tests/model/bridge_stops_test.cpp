// Stops the Moreau-Jean bridge must not step over (issue 44): a stop that is no contact's stands
// with its status, whatever the painleve policy.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::num;

// x'' = x'^2 from x' = 1: x' = 1 / (1 - t), no solution past t = 1, with a wall at x = 100
// that x = -ln(1 - t) reaches only 1e-43 s before the singularity. The engine stops with a
// step-size underflow at t = 1; with nothing touching there, the bridge used to step over it
// (a stretch from t = 1 to t_end: x' = +2e13 before, -10 after; status end-time-reached,
// exit 0).
TEST(BridgeStops, AFlowWithoutASolutionPastTOneIsNotSteppedOver) {
  for (const char* policy : {"bridge", "stop"}) {
    const std::string text = std::string(
                                 "[model]\nname = \"blow_up\"\ntime_unit = \"s\"\n"
                                 "[parameters]\nm = 1.0\n"
                                 "[coordinates]\nx = { initial = 0.0, velocity = 1.0 }\n"
                                 "[mechanics]\nkinetic_energy = \"0.5*m*x'^2\"\n"
                                 "forces = { x = \"m*x'^2\" }\npainleve = \"") +
                             policy +
                             "\"\n[[contacts]]\nname = \"wall\"\nbody = \"particle\"\n"
                             "gap = \"100 - x\"\nlaw = \"newton\"\ne = 0.5\n"
                             "[solver]\nt_end = 2.0\n";
    SCOPED_TRACE(policy);
    const ModelRun r =
        run_model(std::make_shared<const Model>(load_model_text(text, "blow_up.toml")));
    EXPECT_FALSE(r.succeeded());
    EXPECT_EQ(r.result.termination(), Termination::StepSizeUnderflow) << r.message();
    EXPECT_TRUE(r.stretches.empty());
    EXPECT_NEAR(r.result.summary.t_final, 1.0, 1e-6);
    EXPECT_EQ(r.result.events.size(), 0);
  }
}

}  // namespace
}  // namespace saltus::model
