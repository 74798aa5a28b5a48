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

using namespace saltus::bridge;

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
    EXPECT_TRUE(r.bridge_log.stretches.empty());
    EXPECT_NEAR(r.result.summary.t_final, 1.0, 1e-6);
    EXPECT_EQ(r.result.events.size(), 0);
  }
}

// The classical Painleve rod (m = l = 1, J = 1/3, g = 9.81, tan th = 2, mu = 1.5 > 4/3) on the
// floor at rest normally, its tip sliding in -x at 1 m/s with thdot = 1 (no consistent motion):
// the run starts with a Moreau-Jean stretch at t0 (21 steps of 5.7e-7 s), named `name` (model,
// contact and body) with `force` on x.
std::string painleve_rod(const std::string& name, const std::string& force,
                         double sample_interval = 1e-3) {
  const double th = std::atan(2.0);
  return "[model]\nname = \"" + name +
         "\"\ntime_unit = \"s\"\n[parameters]\nm = 1.0\nl = 1.0\nJ = \"m*l^2/3\"\n"
         "[coordinates]\nx = { initial = 0.0, velocity = " +
         num(-1.0 - std::sin(th)) + " }\ny = { initial = \"l*sin(" + num(th) +
         ")\", velocity = " + num(std::cos(th)) + " }\ntheta = { initial = " + num(th) +
         ", velocity = 1.0 }\n[mechanics]\nkinetic_energy = \"0.5*m*(x'^2 + y'^2) + "
         "0.5*J*theta'^2\"\npotential_energy = \"9.81*m*y\"\n" +
         force + "[[contacts]]\nname = \"" + name + "\"\nbody = \"" + name +
         "\"\ngap = \"y - l*sin(theta)\"\ntangent = \"x - l*cos(theta)\"\n"
         "law = \"routh_poisson\"\ne = 0.0\nmu = 1.5\n[solver]\nt_end = 0.2\n"
         "integrator = \"dop853\"\nrtol = 1e-12\natol = 1e-14\n[output]\n"
         "sample_interval = " +
         num(sample_interval) + "\n";
}

ModelRun run_text(const std::string& text, const std::string& file) {
  return run_model(std::make_shared<const Model>(load_model_text(text, file)));
}

// The rod's applied force turns NaN 5e-6 s into its first stretch. The stretch's step threw (the
// impact LCP of a NaN velocity), which escaped the bridge: `saltus run` said "nothing was run"
// and the work before was lost. Now the run ends with a failure status naming the bridge and the
// time, its stretch's start record and samples kept.
TEST(BridgeStops, ANanForceInsideAStretchEndsTheRunWithItsEventsKept) {
  const std::string nan_force = "forces = { x = \"1e-300*sqrt(5e-6 - t)\" }\n";
  const ModelRun r = run_text(painleve_rod("rod", nan_force, 1e-6), "rod.toml");
  EXPECT_FALSE(r.succeeded());
  EXPECT_TRUE(r.result.termination() == Termination::ModelError ||
              r.result.termination() == Termination::NonFiniteState)
      << r.status();
  EXPECT_NE(r.message().find("Moreau-Jean"), std::string::npos) << r.message();
  ASSERT_GE(r.result.events.size(), 1);
  EXPECT_EQ(r.result.events[0].guard, kBridgeStartGuard);
  EXPECT_EQ(r.result.events[0].t, 0.0);
  EXPECT_GE(r.result.summary.t_final, 0.0);
  EXPECT_LE(r.result.summary.t_final, 5e-6);
  EXPECT_GE(r.result.trajectory.size(), 4);  // samples every 1e-6 s inside the stretch
  for (long i = 0; i < r.result.trajectory.size(); ++i) {
    EXPECT_TRUE(r.result.trajectory.x(i).allFinite()) << "sample " << i;
  }
}

