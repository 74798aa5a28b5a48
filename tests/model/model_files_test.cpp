// Every model in models/ run through the library entry point of `saltus run` (load_model_file,
// run_model) and checked against its closed form or oracles.json (tolerances from the file or
// stated here).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "saltus/model/model_file_text.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"
#include "support/oracles.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

using saltus::testing::oracle_cases;
using saltus::testing::oracle_near;
using saltus::testing::oracle_tolerance;

ModelRun run(const std::string& file, const std::vector<std::string>& set = {}) {
  auto m = std::make_shared<const Model>(load_model_file(models_dir() / file, set));
  return run_model(m);
}

void expect_impact_times(const nlohmann::json& c, const ModelRun& r,
                         const std::string& key = "impact_times") {
  const auto tol = oracle_tolerance(c);
  const auto expected = c["expected"][key].get<std::vector<double>>();
  ASSERT_GE(r.result.events.size(), static_cast<long>(expected.size())) << r.result.summary.message;
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_TRUE(oracle_near(c["id"].get<std::string>() + " impact " + std::to_string(i),
                            r.result.events[static_cast<long>(i)].t, expected[i], tol));
  }
}

// "t_end=..." past the case's own Zeno time, whatever it is (the files' t_end fit the visible
// cases only).
std::string past_zeno(const nlohmann::json& c) {
  return "t_end=" + num(2.0 * c["expected"]["t_zeno"].get<double>() + 1.0);
}

TEST(ModelFiles, BouncingBallZenoThenRest) {
  for (const auto& c : oracle_cases("zeno.bouncing_ball")) {
    const auto& p = c["parameters"];
    const ModelRun r =
        run("bouncing_ball.toml", {"h0=" + num(p["h0"]), "g=" + num(p["g"]), "e=" + num(p["e"]),
                                   "v=" + num(p["ydot0"]), "rtol=1e-12", "atol=1e-14",
                                   "t_end=" + num(c["expected"]["t_inf"].get<double>() + 1.0)});
    ASSERT_TRUE(r.succeeded()) << r.result.summary.message;
    expect_impact_times(c, r);
    const auto tol = oracle_tolerance(c);
    const auto v_plus = c["expected"]["post_impact_velocity"].get<std::vector<double>>();
    for (size_t i = 0; i < v_plus.size(); ++i) {
      EXPECT_TRUE(
          oracle_near("v+", r.result.events.x_after(static_cast<long>(i))[1], v_plus[i], tol));
    }
    EXPECT_TRUE(oracle_near("t_inf", r.result.summary.zeno_time, c["expected"]["t_inf"], tol));
    // After the hand-over the ball rests: mode "rest", x = v = 0, lambda = m g.
    EXPECT_EQ(r.model->modes[static_cast<size_t>(r.result.final_mode)].name, "rest");
    EXPECT_EQ(r.result.x_final[0], 0.0);
    EXPECT_NEAR(r.result.z_final[0], p["g"].get<double>(), 1e-12);
  }
}

// models/ball.toml, the README's ten-line model: the bouncing ball written as mechanics (T, V, one
// contact with e = 0.8, dropped from 1 m). Its flights are parabolas, which Dopri5 integrates to
// round-off, so the impact times are the closed form's to a few ulps of t: t_1 = sqrt(2 h / g),
// each flight e times the one before, t_inf = t_1 (1 + e) / (1 - e); then it rests (closed contact,
// lambda_N = m g).
TEST(ModelFiles, ReadmeBallWrittenAsMechanicsIsZenoThenRests) {
  const ModelRun r = run("ball.toml");
  ASSERT_TRUE(r.succeeded()) << r.result.summary.message;
  const double g = 9.81, e = 0.8, t1 = std::sqrt(2.0 * 1.0 / g);
  const double t_inf = t1 * (1.0 + e) / (1.0 - e);
  ASSERT_GE(r.result.events.size(), 10);
  double t_expected = t1, flight = 2.0 * e * t1;
  for (long i = 0; i < 10; ++i) {
    EXPECT_NEAR(r.result.events[i].t, t_expected, 1e-12) << "impact " << i;
    EXPECT_NEAR(r.result.events.x_after(i)[1], std::pow(e, static_cast<double>(i + 1)) * g * t1,
                1e-11)
        << "impact " << i;
    t_expected += flight;
    flight *= e;
  }
  EXPECT_NEAR(r.result.summary.zeno_time, t_inf, 1e-10);
  EXPECT_EQ(r.system.mode(r.result.final_mode).name, "closed:contact0");
  EXPECT_EQ(r.result.x_final[0], 0.0);
  EXPECT_EQ(r.result.x_final[1], 0.0);
}

