// Steady vs spasmodic Zeno (Clark-Bloch Def. 12) on every zeno.* system of oracles.json, each
// built from its case's parameters: the ball, Example 2's wedge and Proposition 8 are steady;
// Examples 4, 5 and 6 are spasmodic. Both from the event log (analysis::classify_zeno) and from
// the simulator's report at the accumulation point (SimulationSummary::zeno_kind), and for the
// Zeno model files through `saltus run`'s entry point.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "saltus/analysis/zeno_classification.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/run_outputs.hpp"
#include "saltus/sim/simulator.hpp"
#include "saltus/systems/bouncing_ball.hpp"
#include "support/clark_bloch_example6.hpp"
#include "support/model_files.hpp"
#include "support/oracles.hpp"
#include "support/solver_options.hpp"
#include "support/vectors.hpp"

namespace saltus::analysis {
namespace {

using saltus::testing::oracle_cases;
using saltus::testing::vec;

SimulationOptions tight() {
  return saltus::testing::solver_options(1e-12, 1e-14);
}

// Classifies the run of each case (`run` reads the case) and checks the verdict; `cases` must
// not be empty.
void expect_kind(const std::vector<nlohmann::json>& cases, ZenoKind kind,
                 const std::function<SimulationResult(const nlohmann::json&)>& run,
                 const ZenoClassificationOptions& options = {}) {
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const SimulationResult r = run(c);
    const ZenoClassification z = classify_zeno(r.events, options);
    EXPECT_EQ(z.kind, kind) << c["id"] << ": " << to_string(z.kind) << ", " << z.evidence;
    ::testing::Test::RecordProperty(c["id"].get<std::string>(), z.evidence);
    // The simulator's own report at the accumulation point says the same.
    ASSERT_FALSE(std::isnan(r.summary.zeno_time)) << c["id"] << ": " << r.summary.message;
    EXPECT_EQ(r.summary.zeno_kind.kind, kind) << c["id"] << ": " << describe(r.summary.zeno_kind);
    if (kind == ZenoKind::Spasmodic) {
      EXPECT_GE(z.growth, 1.1) << z.evidence;
    } else {
      EXPECT_LE(z.last_size, 2.0 * z.first_size) << z.evidence;
    }
  }
}

Reset flip(ModeId m, int component, double factor) {
  return Reset::to(m, [component, factor](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
    xp = x;
    xp[component] = factor * x[component];
  });
}

Flow free_particle(double gravity) {
  return ode_flow(4, [gravity](const auto&, const auto& x, auto& xd) {
    xd[0] = x[2];
    xd[1] = x[3];
    xd[2] = 0.0;
    xd[3] = -gravity;
  });
}

TEST(ZenoClassification, BouncingBallIsSteady) {
  expect_kind(oracle_cases("zeno.bouncing_ball"), ZenoKind::Steady, [](const nlohmann::json& c) {
    const auto& p = c["parameters"];
    systems::BouncingBall ball;
    ball.g = p["g"];
    ball.e = p["e"];
    ball.with_rest_mode = false;
    const HybridSystem sys = ball.build();
    return simulate(sys, ball.flight, 0.0, vec({p["h0"], p["ydot0"]}), 100.0, tight());
  });
}

TEST(ZenoClassification, CrossReflectionIsSteady) {
  expect_kind(oracle_cases("zeno.cross_reflection"), ZenoKind::Steady, [](const nlohmann::json& c) {
    const auto& p = c["parameters"];
    HybridSystem sys;
    const ModeId m = sys.add_mode("free", free_particle(0.0));
    sys.add_guard(m, make_guard(
                         "upper", Direction::Rising,
                         [](const auto&, const auto& x, const auto&) { return x[1] - x[0]; },
                         flip(m, 3, -1.0)));
    sys.add_guard(m, make_guard(
                         "lower", Direction::Rising,
                         [](const auto&, const auto& x, const auto&) { return -x[1] - x[0]; },
                         flip(m, 3, -1.0)));
    return simulate(sys, m, 0.0, vec({p["x0"], p["y0"], p["xdot0"], p["ydot0"]}), 100.0, tight());
  });
}

TEST(ZenoClassification, Proposition8IsSteady) {
  expect_kind(
      oracle_cases("zeno.steady_elastic"), ZenoKind::Steady,
      [](const nlohmann::json& c) {
        const auto& p = c["parameters"];
        const double a2 = std::pow(p["alpha"].get<double>(), 2), v0 = p["v0"];
        HybridSystem sys;
        const ModeId m = sys.add_mode("free", free_particle(p["g"]));
        sys.add_guard(m, make_guard(
                             "table", Direction::Rising,
                             [a2, v0](const auto&, const auto& x, const auto&) {
                               return a2 * x[0] * (std::sqrt(2.0) * v0 - a2 * x[0]) - x[1];
                             },
                             flip(m, 3, -1.0)));
        SimulationOptions o = tight();  // as in tests/validation/zeno_oracles_test.cpp
        o.zeno.handover_tolerance = 1e-5;
        o.zeno.cycles = 3;
        return simulate(sys, m, 0.0, vec({p["x0"], p["y0"], p["xdot0"], p["ydot0"]}), 10.0, o);
      },
      {.window = 4});  // gaps shrink by 0.05 per impact: the hand-over comes after 4 impacts
}

// Examples 4 and 5: walls at 0 and 1 in the first coordinate multiply its speed by -alpha.
SimulationResult slab_run(double alpha, double beta, const Vector& x0) {
  HybridSystem sys;
  const ModeId m = sys.add_mode("free", free_particle(0.0));
  const auto bounce =
      Reset::to(m, [alpha, beta](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
        xp = x;
        xp[2] = -alpha * x[2];
        xp[3] = beta * x[3];
      });
  sys.add_guard(m, make_guard(
                       "left", Direction::Rising,
                       [](const auto&, const auto& x, const auto&) { return -x[0]; }, bounce));
  sys.add_guard(m, make_guard(
                       "right", Direction::Rising,
                       [](const auto&, const auto& x, const auto&) { return x[0] - 1.0; }, bounce));
  return simulate(sys, m, 0.0, x0, 100.0, tight());
}

TEST(ZenoClassification, SuperelasticIntervalIsSpasmodic) {
  expect_kind(oracle_cases("zeno.superelastic_interval"), ZenoKind::Spasmodic,
              [](const nlohmann::json& c) {
                const auto& p = c["parameters"];
                return slab_run(p["alpha"], 1.0, vec({p["q0"], 0.0, p["qdot0"], 0.0}));
              });
}

TEST(ZenoClassification, VolumePreservingSlabIsSpasmodic) {
  expect_kind(oracle_cases("zeno.hybrid_jacobian.slab"), ZenoKind::Spasmodic,
              [](const nlohmann::json& c) {
                const auto& p = c["parameters"];
                return slab_run(p["alpha"], p["beta"], vec({0.5, 0.0, 1.0, 1.0}));
              });
}

TEST(ZenoClassification, ElasticHamiltonianExample6IsSpasmodic) {
  expect_kind(oracle_cases("zeno.elastic_spasmodic"), ZenoKind::Spasmodic,
              [](const nlohmann::json& c) {
                const auto& p = c["parameters"];
                // Past the accumulation point of the case read: the run stops there (Zeno).
                return simulate(saltus::testing::elastic_spasmodic_example6(), 0, 0.0,
                                vec({p["x0"], p["y0"], p["px0"], p["py0"]}),
                                2.0 * c["expected"]["t_zeno"].get<double>() + 1.0, tight());
              });
}

// The Zeno models of models/ through the entry point of `saltus run`: the report names the kind.
TEST(ZenoClassification, ModelFilesReportTheirKind) {
  const std::vector<std::pair<std::string, ZenoKind>> files = {
      {"bouncing_ball.toml", ZenoKind::Steady},
      {"cross_reflection.toml", ZenoKind::Steady},
      {"steady_zeno.toml", ZenoKind::Steady},
      {"superelastic_interval.toml", ZenoKind::Spasmodic}};
  for (const auto& [file, kind] : files) {
    const model::ModelRun r = model::run_model(std::make_shared<const model::Model>(
        model::load_model_file(saltus::testing::models_dir() / file)));
    const SimulationSummary& s = r.result.summary;
    ASSERT_FALSE(std::isnan(s.zeno_time)) << file << ": " << s.message;
    EXPECT_EQ(s.zeno_kind.kind, kind) << file << ": " << describe(s.zeno_kind);
    const std::string report = run::run_report(r);
    EXPECT_NE(report.find(std::string("zeno kind  ") + to_string(kind)), std::string::npos)
        << report;
  }
}

TEST(ZenoClassification, TooFewResetsIsUndetermined) {
  EventLog log;
  EXPECT_EQ(classify_zeno(log).kind, ZenoKind::Undetermined);
}

// A simultaneous impact's other contacts fire their own guards after it with identity resets
// (increment 0): the increments' ratio is taken over the resets that moved the state, and no
// report says "-nan" (issue 44 item 5; models/rod_landing_flat.toml to t = 3 printed "a factor
// -nan per reset").
TEST(ZenoClassification, IdentityResetsInTheWindowLeaveNoNaN) {
  const double sizes[] = {1.0, 0.8, 0.8, 0.64, 0.64, 0.512};
  const double increments[] = {kNaN, 0.2, 0.0, 0.16, 0.0, 0.128};
  const events::ZenoKindEvidence e = events::classify_zeno_kind(sizes, increments, 6);
  EXPECT_EQ(e.kind, ZenoKind::Steady);
  EXPECT_NEAR(e.increment_ratio, std::pow(0.128 / 0.2, 0.25), 1e-15);
  const double still[] = {kNaN, 0.0, 0.0, 0.0, 0.0, 0.1};
  const events::ZenoKindEvidence f = events::classify_zeno_kind(sizes, still, 6);
  EXPECT_TRUE(std::isnan(f.increment_ratio));
  EXPECT_EQ(events::describe(f).find("nan"), std::string::npos) << events::describe(f);

  const model::ModelRun r =
      model::run_model(std::make_shared<const model::Model>(model::load_model_file(
          saltus::testing::models_dir() / "rod_landing_flat.toml", {"t_end=3"})));
  ASSERT_FALSE(std::isnan(r.result.summary.zeno_time)) << r.message();
  const std::string report = run::run_report(r);
  EXPECT_EQ(report.find("nan"), std::string::npos) << report;
  EXPECT_FALSE(std::isnan(r.result.summary.zeno_kind.increment_ratio));
}

}  // namespace
}  // namespace saltus::analysis
