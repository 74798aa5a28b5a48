// zeno.* and events.* cases of oracles.json reproduced by the engine (tolerances from the file).
// Every list is read with at() and every event index is checked against the run's event log
// first (an ASSERT in a helper, wrapped in ASSERT_NO_FATAL_FAILURE at the call): a case whose
// run has fewer events than the oracle lists fails, and nothing past the log is read.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

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

// A list of numbers of the case's "expected" object (at(): a missing key throws, failing the test).
std::vector<double> expected_list(const nlohmann::json& c, const std::string& key) {
  return c.at("expected").at(key).get<std::vector<double>>();
}

// The run has at least `n` events, so that events 0 .. n-1 may be read. A helper's ASSERT only
// returns from the helper: every call is wrapped in ASSERT_NO_FATAL_FAILURE so that a failure
// here ends the test before anything reads past the event log.
void assert_events_at_least(const SimulationResult& r, size_t n, const std::string& what) {
  ASSERT_GE(r.events.size(), static_cast<long>(n))
      << what << ": " << n << " listed, " << r.events.size() << " events; " << r.summary.message;
}

// Checks the first impact times of a run against the oracle list.
void expect_impact_times(const nlohmann::json& c, const SimulationResult& r,
                         const std::string& key = "impact_times") {
  const auto tol = oracle_tolerance(c);
  const auto expected = expected_list(c, key);
  ASSERT_NO_FATAL_FAILURE(assert_events_at_least(r, expected.size(), key));
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_TRUE(oracle_near(c.at("id").get<std::string>() + " impact " + std::to_string(i),
                            r.events[static_cast<long>(i)].t, expected[i], tol));
  }
}

// A horizon past the case's own Zeno time (whatever it is), so the run ends at the Zeno point.
double past_zeno(const nlohmann::json& c) {
  const double t_zeno = c.at("expected").at("t_zeno");
  return 2.0 * t_zeno + 1.0;
}

TEST(ZenoOracles, BouncingBall) {
  for (const auto& c : oracle_cases("zeno.bouncing_ball")) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
    systems::BouncingBall ball;
    ball.g = p.at("g");
    ball.e = p.at("e");
    const HybridSystem sys = ball.build();
    const double t_inf = c.at("expected").at("t_inf");
    const SimulationResult r =
        simulate(sys, ball.flight, 0.0, vec({p.at("h0"), p.at("ydot0")}), t_inf + 1.0, tight());
    ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
    ASSERT_NO_FATAL_FAILURE(expect_impact_times(c, r));
    const auto tol = oracle_tolerance(c);
    const auto v_plus = expected_list(c, "post_impact_velocity");
    const auto v_minus = expected_list(c, "pre_impact_velocity");
    ASSERT_NO_FATAL_FAILURE(assert_events_at_least(r, v_plus.size(), "post_impact_velocity"));
    ASSERT_NO_FATAL_FAILURE(assert_events_at_least(r, v_minus.size(), "pre_impact_velocity"));
    for (size_t i = 0; i < v_plus.size(); ++i) {
      EXPECT_TRUE(oracle_near("v+", r.events.x_after(static_cast<long>(i))[1], v_plus[i], tol));
    }
    for (size_t i = 0; i < v_minus.size(); ++i) {
      EXPECT_TRUE(oracle_near("v-", r.events.x_before(static_cast<long>(i))[1], v_minus[i], tol));
    }
    EXPECT_TRUE(
        oracle_near(c.at("id").get<std::string>() + " t_inf", r.summary.zeno_time, t_inf, tol));
  }
}