// The same ball in millimetres (lengths x L) and with its floor moved to Y0 = 1e6 (coordinates
// at 1e6): the impact times and the Zeno time stay the closed form's, to the time the coordinate's
// own round-off allows (ulp(|Y0| + L) over the slowest approach speed checked, for the Zeno time
// the approach speed at the hand-over), and it rests on
// the floor. (The number of impacts before the hand-over still changes with L and Y0, and the ball
// started at t0 = 1e9 stops with a step-size underflow after its hand-over: issue 34.)
TEST(ModelFiles, ReadmeBallInOtherUnitsAndTranslatedKeepsItsImpactsAndZenoTime) {
  std::vector<Diagnostic> unreadable;
  const std::string text = read_model_file_text(models_dir() / "ball.toml", unreadable);
  ASSERT_TRUE(unreadable.empty());
  const double g = 9.81, e = 0.8, t1 = std::sqrt(2.0 / g), t_inf = t1 * (1.0 + e) / (1.0 - e);
  for (const double L : {1.0, 1000.0}) {
    for (const double Y0 : {0.0, 1e6}) {
      std::string variant = text;
      auto replace = [&](const std::string& from, const std::string& to) {
        const size_t at = variant.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        variant.replace(at, from.size(), to);
      };
      replace("initial = 1.0", "initial = " + num(Y0 + L));
      replace("\"9.81*y\"", "\"" + num(g * L) + "*y\"");
      replace("gap = \"y\"", "gap = \"y - " + num(Y0) + "\"");
      const auto model =
          std::make_shared<const Model>(load_model_text(variant, "ball_variant.toml", {}));
      const ModelRun r = run_model(model);
      ASSERT_TRUE(r.succeeded()) << "L = " << L << ", Y0 = " << Y0 << ": " << r.message();
      const double resolution = std::nextafter(Y0 + L, 2.0 * (Y0 + L)) - (Y0 + L);
      const double slowest = std::pow(e, 10.0) * g * t1 * L;
      const double tol = 1e-12 + 16.0 * resolution / slowest;
      ASSERT_GE(r.result.events.size(), 10);
      double t_expected = t1, flight = 2.0 * e * t1;
      for (long i = 0; i < 10; ++i) {
        EXPECT_NEAR(r.result.events[i].t, t_expected, tol) << "L " << L << ", Y0 " << Y0;
        t_expected += flight;
        flight *= e;
      }
      // The Zeno time is extrapolated from the last impacts before the hand-over, whose times
      // are known to ulp(Y0 + L) over their own approach speed (the guard's computed value is
      // flat at 0 for that long): t_k's error plus e / (1 - e) = 4 times the last flight's.
      const double v_handover =
          std::pow(e, static_cast<double>(r.result.summary.events_before_zeno)) * g * t1 * L;
      EXPECT_NEAR(r.result.summary.zeno_time, t_inf, 1e-10 + 16.0 * resolution / v_handover)
          << "L " << L << ", Y0 " << Y0;
      EXPECT_EQ(r.system.mode(r.result.final_mode).name, "closed:contact0");
      EXPECT_NEAR(r.result.x_final[0], Y0, 4.0 * resolution);
      EXPECT_EQ(r.result.x_final[1], 0.0);
    }
  }
}

TEST(ModelFiles, JumpingBallOfSeed004WithPredictiveStep) {
  for (const auto& c : oracle_cases("zeno.jumping_ball")) {
    const auto& p = c["parameters"];
    // Past the last listed impact and the Zeno time, whichever is later.
    double horizon = c["expected"]["impact_times"].back().get<double>();
    if (!c["expected"]["t_inf"].is_null())
      horizon = std::max(horizon, double(c["expected"]["t_inf"]));
    const ModelRun r =
        run("jumping_ball.toml", {"x0=" + num(p["x0"]), "v0=" + num(p["v0"]), "k=" + num(p["k"]),
                                  "g=" + num(p["g"]), "t_end=" + num(horizon + 1.0)});
    ASSERT_TRUE(r.succeeded()) << r.result.summary.message;
    expect_impact_times(c, r);
    const auto v_plus = c["expected"]["post_impact_velocity"].get<std::vector<double>>();
    for (size_t i = 0; i < v_plus.size(); ++i) {
      EXPECT_TRUE(oracle_near("v+", r.result.events.x_after(static_cast<long>(i))[1], v_plus[i],
                              oracle_tolerance(c)));
    }
    if (!c["expected"]["t_inf"].is_null()) {
      EXPECT_TRUE(oracle_near("t_inf", r.result.summary.zeno_time, c["expected"]["t_inf"],
                              oracle_tolerance(c)));
    }
  }
}

