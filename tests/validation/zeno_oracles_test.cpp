// zeno.* and events.* cases of oracles.json reproduced by the engine (tolerances from the file).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "saltus/events/linear_interpolation_root.hpp"
#include "saltus/events/predictive_step.hpp"
#include "saltus/sim/simulator.hpp"
#include "saltus/systems/bouncing_ball.hpp"
#include "support/clark_bloch_example6.hpp"
#include "support/oracles.hpp"
#include "support/solver_options.hpp"
#include "support/vectors.hpp"

namespace saltus {
namespace {

using saltus::testing::oracle_cases;
using saltus::testing::oracle_near;
using saltus::testing::oracle_tolerance;

SimulationOptions tight() {
  return saltus::testing::solver_options(1e-12, 1e-14);
}

using saltus::testing::vec;

// Checks the first impact times of a run against the oracle list.
void expect_impact_times(const nlohmann::json& c, const SimulationResult& r,
                         const std::string& key = "impact_times") {
  const auto tol = oracle_tolerance(c);
  const auto expected = c["expected"][key].get<std::vector<double>>();
  ASSERT_GE(r.events.size(), static_cast<long>(expected.size())) << r.summary.message;
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_TRUE(oracle_near(c["id"].get<std::string>() + " impact " + std::to_string(i),
                            r.events[static_cast<long>(i)].t, expected[i], tol));
  }
}

// A horizon past the case's own Zeno time (whatever it is), so the run ends at the Zeno point.
double past_zeno(const nlohmann::json& c) {
  const double t_zeno = c["expected"]["t_zeno"];
  return 2.0 * t_zeno + 1.0;
}

TEST(ZenoOracles, BouncingBall) {
  for (const auto& c : oracle_cases("zeno.bouncing_ball")) {
    const auto& p = c["parameters"];
    systems::BouncingBall ball;
    ball.g = p["g"];
    ball.e = p["e"];
    const HybridSystem sys = ball.build();
    const double t_inf = c["expected"]["t_inf"];
    const SimulationResult r =
        simulate(sys, ball.flight, 0.0, vec({p["h0"], p["ydot0"]}), t_inf + 1.0, tight());
    ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
    expect_impact_times(c, r);
    const auto tol = oracle_tolerance(c);
    const auto v_plus = c["expected"]["post_impact_velocity"].get<std::vector<double>>();
    const auto v_minus = c["expected"]["pre_impact_velocity"].get<std::vector<double>>();
    for (size_t i = 0; i < v_plus.size(); ++i) {
      EXPECT_TRUE(oracle_near("v+", r.events.x_after(static_cast<long>(i))[1], v_plus[i], tol));
      EXPECT_TRUE(oracle_near("v-", r.events.x_before(static_cast<long>(i))[1], v_minus[i], tol));
    }
    EXPECT_TRUE(
        oracle_near(c["id"].get<std::string>() + " t_inf", r.summary.zeno_time, t_inf, tol));
  }
}

TEST(ZenoOracles, JumpingBallOfSeed004) {
  for (const auto& c : oracle_cases("zeno.jumping_ball")) {
    const auto& p = c["parameters"];
    systems::BouncingBall ball;
    ball.g = p["g"];
    ball.e = p["k"];
    const HybridSystem sys = ball.build();
    const double t_end = c["expected"]["impact_times"].back().get<double>() + 1e-3;
    const SimulationResult r =
        simulate(sys, ball.flight, 0.0, vec({p["x0"], p["v0"]}), t_end, tight());
    ASSERT_TRUE(r.summary.ok()) << r.summary.message;
    expect_impact_times(c, r);
    const auto v_plus = c["expected"]["post_impact_velocity"].get<std::vector<double>>();
    for (size_t i = 0; i < v_plus.size(); ++i) {
      EXPECT_TRUE(oracle_near("v+", r.events.x_after(static_cast<long>(i))[1], v_plus[i],
                              oracle_tolerance(c)));
    }
    if (!c["expected"]["t_inf"].is_null()) {
      systems::BouncingBall stop_ball = ball;
      stop_ball.with_rest_mode = false;
      const HybridSystem sys2 = stop_ball.build();
      const SimulationResult z =
          simulate(sys2, stop_ball.flight, 0.0, vec({p["x0"], p["v0"]}), 100.0, tight());
      EXPECT_EQ(z.termination(), Termination::Zeno);
      EXPECT_TRUE(
          oracle_near("t_inf", z.summary.zeno_time, c["expected"]["t_inf"], oracle_tolerance(c)));
    }
  }
}

TEST(ZenoOracles, UnitGravityBallStartingOnTheGround) {
  for (const auto& c : oracle_cases("zeno.bouncing_ball.unit_gravity")) {
    const auto& p = c["parameters"];
    systems::BouncingBall ball;
    ball.g = p["g"];
    ball.e = p["alpha"];
    ball.with_rest_mode = false;
    const HybridSystem sys = ball.build();
    const SimulationResult r =
        simulate(sys, ball.flight, 0.0, vec({p["y0"], p["ydot0"]}), past_zeno(c), tight());
    EXPECT_EQ(r.termination(), Termination::Zeno) << r.summary.message;
    expect_impact_times(c, r);
    EXPECT_TRUE(
        oracle_near("t_zeno", r.summary.zeno_time, c["expected"]["t_zeno"], oracle_tolerance(c)));
  }
}

// Clark-Bloch Example 2: free particle in the wedge |y| < x, reflection ydot -> -ydot on y = +-x.
TEST(ZenoOracles, CrossReflection) {
  for (const auto& c : oracle_cases("zeno.cross_reflection")) {
    const auto& p = c["parameters"];
    HybridSystem sys;
    const ModeId m = sys.add_mode("free", ode_flow(4, [](const auto&, const auto& x, auto& xd) {
                                    xd[0] = x[2];
                                    xd[1] = x[3];
                                    xd[2] = 0.0;
                                    xd[3] = 0.0;
                                  }));
    auto reflect = Reset::to(m, [](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
      xp = x;
      xp[3] = -x[3];
    });
    sys.add_guard(
        m, make_guard(
               "upper", Direction::Rising,
               [](const auto&, const auto& x, const auto&) { return x[1] - x[0]; }, reflect));
    sys.add_guard(
        m, make_guard(
               "lower", Direction::Rising,
               [](const auto&, const auto& x, const auto&) { return -x[1] - x[0]; }, reflect));
    const SimulationResult r =
        simulate(sys, m, 0.0, vec({p["x0"], p["y0"], p["xdot0"], p["ydot0"]}), 100.0, tight());
    EXPECT_EQ(r.termination(), Termination::Zeno) << r.summary.message;
    expect_impact_times(c, r);
    EXPECT_TRUE(
        oracle_near("t_zeno", r.summary.zeno_time, c["expected"]["t_zeno"], oracle_tolerance(c)));
    // Energy is conserved by every reflection.
    for (long i = 0; i < r.events.size(); ++i) {
      EXPECT_NEAR(r.events.x_after(i).tail(2).squaredNorm(),
                  r.events.x_before(i).tail(2).squaredNorm(), 1e-12);
    }
  }
}

// Clark-Bloch Example 4: q in [0, 1], qdot -> -alpha qdot at the walls (spasmodic Zeno).
TEST(ZenoOracles, SuperelasticInterval) {
  for (const auto& c : oracle_cases("zeno.superelastic_interval")) {
    const auto& p = c["parameters"];
    const double alpha = p["alpha"];
    HybridSystem sys;
    const ModeId m = sys.add_mode("free", ode_flow(2, [](const auto&, const auto& x, auto& xd) {
                                    xd[0] = x[1];
                                    xd[1] = 0.0;
                                  }));
    auto bounce = Reset::to(m, [alpha](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
      xp[0] = x[0];
      xp[1] = -alpha * x[1];
    });
    sys.add_guard(m, make_guard(
                         "left", Direction::Rising,
                         [](const auto&, const auto& x, const auto&) { return -x[0]; }, bounce));
    sys.add_guard(m,
                  make_guard(
                      "right", Direction::Rising,
                      [](const auto&, const auto& x, const auto&) { return x[0] - 1.0; }, bounce));
    const SimulationResult r =
        simulate(sys, m, 0.0, vec({p["q0"], p["qdot0"]}), past_zeno(c), tight());
    EXPECT_EQ(r.termination(), Termination::Zeno) << r.summary.message;
    expect_impact_times(c, r);
    EXPECT_TRUE(
        oracle_near("t_zeno", r.summary.zeno_time, c["expected"]["t_zeno"], oracle_tolerance(c)));
  }
}

// Clark-Bloch Proposition 8: steady elastic Zeno under the table y = a^2 x (sqrt2 v0 - a^2 x).
TEST(ZenoOracles, SteadyElasticZeno) {
  for (const auto& c : oracle_cases("zeno.steady_elastic")) {
    const auto& p = c["parameters"];
    const double a2 = std::pow(p["alpha"].get<double>(), 2), v0 = p["v0"], g = p["g"];
    HybridSystem sys;
    const ModeId m = sys.add_mode("free", ode_flow(4, [g](const auto&, const auto& x, auto& xd) {
                                    xd[0] = x[2];
                                    xd[1] = x[3];
                                    xd[2] = 0.0;
                                    xd[3] = -g;
                                  }));
    sys.add_guard(m, make_guard(
                         "table", Direction::Rising,
                         [a2, v0](const auto&, const auto& x, const auto&) {
                           return a2 * x[0] * (std::sqrt(2.0) * v0 - a2 * x[0]) -
                                  x[1];  // ball above
                         },
                         Reset::to(m, [](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
                           xp = x;
                           xp[3] = -x[3];
                         })));
    // Gaps shrink by 0.0498 per impact: after ~6 impacts the relative normal speed (~1e-8) puts
    // the dips of the guard below the resolution of y (~1e-16), so hand over to the Zeno
    // prediction once the remaining time is below 1e-5 (the prediction itself is exact here).
    SimulationOptions o = tight();
    o.zeno.handover_tolerance = 1e-5;
    o.zeno.cycles = 3;
    const SimulationResult r =
        simulate(sys, m, 0.0, vec({p["x0"], p["y0"], p["xdot0"], p["ydot0"]}), past_zeno(c), o);
    EXPECT_EQ(r.termination(), Termination::Zeno) << r.summary.message;
    const auto tol = oracle_tolerance(c);
    const auto xs = c["expected"]["impact_x"].get<std::vector<double>>();
    const long n = std::min<long>(r.events.size(), static_cast<long>(xs.size()));
    ASSERT_GE(n, 4);
    for (long i = 0; i < n; ++i) {
      EXPECT_TRUE(oracle_near("impact x", r.events.x_before(i)[0], xs[i], tol));
      EXPECT_TRUE(oracle_near("impact t", r.events[i].t, c["expected"]["impact_times"][i], tol));
    }
    EXPECT_TRUE(oracle_near("t_zeno", r.summary.zeno_time, c["expected"]["t_zeno"], tol));
  }
}

// Clark-Bloch Example 6: x = tan t, ydot = p_y tan t, walls y in {0, 1} (accumulates at pi/2).
TEST(ZenoOracles, ElasticSpasmodic) {
  for (const auto& c : oracle_cases("zeno.elastic_spasmodic")) {
    const auto& p = c["parameters"];
    const HybridSystem sys = saltus::testing::elastic_spasmodic_example6();
    // Up to just before the accumulation point (x = tan(t + atan x0) blows up there).
    const double t_zeno = c["expected"]["t_zeno"];
    const double horizon = saltus::testing::just_before(t_zeno);
    const SimulationResult r =
        simulate(sys, 0, 0.0, vec({p["x0"], p["y0"], p["px0"], p["py0"]}), horizon, tight());
    const auto tol = oracle_tolerance(c);
    const auto ts = c["expected"]["impact_times"].get<std::vector<double>>();
    const long listed = std::count_if(ts.begin(), ts.end(), [&](double t) { return t < horizon; });
    ASSERT_GE(listed, 1) << "no listed impact before " << horizon;
    ASSERT_GE(r.events.size(), listed) << r.summary.message;
    for (long i = 0; i < listed; ++i) {
      EXPECT_TRUE(oracle_near("impact t", r.events[i].t, ts[static_cast<size_t>(i)], tol));
    }
  }
}

TEST(EventOracles, PredictiveStep) {
  for (const auto& c : oracle_cases("events.predictive_step")) {
    const auto& p = c["parameters"];
    const events::PredictiveStep s =
        events::predictive_step(p["p"], p["pdot"], p["gamma"], p["h_err"], p["h_min"]);
    const auto tol = oracle_tolerance(c);
    EXPECT_TRUE(oracle_near("h_event", s.h_event, c["expected"]["h_event"], tol));
    EXPECT_TRUE(oracle_near("h", s.h, c["expected"]["h"], tol));
    EXPECT_EQ(s.approaching, c["expected"]["guard_approaching"].get<bool>());
  }
}

TEST(EventOracles, LinearInterpolationRoot) {
  for (const auto& c : oracle_cases("events.linear_interpolation_root")) {
    const auto& p = c["parameters"];
    // p = -x along the chord.
    const events::LinearRoot r = events::linear_interpolation_root(
        p["t_n"], p["t_n1"], -p["x_n"].get<double>(), -p["x_n1"].get<double>());
    const auto tol = oracle_tolerance(c);
    EXPECT_TRUE(oracle_near("theta", r.theta, c["expected"]["theta"], tol));
    EXPECT_TRUE(oracle_near("t_event", r.t, c["expected"]["t_event"], tol));
  }
}

}  // namespace
}  // namespace saltus
