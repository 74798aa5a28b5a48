// The hybrid-Jacobian oracles of seed 003 (Clark & Bloch) computed by the analysis layer from
// systems built out of each case's parameters: Example 1 (zeno.hybrid_jacobian.bouncing_ball),
// Example 5 (zeno.hybrid_jacobian.slab) and the Filippov crossing of Theorem 14
// (hybrid.filippov_saltation, from models/filippov_crossing.toml).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "flow_map_differences.hpp"
#include "saltus/analysis/hybrid_sensitivity.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_system.hpp"
#include "support/model_files.hpp"
#include "support/oracles.hpp"

namespace saltus::analysis {
namespace {

using saltus::testing::oracle_cases;
using saltus::testing::oracle_near;
using saltus::testing::oracle_tolerance;

// Example 1: state (x, p), x' = p/m, p' = -m g, p -> -c p when x falls to 0.
HybridSystem momentum_ball(double m, double g, double c) {
  HybridSystem sys;
  const ModeId fly = sys.add_mode("flight", ode_flow(2, [=](const auto&, const auto& x, auto& xd) {
                                    xd[0] = x[1] / m;
                                    xd[1] = -m * g;
                                  }));
  sys.add_guard(fly, make_guard(
                         "impact", Direction::Rising,
                         [](const auto&, const auto& x, const auto&) { return -x[0]; },
                         Reset::to_ad(fly, [c](const auto&, const auto& x, const auto&, auto& xp) {
                           xp[0] = x[0];
                           xp[1] = -c * x[1];
                         })));
  return sys;
}

TEST(SaltationOracles, Example1BallHybridJacobianPerImpactAndOverT) {
  const auto cases = oracle_cases("zeno.hybrid_jacobian.bouncing_ball");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto& p = c["parameters"];
    const auto tol = oracle_tolerance(c);
    const HybridSystem sys = momentum_ball(p["m"], p["g"], p["c"]);
    Vector x0(2);
    x0 << p["x0"].get<double>(), p["p0"].get<double>();
    const auto options = saltus::testing::differentiation_options();
    const FlowMapSensitivity s = flow_map_sensitivity(sys, 0, 0.0, x0, p["T"], options);
    ASSERT_TRUE(s.ok()) << s.message;
    ASSERT_EQ(s.events.size(), 1u);
    EXPECT_TRUE(
        oracle_near("det S", s.events[0].hybrid_jacobian, c["expected"]["hybrid_jacobian"], tol));
    EXPECT_TRUE(
        oracle_near("det D phi_T", s.volume_factor, c["expected"]["det_flow_map_over_T"], tol));
    EXPECT_FALSE(s.events[0].numerical_reset_jacobian);  // Reset::to_ad
    // Over k impacts the volume factor is J^k (the flight keeps volume): run past the 4th.
    const double g = p["g"], v0 = p["p0"].get<double>() / p["m"].get<double>(), cr = p["c"];
    const double v1 = std::sqrt(v0 * v0 + 2.0 * g * p["x0"].get<double>());  // impact speed
    double t_end = (v0 + v1) / g;
    for (int k = 1; k <= 3; ++k) t_end += 2.0 * std::pow(cr, k) * v1 / g;
    t_end += std::pow(cr, 4) * v1 / g;  // half the next flight: the apex
    const FlowMapSensitivity s4 = flow_map_sensitivity(sys, 0, 0.0, x0, t_end, options);
    ASSERT_TRUE(s4.ok()) << s4.message;
    ASSERT_EQ(s4.events.size(), 4u);
    const double j = c["expected"]["hybrid_jacobian"];
    EXPECT_TRUE(oracle_near("product of det S", s4.impact_volume_factor, std::pow(j, 4), tol));
    EXPECT_TRUE(oracle_near("det D phi", s4.volume_factor, std::pow(j, 4), tol));
  }
}

// Example 5: free particle in the slab 0 <= x <= 1, (xdot, ydot) -> (-alpha xdot, beta ydot).
HybridSystem slab(double alpha, double beta) {
  HybridSystem sys;
  const ModeId fly = sys.add_mode("free", ode_flow(4, [](const auto&, const auto& x, auto& xd) {
                                    xd[0] = x[2];
                                    xd[1] = x[3];
                                    xd[2] = 0.0;
                                    xd[3] = 0.0;
                                  }));
  const auto bounce = [alpha, beta](const auto&, const auto& x, const auto&, auto& xp) {
    xp[0] = x[0];
    xp[1] = x[1];
    xp[2] = -alpha * x[2];
    xp[3] = beta * x[3];
  };
  sys.add_guard(fly, make_guard(
                         "right", Direction::Rising,
                         [](const auto&, const auto& x, const auto&) { return x[0] - 1.0; },
                         Reset::to_ad(fly, bounce)));
  sys.add_guard(fly, make_guard(
                         "left", Direction::Rising,
                         [](const auto&, const auto& x, const auto&) { return -x[0]; },
                         Reset::to_ad(fly, bounce)));
  return sys;
}

TEST(SaltationOracles, Example5SlabHybridJacobianIsAlphaSquaredBeta) {
  const auto cases = oracle_cases("zeno.hybrid_jacobian.slab");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto& p = c["parameters"];
    const double alpha = p["alpha"], beta = p["beta"];
    const HybridSystem sys = slab(alpha, beta);
    Vector x0(4);
    x0 << 0.5, 0.2, 1.0, 0.3;
    // Impacts at 0.5, 0.5 + 1/alpha, ...: stop before the fourth.
    const double t_end = 0.5 + 1.0 / alpha + 1.0 / (alpha * alpha) + 0.5 / std::pow(alpha, 3);
    const FlowMapSensitivity s =
        flow_map_sensitivity(sys, 0, 0.0, x0, t_end, saltus::testing::differentiation_options());
    ASSERT_TRUE(s.ok()) << s.message;
    ASSERT_EQ(s.events.size(), 3u);
    for (const EventSensitivity& e : s.events) {
      EXPECT_TRUE(oracle_near("det S", e.hybrid_jacobian, c["expected"]["hybrid_jacobian"],
                              oracle_tolerance(c)));
    }
    // The flight keeps volume: det D phi = J^3 to the integration's accuracy (rtol 1e-12).
    const double j = c["expected"]["hybrid_jacobian"];
    EXPECT_NEAR(s.volume_factor, std::pow(j, 3), 1e-9);
  }
}