TEST(ModelFiles, BouncingBallWithDragMatchesClosedFormFlights) {
  const ModelRun r = run("bouncing_ball_drag.toml");
  ASSERT_TRUE(r.succeeded()) << r.result.summary.message;
  // Each flight: v(s) = (v_k + g/c) e^{-cs} - g/c, x(s) = (v_k + g/c)(1 - e^{-cs})/c - g s/c
  // from x = 0 (the first from x = h0, v = 0); impact where x(s) = 0, by Newton in long double.
  using R = long double;
  const R g = 9.81L, c = 0.5L, e = 0.8L;
  R t = 0, x = 1, v = 0;
  for (long k = 0; k < 15; ++k) {
    auto pos = [&](R s) { return x + (v + g / c) * (1 - std::exp(-c * s)) / c - g * s / c; };
    auto vel = [&](R s) { return (v + g / c) * std::exp(-c * s) - g / c; };
    R s = (v + std::sqrt(v * v + 2 * g * x)) / g * 1.5L + 1e-3L;
    for (int it = 0; it < 100; ++it) s -= pos(s) / vel(s);
    t += s;
    ASSERT_LT(k, r.result.events.size());
    EXPECT_NEAR(r.result.events[k].t, static_cast<double>(t), 1e-10) << "impact " << k;
    EXPECT_NEAR(r.result.events.x_before(k)[1], static_cast<double>(vel(s)), 1e-9);
    v = -e * vel(s);
    x = 0;
  }
  EXPECT_EQ(r.result.summary.zeno_handovers, 1);
  EXPECT_LT(r.result.summary.zeno_time, 5.0);
}

TEST(ModelFiles, CrossReflectionClarkBlochExample2) {
  for (const auto& c : oracle_cases("zeno.cross_reflection")) {
    const auto& p = c["parameters"];
    const ModelRun r = run("cross_reflection.toml", {"x=" + num(p["x0"]), "y=" + num(p["y0"]),
                                                     "u=" + num(-p["xdot0"].get<double>()),
                                                     "w=" + num(p["ydot0"]), past_zeno(c)});
    EXPECT_EQ(r.result.termination(), Termination::Zeno) << r.result.summary.message;
    EXPECT_TRUE(r.succeeded());
    expect_impact_times(c, r);
    EXPECT_TRUE(oracle_near("t_zeno", r.result.summary.zeno_time, c["expected"]["t_zeno"],
                            oracle_tolerance(c)));
  }
}

TEST(ModelFiles, SuperelasticIntervalClarkBlochExample4) {
  for (const auto& c : oracle_cases("zeno.superelastic_interval")) {
    const auto& p = c["parameters"];
    const ModelRun r = run(
        "superelastic_interval.toml",
        {"q=" + num(p["q0"]), "v0=" + num(p["qdot0"]), "alpha=" + num(p["alpha"]), past_zeno(c)});
    EXPECT_EQ(r.result.termination(), Termination::Zeno) << r.result.summary.message;
    expect_impact_times(c, r);
    EXPECT_TRUE(oracle_near("t_zeno", r.result.summary.zeno_time, c["expected"]["t_zeno"],
                            oracle_tolerance(c)));
  }
}

TEST(ModelFiles, SteadyElasticZenoProposition8) {
  for (const auto& c : oracle_cases("zeno.steady_elastic")) {
    const auto& p = c["parameters"];
    const ModelRun r = run("steady_zeno.toml", {"alpha=" + num(p["alpha"]), "v0=" + num(p["v0"]),
                                                "g=" + num(p["g"]), past_zeno(c)});
    EXPECT_EQ(r.result.termination(), Termination::Zeno) << r.result.summary.message;
    const auto tol = oracle_tolerance(c);
    const auto xs = c["expected"]["impact_x"].get<std::vector<double>>();
    const long n = std::min<long>(r.result.events.size(), static_cast<long>(xs.size()));
    ASSERT_GE(n, 4);
    for (long i = 0; i < n; ++i) {
      EXPECT_TRUE(oracle_near("impact x", r.result.events.x_before(i)[0], xs[i], tol));
      EXPECT_TRUE(
          oracle_near("impact t", r.result.events[i].t, c["expected"]["impact_times"][i], tol));
    }
    EXPECT_TRUE(oracle_near("t_zeno", r.result.summary.zeno_time, c["expected"]["t_zeno"], tol));
  }
}