TEST(ZenoOracles, JumpingBallOfSeed004) {
  for (const auto& c : oracle_cases("zeno.jumping_ball")) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
    systems::BouncingBall ball;
    ball.g = p.at("g");
    ball.e = p.at("k");
    const HybridSystem sys = ball.build();
    const auto listed = expected_list(c, "impact_times");
    ASSERT_FALSE(listed.empty());
    const double t_end = listed.back() + 1e-3;
    const SimulationResult r =
        simulate(sys, ball.flight, 0.0, vec({p.at("x0"), p.at("v0")}), t_end, tight());
    ASSERT_TRUE(r.summary.ok()) << r.summary.message;
    ASSERT_NO_FATAL_FAILURE(expect_impact_times(c, r));
    const auto v_plus = expected_list(c, "post_impact_velocity");
    ASSERT_NO_FATAL_FAILURE(assert_events_at_least(r, v_plus.size(), "post_impact_velocity"));
    for (size_t i = 0; i < v_plus.size(); ++i) {
      EXPECT_TRUE(oracle_near("v+", r.events.x_after(static_cast<long>(i))[1], v_plus[i],
                              oracle_tolerance(c)));
    }
    if (!c.at("expected").at("t_inf").is_null()) {
      systems::BouncingBall stop_ball = ball;
      stop_ball.with_rest_mode = false;
      const HybridSystem sys2 = stop_ball.build();
      const SimulationResult z =
          simulate(sys2, stop_ball.flight, 0.0, vec({p.at("x0"), p.at("v0")}), 100.0, tight());
      EXPECT_EQ(z.termination(), Termination::Zeno);
      EXPECT_TRUE(oracle_near("t_inf", z.summary.zeno_time, c.at("expected").at("t_inf"),
                              oracle_tolerance(c)));
    }
  }
}

TEST(ZenoOracles, UnitGravityBallStartingOnTheGround) {
  for (const auto& c : oracle_cases("zeno.bouncing_ball.unit_gravity")) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
    systems::BouncingBall ball;
    ball.g = p.at("g");
    ball.e = p.at("alpha");
    ball.with_rest_mode = false;
    const HybridSystem sys = ball.build();
    const SimulationResult r =
        simulate(sys, ball.flight, 0.0, vec({p.at("y0"), p.at("ydot0")}), past_zeno(c), tight());
    EXPECT_EQ(r.termination(), Termination::Zeno) << r.summary.message;
    ASSERT_NO_FATAL_FAILURE(expect_impact_times(c, r));
    EXPECT_TRUE(oracle_near("t_zeno", r.summary.zeno_time, c.at("expected").at("t_zeno"),
                            oracle_tolerance(c)));
  }
}

// Clark-Bloch Example 2: free particle in the wedge |y| < x, reflection ydot -> -ydot on y = +-x.
TEST(ZenoOracles, CrossReflection) {
  for (const auto& c : oracle_cases("zeno.cross_reflection")) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
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
    const SimulationResult r = simulate(
        sys, m, 0.0, vec({p.at("x0"), p.at("y0"), p.at("xdot0"), p.at("ydot0")}), 100.0, tight());
    EXPECT_EQ(r.termination(), Termination::Zeno) << r.summary.message;
    ASSERT_NO_FATAL_FAILURE(expect_impact_times(c, r));
    EXPECT_TRUE(oracle_near("t_zeno", r.summary.zeno_time, c.at("expected").at("t_zeno"),
                            oracle_tolerance(c)));
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
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
    const double alpha = p.at("alpha");
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
        simulate(sys, m, 0.0, vec({p.at("q0"), p.at("qdot0")}), past_zeno(c), tight());
    EXPECT_EQ(r.termination(), Termination::Zeno) << r.summary.message;
    ASSERT_NO_FATAL_FAILURE(expect_impact_times(c, r));
    EXPECT_TRUE(oracle_near("t_zeno", r.summary.zeno_time, c.at("expected").at("t_zeno"),
                            oracle_tolerance(c)));
  }
}