std::shared_ptr<const model::Model> load(const std::string& file,
                                         const std::vector<std::string>& set) {
  return std::make_shared<const model::Model>(
      model::load_model_file(saltus::testing::models_dir() / file, set));
}

TEST(SaltationOracles, Examples1And5FromModelFiles) {
  using saltus::testing::num;
  // Example 1 is models/bouncing_ball.toml with e = c, h0 = x0 (m = 1: p = v), at rest at t = 0.
  const auto ball_cases = oracle_cases("zeno.hybrid_jacobian.bouncing_ball");
  ASSERT_FALSE(ball_cases.empty());
  for (const auto& c : ball_cases) {
    const auto& p = c["parameters"];
    ASSERT_EQ(p["m"].get<double>(), 1.0);
    ASSERT_EQ(p["p0"].get<double>(), 0.0);
    const auto m =
        load("bouncing_ball.toml", {"g=" + num(p["g"]), "e=" + num(p["c"]), "h0=" + num(p["x0"]),
                                    "t_end=" + num(p["T"]), "rtol=1e-12", "atol=1e-14"});
    const HybridSystem sys = model::build_hybrid_system(m);
    const FlowMapSensitivity s = flow_map_sensitivity(sys, m->initial_mode, m->t_start,
                                                      m->initial_state(), m->t_end, m->options);
    ASSERT_TRUE(s.ok()) << s.message;
    ASSERT_EQ(s.events.size(), 1u);
    EXPECT_FALSE(s.events[0].numerical_reset_jacobian);  // symbolic
    EXPECT_TRUE(oracle_near("det S", s.events[0].hybrid_jacobian, c["expected"]["hybrid_jacobian"],
                            oracle_tolerance(c)));
    EXPECT_TRUE(oracle_near("det D phi_T", s.volume_factor, c["expected"]["det_flow_map_over_T"],
                            oracle_tolerance(c)));
  }
  // Example 5 is models/volume_preserving_slab.toml: every impact before t_end = 1.4 (three).
  const auto slab_cases = oracle_cases("zeno.hybrid_jacobian.slab");
  ASSERT_FALSE(slab_cases.empty());
  for (const auto& c : slab_cases) {
    const auto& p = c["parameters"];
    const auto m =
        load("volume_preserving_slab.toml", {"alpha=" + num(p["alpha"]), "beta=" + num(p["beta"])});
    const HybridSystem sys = model::build_hybrid_system(m);
    const FlowMapSensitivity s = flow_map_sensitivity(sys, m->initial_mode, m->t_start,
                                                      m->initial_state(), m->t_end, m->options);
    ASSERT_TRUE(s.ok()) << s.message;
    ASSERT_GE(s.events.size(), 2u);
    for (const EventSensitivity& e : s.events) {
      EXPECT_TRUE(oracle_near("det S", e.hybrid_jacobian, c["expected"]["hybrid_jacobian"],
                              oracle_tolerance(c)));
    }
  }
}

TEST(SaltationOracles, FilippovCrossingTheorem14FromTheModelFile) {
  const auto cases = oracle_cases("hybrid.filippov_saltation");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto& p = c["parameters"];
    const auto tol = oracle_tolerance(c);
    using saltus::testing::num;
    auto model = std::make_shared<const model::Model>(model::load_model_file(
        saltus::testing::models_dir() / "filippov_crossing.toml",
        {"x1=" + num(p["x0"][0]), "x2=" + num(p["x0"][1]), "t_end=" + num(p["T"])}));
    const HybridSystem sys = model::build_hybrid_system(model);
    const FlowMapSensitivity s =
        flow_map_sensitivity(sys, model->initial_mode, model->t_start, model->initial_state(),
                             model->t_end, model->options);
    ASSERT_TRUE(s.ok()) << s.message;
    ASSERT_EQ(s.events.size(), 1u);
    const auto expected_s = c["expected"]["saltation_matrix_at_crossing"];
    for (int i = 0; i < 2; ++i) {
      for (int k = 0; k < 2; ++k) {
        EXPECT_TRUE(oracle_near("S(" + std::to_string(i) + "," + std::to_string(k) + ")",
                                s.events[0].saltation(i, k), expected_s[i][k], tol));
      }
    }
    EXPECT_TRUE(
        oracle_near("det S", s.events[0].hybrid_jacobian, c["expected"]["hybrid_jacobian"], tol));
    EXPECT_TRUE(oracle_near("det D phi", s.volume_factor, c["expected"]["det_flow_map"], tol));
    for (int i = 0; i < 2; ++i) {
      EXPECT_TRUE(oracle_near("x(T)", s.run.x_final[i], c["expected"]["state_at_T"][i], tol));
    }
  }
}

}  // namespace
}  // namespace saltus::analysis