TEST(ModelFiles, FilippovSlidingReachesSlidesAndLeaves) {
  const ModelRun r = run("filippov_sliding.toml");
  ASSERT_TRUE(r.succeeded()) << r.result.summary.message;
  ASSERT_EQ(r.result.events.size(), 2);
  // Reaching at t1 = 4 - 2 sqrt2 (x = 1 - t + t^2/8 = 0), sliding with l = (1 + t/4)/2,
  // leaving at l = 1 (t = 4), then x = (t - 4)^2/8.
  EXPECT_NEAR(r.result.events[0].t, 4.0 - 2.0 * std::sqrt(2.0), 1e-11);
  EXPECT_EQ(r.model->modes[static_cast<size_t>(r.result.events[0].mode_after)].name, "sliding");
  EXPECT_NEAR(r.result.events.z_after(0)[0], (1.0 + 0.25 * r.result.events[0].t) / 2, 1e-12);
  EXPECT_NEAR(r.result.events[1].t, 4.0, 1e-11);
  EXPECT_EQ(r.model->modes[static_cast<size_t>(r.result.events[1].mode_after)].name, "above");
  const Trajectory& tr = r.result.trajectory;
  for (long i = 0; i < tr.size(); ++i) {
    const double t = tr.t(i), x = tr.x(i)[0];
    const double t1 = 4.0 - 2.0 * std::sqrt(2.0);
    const double exact = t < t1 ? 1 - t + t * t / 8 : (t < 4.0 ? 0.0 : (t - 4) * (t - 4) / 8);
    EXPECT_NEAR(x, exact, 1e-10) << "t = " << t;
  }
  EXPECT_NEAR(r.result.x_final[0], 0.5, 1e-10);
}

TEST(ModelFiles, FilippovCrossingOracle) {
  const auto& c = saltus::testing::oracle_case("cb_filippov_jacobian_visible");
  const ModelRun r = run("filippov_crossing.toml");
  ASSERT_TRUE(r.succeeded()) << r.result.summary.message;
  const auto x_T = c["expected"]["state_at_T"].get<std::vector<double>>();
  EXPECT_TRUE(oracle_near("x1(T)", r.result.x_final[0], x_T[0], oracle_tolerance(c)));
  EXPECT_TRUE(oracle_near("x2(T)", r.result.x_final[1], x_T[1], oracle_tolerance(c)));
  ASSERT_EQ(r.result.events.size(), 1);
  EXPECT_NEAR(r.result.events[0].t, 0.8, 1e-12);
}

TEST(ModelFiles, IndexOneDaeModeSwitchesReinitialiseTheAlgebraicState) {
  const double a = 2, b = 0.5, c = 0.1, xs = 0.4, xe = 0.1;
  const double t1 = std::log(1.0 / xs) / a;
  const double t2 = t1 + std::log((xs + c / b) / (xe + c / b)) / b;
  for (const char* integrator : {"radau5", "dopri5", "dop853"}) {
    const ModelRun r = run("dae_mode_switch.toml", {std::string("integrator=") + integrator});
    ASSERT_TRUE(r.succeeded()) << integrator << ": " << r.result.summary.message;
    ASSERT_EQ(r.result.events.size(), 2) << integrator;
    EXPECT_NEAR(r.result.events[0].t, t1, 5e-9) << integrator;
    EXPECT_NEAR(r.result.events[1].t, t2, 5e-9) << integrator;
    EXPECT_NEAR(r.result.events.z_before(0)[0], a * xs, 1e-8);
    EXPECT_NEAR(r.result.events.z_after(0)[0], b * xs + c, 1e-8);
    EXPECT_EQ(r.result.events.z_after(1)[0], 0.0);
    const Trajectory& tr = r.result.trajectory;
    for (long i = 0; i < tr.size(); ++i) {
      const double t = tr.t(i), x = tr.x(i)[0];
      const double exact = t < t1   ? std::exp(-a * t)
                           : t < t2 ? (xs + c / b) * std::exp(-b * (t - t1)) - c / b
                                    : xe;
      EXPECT_NEAR(x, exact, 1e-7) << integrator << " t = " << t;
    }
  }
}

}  // namespace
}  // namespace saltus::model
