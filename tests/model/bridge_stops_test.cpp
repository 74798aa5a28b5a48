// Stops the Moreau-Jean bridge must not step over or lose (issue 44): a stop that is no
// contact's stands with its status, whatever the painleve policy; a failure inside a stretch
// ends the run with a status, the work before it kept.
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

// The README ball capped at 5 events: the 6th impact (t6, closed form) starts a Moreau-Jean
// stretch, and its applied force turns NaN 1e-5 s later, inside the stretch. The stretch's
// step threw (the impact LCP of a NaN velocity), which escaped the bridge: `saltus run` said
// "nothing was run" and the five impacts were lost. Now the run ends with a failure status
// naming the bridge and the time, its events and samples kept.
TEST(BridgeStops, ANanForceInsideAStretchEndsTheRunWithItsEventsKept) {
  const double g = 9.81, e = 0.8, t1 = std::sqrt(2.0 / g);
  double t6 = t1;
  for (int k = 1; k <= 5; ++k) t6 += 2.0 * std::pow(e, k) * t1;
  const double t_nan = t6 + 1e-5;
  const std::string text =
      "[coordinates]\ny = { initial = 1.0 }\n[mechanics]\nkinetic_energy = \"0.5*y'^2\"\n"
      "potential_energy = \"9.81*y\"\nforces = { y = \"1e-300*sqrt(" +
      num(t_nan) +
      " - t)\" }\n[[contacts]]\ngap = \"y\"\ne = 0.8\n[solver]\nt_end = 5.0\nmax_events = 5\n";
  const ModelRun r =
      run_model(std::make_shared<const Model>(load_model_text(text, "capped_ball.toml")));
  EXPECT_FALSE(r.succeeded());
  EXPECT_TRUE(r.result.termination() == Termination::ModelError ||
              r.result.termination() == Termination::NonFiniteState)
      << r.status();
  EXPECT_NE(r.message().find("Moreau-Jean"), std::string::npos) << r.message();
  // The five impacts (at their closed form) and the stretch's start are kept.
  const EventLog& log = r.result.events;
  ASSERT_GE(log.size(), 6);
  double t_k = t1;
  for (long i = 0; i < 5; ++i) {
    EXPECT_NEAR(log[i].t, t_k, 1e-9);
    t_k += 2.0 * std::pow(e, static_cast<double>(i + 1)) * t1;
  }
  EXPECT_NEAR(log[5].t, t6, 1e-9);
  EXPECT_GE(r.result.summary.t_final, t6 - 1e-9);
  EXPECT_LE(r.result.summary.t_final, t_nan);
  EXPECT_GT(r.result.trajectory.size(), 10);
}

// The README ball with its floor, body and model named after the bridge's causes. The bridge
// read its cause from the message, which carries these names: a floor named "Routh" turned a
// NaN force's non-finite-state into a bridged run ending end-time-reached with NaN states, a
// contact "Painleve_right" a reset-failed into a stretch. Now it decides on typed causes: every
// name gives the same run.
ModelRun named_ball(const std::string& name, const std::string& extra_solver,
                    const std::string& force) {
  const std::string text = "[model]\nname = \"" + name +
                           "\"\n[coordinates]\ny = { initial = 1.0 }\n[mechanics]\n"
                           "kinetic_energy = \"0.5*y'^2\"\npotential_energy = \"9.81*y\"\n" +
                           force + "[[contacts]]\nname = \"" + name + "\"\nbody = \"" + name +
                           "\"\ngap = \"y\"\ne = 0.8\n[solver]\nt_end = 5.0\n" + extra_solver;
  return run_model(std::make_shared<const Model>(load_model_text(text, name + ".toml")));
}

TEST(BridgeStops, NamesDoNotDecide) {
  // A force that turns NaN in free flight after the 5th impact (t5 = 2.5842), and the ball capped
  // at 5 events (a stretch at the 6th impact, where the ball touches).
  const std::string nan_force = "forces = { y = \"1e-300*sqrt(2.6 - t)\" }\n";
  const ModelRun nan_base = named_ball("floor", "", nan_force);
  const ModelRun cap_base = named_ball("floor", "max_events = 5\n", "");
  EXPECT_EQ(nan_base.result.termination(), Termination::NonFiniteState) << nan_base.message();
  EXPECT_TRUE(nan_base.stretches.empty());
  EXPECT_TRUE(cap_base.succeeded()) << cap_base.message();
  EXPECT_FALSE(cap_base.stretches.empty());
  for (const std::string name : {"Routh", "Painleve", "Painleve_right", "Zeno_limit_state",
                                 "compression_cannot_end", "impact_LCP"}) {
    SCOPED_TRACE(name);
    const ModelRun nan_named = named_ball(name, "", nan_force);
    EXPECT_EQ(nan_named.result.termination(), nan_base.result.termination()) << nan_named.message();
    EXPECT_EQ(nan_named.stretches.size(), nan_base.stretches.size());
    EXPECT_EQ(nan_named.result.events.size(), nan_base.result.events.size());
    const ModelRun cap_named = named_ball(name, "max_events = 5\n", "");
    EXPECT_EQ(cap_named.result.termination(), cap_base.result.termination()) << cap_named.message();
    EXPECT_EQ(cap_named.stretches.size(), cap_base.stretches.size());
    EXPECT_EQ(cap_named.result.events.size(), cap_base.result.events.size());
  }
}

}  // namespace
}  // namespace saltus::model
