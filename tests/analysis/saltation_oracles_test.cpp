// The hybrid-Jacobian oracles of seed 003 (Clark & Bloch) computed by the analysis layer from
// systems built out of each case's parameters: Example 1 (zeno.hybrid_jacobian.bouncing_ball),
// Example 5 (zeno.hybrid_jacobian.slab) and the Filippov crossing of Theorem 14
// (hybrid.filippov_saltation, from models/filippov_crossing.toml).
#include <gtest/gtest.h>

#include <algorithm>
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

// The impacts of Example 1's ball before the case's T, in closed form from the case's own m, g,
// c, x0, p0 (FORMULAS.md 5.3 with v = p / m, 5.1 for the times): the first at t1 = (v0 + v1) / g
// with v1 = sqrt(v0^2 + 2 g x0), then flights of 2 c^k v1 / g, accumulating at
// t_inf = t1 + 2 c v1 / (g (1 - c)). Fails the calling test (the case is not one of this kind)
// when T is not before t_inf, or T lies within 1e-6 of t_inf of an impact (which side of T that
// impact falls on is then a matter of the event location, not of the oracle).
struct BallImpacts {
  int before_T = 0;  // impacts at t < T
  double v1 = 0.0;   // speed of the first impact
};
void ball_impacts_before(const nlohmann::json& p, BallImpacts& out) {
  const double m = p.at("m"), g = p.at("g"), c = p.at("c"), x0 = p.at("x0"), T = p.at("T");
  const double v0 = p.at("p0").get<double>() / m, v1 = std::sqrt(v0 * v0 + 2.0 * g * x0);
  ASSERT_TRUE(m > 0.0 && g > 0.0 && c > 0.0 && c < 1.0 && x0 >= 0.0 && v1 > 0.0) << p.dump();
  const double t_inf = (v0 + v1) / g + 2.0 * c * v1 / (g * (1.0 - c));
  ASSERT_LT(T, t_inf * (1.0 - 1e-6)) << "T at or past the accumulation point " << t_inf;
  out = {0, v1};
  for (double t = (v0 + v1) / g, flight = 2.0 * v1 / g;; flight *= c, t += flight) {
    ASSERT_GT(std::abs(t - T), 1e-6 * t_inf) << "T is impact " << out.before_T + 1 << "'s time";
    if (t > T) return;
    ++out.before_T;
  }
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
    BallImpacts impacts;
    ASSERT_NO_FATAL_FAILURE(ball_impacts_before(p, impacts));
    ASSERT_GE(impacts.before_T, 1) << "no impact before the case's T: no saltation to check";
    ASSERT_EQ(s.events.size(), static_cast<size_t>(impacts.before_T));
    for (const EventSensitivity& e : s.events) {
      EXPECT_TRUE(oracle_near("det S", e.hybrid_jacobian, c["expected"]["hybrid_jacobian"], tol));
      EXPECT_FALSE(e.numerical_reset_jacobian);  // Reset::to_ad
    }
    EXPECT_TRUE(
        oracle_near("det D phi_T", s.volume_factor, c["expected"]["det_flow_map_over_T"], tol));
    // Over k impacts the volume factor is J^k (the flight keeps volume): run past the 4th.
    const double g = p["g"], v0 = p["p0"].get<double>() / p["m"].get<double>(), cr = p["c"];
    const double v1 = impacts.v1;  // impact speed
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

// Each case of Examples 1 and 5 through its model file, every expectation and horizon from the
// case's own values (whatever m, p0, T, alpha, beta a case of that kind holds).
TEST(SaltationOracles, Examples1And5FromModelFiles) {
  using saltus::testing::num;
  // Example 1 is models/bouncing_ball.toml with e = c, h0 = x0 and the velocity v = p0 / m in
  // state (x, v) instead of (x, p): a constant linear change of coordinates D = diag(1, 1/m),
  // under which S and D phi become D S D^-1 and D (D phi) D^-1, with the same determinants. The
  // impacts before T: in closed form from the case (ball_impacts_before).
  const auto ball_cases = oracle_cases("zeno.hybrid_jacobian.bouncing_ball");
  ASSERT_FALSE(ball_cases.empty());
  for (const auto& c : ball_cases) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
    BallImpacts impacts;
    ASSERT_NO_FATAL_FAILURE(ball_impacts_before(p, impacts));
    ASSERT_GE(impacts.before_T, 1) << "no impact before the case's T: no saltation to check";
    const double v0 = p.at("p0").get<double>() / p.at("m").get<double>();
    const auto m =
        load("bouncing_ball.toml", {"g=" + num(p.at("g")), "e=" + num(p.at("c")),
                                    "m=" + num(p.at("m")), "h0=" + num(p.at("x0")), "v=" + num(v0),
                                    "t_end=" + num(p.at("T")), "rtol=1e-12", "atol=1e-14"});
    const HybridSystem sys = model::build_hybrid_system(m);
    const FlowMapSensitivity s = flow_map_sensitivity(sys, m->initial_mode, m->t_start,
                                                      m->initial_state(), m->t_end, m->options);
    ASSERT_TRUE(s.ok()) << s.message;
    ASSERT_EQ(s.events.size(), static_cast<size_t>(impacts.before_T));
    for (const EventSensitivity& e : s.events) {
      EXPECT_FALSE(e.numerical_reset_jacobian);  // symbolic
      EXPECT_TRUE(oracle_near("det S", e.hybrid_jacobian, c.at("expected").at("hybrid_jacobian"),
                              oracle_tolerance(c)));
    }
    EXPECT_TRUE(oracle_near("det D phi_T", s.volume_factor,
                            c.at("expected").at("det_flow_map_over_T"), oracle_tolerance(c)));
  }
  // Example 5 is models/volume_preserving_slab.toml (from its own x0 in (0, 1) and xdot0 != 0):
  // the walls are reached at t1 (the wall xdot0 points to), then t_k+1 = t_k + 1 / (alpha^k
  // |xdot0|); the run stops halfway between the third and the fourth impact, so exactly three
  // impacts, each with the case's det S, and det D phi = J^3 (the flight keeps volume) to the
  // integration's accuracy (1e3 rtol of the file's solver: the flight is linear, the variational
  // equations along it exact but for the event times located to ~rtol).
  const auto slab_cases = oracle_cases("zeno.hybrid_jacobian.slab");
  ASSERT_FALSE(slab_cases.empty());
  for (const auto& c : slab_cases) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
    const double alpha = p.at("alpha");
    ASSERT_GT(alpha, 0.0);
    const std::vector<std::string> set = {"alpha=" + num(alpha), "beta=" + num(p.at("beta"))};
    const Vector x0 = load("volume_preserving_slab.toml", set)->initial_state();
    ASSERT_TRUE(x0[0] > 0.0 && x0[0] < 1.0 && x0[2] != 0.0) << x0.transpose();
    double t = x0[2] > 0.0 ? (1.0 - x0[0]) / x0[2] : x0[0] / -x0[2];
    for (int k = 1; k < 3; ++k) t += 1.0 / (std::pow(alpha, k) * std::abs(x0[2]));
    const double t_end = t + 0.5 / (std::pow(alpha, 3) * std::abs(x0[2]));
    std::vector<std::string> with_t_end = set;
    with_t_end.push_back("t_end=" + num(t_end));
    const auto m = load("volume_preserving_slab.toml", with_t_end);
    const HybridSystem sys = model::build_hybrid_system(m);
    const FlowMapSensitivity s = flow_map_sensitivity(sys, m->initial_mode, m->t_start,
                                                      m->initial_state(), m->t_end, m->options);
    ASSERT_TRUE(s.ok()) << s.message;
    ASSERT_EQ(s.events.size(), 3u);
    const double j = c.at("expected").at("hybrid_jacobian");
    for (const EventSensitivity& e : s.events) {
      EXPECT_TRUE(oracle_near("det S", e.hybrid_jacobian, j, oracle_tolerance(c)));
    }
    const double j3 = std::pow(j, 3);
    EXPECT_NEAR(s.volume_factor, j3, 1e3 * m->options.stepper.rtol * std::max(1.0, std::abs(j3)));
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