// The README ball, and the Painleve rod, with their floor, body and model named after the
// bridge's causes. The bridge read its cause from the message, which carries these names: a floor
// named "Routh" turned a NaN force's non-finite-state into a bridged run ending end-time-reached
// with NaN states, a contact "Painleve_right" a reset-failed into a stretch. Now it decides on
// typed causes: every name gives the same run.
ModelRun named_ball(const std::string& name, const std::string& force) {
  const std::string text = "[model]\nname = \"" + name +
                           "\"\n[coordinates]\ny = { initial = 1.0 }\n[mechanics]\n"
                           "kinetic_energy = \"0.5*y'^2\"\npotential_energy = \"9.81*y\"\n" +
                           force + "[[contacts]]\nname = \"" + name + "\"\nbody = \"" + name +
                           "\"\ngap = \"y\"\ne = 0.8\n[solver]\nt_end = 5.0\n";
  return run_text(text, name + ".toml");
}

TEST(BridgeStops, NamesDoNotDecide) {
  // A force that turns NaN in free flight after the 5th impact (t5 = 2.5842), and the rod's
  // stretch at t0.
  const std::string nan_force = "forces = { y = \"1e-300*sqrt(2.6 - t)\" }\n";
  const ModelRun nan_base = named_ball("floor", nan_force);
  const ModelRun rod_base = run_text(painleve_rod("tip", ""), "tip.toml");
  EXPECT_EQ(nan_base.result.termination(), Termination::NonFiniteState) << nan_base.message();
  EXPECT_TRUE(nan_base.bridge_log.stretches.empty());
  EXPECT_TRUE(rod_base.succeeded()) << rod_base.message();
  EXPECT_FALSE(rod_base.bridge_log.stretches.empty());
  for (const std::string name : {"Routh", "Painleve", "Painleve_right", "Zeno_limit_state",
                                 "compression_cannot_end", "impact_LCP"}) {
    SCOPED_TRACE(name);
    const ModelRun nan_named = named_ball(name, nan_force);
    EXPECT_EQ(nan_named.result.termination(), nan_base.result.termination()) << nan_named.message();
    EXPECT_EQ(nan_named.bridge_log.stretches.size(), nan_base.bridge_log.stretches.size());
    EXPECT_EQ(nan_named.result.events.size(), nan_base.result.events.size());
    const ModelRun rod_named = run_text(painleve_rod(name, ""), name + ".toml");
    EXPECT_EQ(rod_named.result.termination(), rod_base.result.termination()) << rod_named.message();
    EXPECT_EQ(rod_named.bridge_log.stretches.size(), rod_base.bridge_log.stretches.size());
    EXPECT_EQ(rod_named.result.events.size(), rod_base.result.events.size());
    EXPECT_EQ(rod_named.result.x_final, rod_base.result.x_final);
  }
}

// events.max_events is run-wide (issue 44 item 3): the README ball capped at 5 events took 165
// impacts and 33 stretches (each event-driven piece had its own 5) and ended end-time-reached
// inside a stretch 4e-9 m below the floor. Now the 6th event ends the run with event-cap, named
// as the run's cap, the five impacts kept at their closed form.
TEST(BridgeStops, TheEventCapIsTheRunsAndEndsIt) {
  const double g = 9.81, e = 0.8, t1 = std::sqrt(2.0 / g);
  const ModelRun r = run_text(
      "[coordinates]\ny = { initial = 1.0 }\n[mechanics]\nkinetic_energy = \"0.5*y'^2\"\n"
      "potential_energy = \"9.81*y\"\n[[contacts]]\ngap = \"y\"\ne = 0.8\n[solver]\n"
      "t_end = 5.0\nmax_events = 5\n",
      "capped_ball.toml");
  EXPECT_EQ(r.result.termination(), Termination::EventCap) << r.message();
  EXPECT_NE(r.message().find("events.max_events = 5 reached"), std::string::npos) << r.message();
  EXPECT_TRUE(r.bridge_log.stretches.empty());
  ASSERT_EQ(r.result.events.size(), 5);
  double t_k = t1;
  for (long i = 0; i < 5; ++i) {
    EXPECT_NEAR(r.result.events[i].t, t_k, 1e-9);
    t_k += 2.0 * std::pow(e, static_cast<double>(i + 1)) * t1;
  }
  EXPECT_NEAR(r.result.summary.t_final, t_k, 1e-9);  // the 6th impact's time: not applied
}

}  // namespace
}  // namespace saltus::model