// Clark-Bloch Proposition 8: steady elastic Zeno under the table y = a^2 x (sqrt2 v0 - a^2 x).
TEST(ZenoOracles, SteadyElasticZeno) {
  for (const auto& c : oracle_cases("zeno.steady_elastic")) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
    const double a2 = std::pow(p.at("alpha").get<double>(), 2), v0 = p.at("v0"), g = p.at("g");
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
    const SimulationResult r = simulate(
        sys, m, 0.0, vec({p.at("x0"), p.at("y0"), p.at("xdot0"), p.at("ydot0")}), past_zeno(c), o);
    EXPECT_EQ(r.termination(), Termination::Zeno) << r.summary.message;
    const auto tol = oracle_tolerance(c);
    // The impacts the run resolved before handing over (the rest is the Zeno prediction): those
    // listed in both oracle lists, at least 4.
    const auto xs = expected_list(c, "impact_x"), ts = expected_list(c, "impact_times");
    const size_t n = std::min({static_cast<size_t>(r.events.size()), xs.size(), ts.size()});
    ASSERT_GE(n, 4u) << r.events.size() << " events; " << r.summary.message;
    for (size_t i = 0; i < n; ++i) {
      const long k = static_cast<long>(i);
      EXPECT_TRUE(oracle_near("impact x", r.events.x_before(k)[0], xs[i], tol));
      EXPECT_TRUE(oracle_near("impact t", r.events[k].t, ts[i], tol));
    }
    EXPECT_TRUE(oracle_near("t_zeno", r.summary.zeno_time, c.at("expected").at("t_zeno"), tol));
  }
}

// Clark-Bloch Example 6: x = tan t, ydot = p_y tan t, walls y in {0, 1} (accumulates at pi/2).
TEST(ZenoOracles, ElasticSpasmodic) {
  for (const auto& c : oracle_cases("zeno.elastic_spasmodic")) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
    const HybridSystem sys = saltus::testing::elastic_spasmodic_example6();
    // Up to just before the accumulation point (x = tan(t + atan x0) blows up there).
    const double t_zeno = c.at("expected").at("t_zeno");
    const double horizon = saltus::testing::just_before(t_zeno);
    const SimulationResult r = simulate(
        sys, 0, 0.0, vec({p.at("x0"), p.at("y0"), p.at("px0"), p.at("py0")}), horizon, tight());
    const auto tol = oracle_tolerance(c);
    const auto ts = expected_list(c, "impact_times");
    const auto listed = static_cast<size_t>(
        std::count_if(ts.begin(), ts.end(), [&](double t) { return t < horizon; }));
    ASSERT_GE(listed, 1u) << "no listed impact before " << horizon;
    ASSERT_NO_FATAL_FAILURE(assert_events_at_least(r, listed, "impact_times before the horizon"));
    for (size_t i = 0; i < listed; ++i) {
      EXPECT_TRUE(oracle_near("impact t", r.events[static_cast<long>(i)].t, ts[i], tol));
    }
  }
}

TEST(EventOracles, PredictiveStep) {
  for (const auto& c : oracle_cases("events.predictive_step")) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
    const events::PredictiveStep s = events::predictive_step(p.at("p"), p.at("pdot"), p.at("gamma"),
                                                             p.at("h_err"), p.at("h_min"));
    const auto tol = oracle_tolerance(c);
    EXPECT_TRUE(oracle_near("h_event", s.h_event, c.at("expected").at("h_event"), tol));
    EXPECT_TRUE(oracle_near("h", s.h, c.at("expected").at("h"), tol));
    EXPECT_EQ(s.approaching, c.at("expected").at("guard_approaching").get<bool>());
  }
}

TEST(EventOracles, LinearInterpolationRoot) {
  for (const auto& c : oracle_cases("events.linear_interpolation_root")) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
    // p = -x along the chord.
    const events::LinearRoot r = events::linear_interpolation_root(
        p.at("t_n"), p.at("t_n1"), -p.at("x_n").get<double>(), -p.at("x_n1").get<double>());
    const auto tol = oracle_tolerance(c);
    EXPECT_TRUE(oracle_near("theta", r.theta, c.at("expected").at("theta"), tol));
    EXPECT_TRUE(oracle_near("t_event", r.t, c.at("expected").at("t_event"), tol));
  }
}

}  // namespace
}  // namespace saltus
