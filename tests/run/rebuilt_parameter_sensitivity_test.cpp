// Parameter sensitivities of mechanical models (rebuilt_parameter_sensitivity.hpp): a ball in
// [mechanics] form dropped on a floor, d(state at its apexes and between impacts, impact
// times) / d(e, g, h0) against the closed form differentiated by AD, and the refusals that name the
// file and the parameter.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "saltus/core/autodiff.hpp"
#include "saltus/model/diagnostic.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/run/rebuilt_parameter_sensitivity.hpp"
#include "support/model_files.hpp"

namespace saltus::run {
namespace {

using saltus::testing::num;

const char* kMechanicalBall = R"(
[model]
name = "mechanical_ball"
[parameters]
g = 9.81
e = 0.8
h0 = 1.0
[coordinates]
y = { initial = "h0", velocity = 0.0 }
[mechanics]
kinetic_energy = "0.5*y'^2"
potential_energy = "g*y"
[[contacts]]
name = "floor"
gap = "y"
law = "newton"
e = "e"
[solver]
t_end = 1.0
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
)";

ModelLoad text_load(const std::string& text, const std::string& file,
                    std::vector<std::string> overrides) {
  return [text, file, overrides](const std::vector<std::string>& extra) {
    std::vector<std::string> all = overrides;
    all.insert(all.end(), extra.begin(), extra.end());
    return model::load_model_text(text, file, all);
  };
}

// The ball dropped from rest at h0: impact k (k >= 1) at t_k with rebound speed u_k = e^k v1,
// v1 = sqrt(2 g h0), t_1 = v1 / g, t_{k+1} = t_k + 2 u_k / g; after t_k,
// y = u_k (t - t_k) - g (t - t_k)^2 / 2, v = u_k - g (t - t_k). `impacts` = k (fixed, t in flight).
template <class S>
void ball_state(const S& g, const S& e, const S& h0, double t, int impacts, S& y, S& v) {
  const S v1 = sqrt(2.0 * g * h0);
  S t_k = v1 / g, u = v1;
  for (int k = 1; k <= impacts; ++k) {
    u = e * u;
    if (k < impacts) t_k = t_k + 2.0 * u / g;
  }
  const S s = t - t_k;
  y = u * s - 0.5 * g * s * s;
  v = u - g * s;
}

TEST(RebuiltParameterSensitivity, MechanicalBallAgainstClosedForm) {
  const double g = 9.81, e = 0.8, h0 = 1.0, v1 = std::sqrt(2 * g * h0), t1 = v1 / g;
  // (impacts, t): the first and second apexes (d y = d apex height there, v = 0), then points
  // on the way down and up between later impacts.
  const double apex1 = t1 + e * v1 / g, t2 = t1 + 2 * e * v1 / g, apex2 = t2 + e * e * v1 / g;
  const double t3 = t2 + 2 * e * e * v1 / g;
  const std::vector<std::pair<int, double>> cases = {
      {1, apex1}, {2, apex2}, {2, t2 + 1.6 * e * e * v1 / g}, {3, t3 + 0.3 * e * e * e * v1 / g}};
  for (const auto& [impacts, t] : cases) {
    // Newton's law has an exact derivative in x (mech/impact_jacobian.cpp): no allowance; its
    // columns in e come from the reloaded models' applies (parameter_augmented_system).
    const ModelSensitivity s = rebuilt_parameter_sensitivity(
        text_load(kMechanicalBall, "ball.toml", {"t_end=" + num(t)}), {"e", "g", "h0"});
    ASSERT_TRUE(s.sensitivity.ok()) << s.sensitivity.message;
    ASSERT_EQ(static_cast<int>(s.sensitivity.events.size()), impacts) << "t = " << t;
    const Matrix P = parameter_sensitivity(s);  // rows y, y'; columns e, g, h0
    ASSERT_EQ(P.rows(), 2);
    ASSERT_EQ(P.cols(), 3);
    for (int k = 0; k < 3; ++k) {
      Dual gd(g), ed(e), hd(h0), y, v;
      (k == 0 ? ed : k == 1 ? gd : hd).v[0] = 1.0;
      ball_state(gd, ed, hd, t, impacts, y, v);
      EXPECT_NEAR(P(0, k), y.derivative(), 1e-8 * (1 + std::abs(y.derivative())))
          << "d y / d p" << k << " at t = " << t << " after " << impacts << " impacts";
      EXPECT_NEAR(P(1, k), v.derivative(), 1e-8 * (1 + std::abs(v.derivative())))
          << "d v / d p" << k << " at t = " << t << " after " << impacts << " impacts";
    }
    // The run is the nominal model's: its final state is the closed form's too.
    double y, v;
    ball_state(g, e, h0, t, impacts, y, v);
    EXPECT_NEAR(s.run.result.x_final[0], y, 1e-9);
    EXPECT_NEAR(s.run.result.x_final[1], v, 1e-9);
    EXPECT_EQ(s.run.result.x_final[2], e);  // the parameter states keep their values
  }
}

// Impact k's time t_k (k >= 1) of the closed form above.
template <class S>
S impact_time(const S& g, const S& e, const S& h0, int k) {
  const S v1 = sqrt(2.0 * g * h0);
  S t = v1 / g, u = v1;
  for (int i = 1; i < k; ++i) {
    u = e * u;
    t = t + 2.0 * u / g;
  }
  return t;
}

TEST(RebuiltParameterSensitivity, MechanicalBallImpactTimes) {
  // Just before impact k, y(t_k(p); p) = 0 gives d t_k / d p = -(d y / d p) / y' at t_k: the run
  // stopped 1e-9 before the nominal t_k (the neglected term ~1e-9 |d y' / d p|).
  const double g = 9.81, e = 0.8, h0 = 1.0;
  analysis::SaltationOptions saltation;
  saltation.allow_numerical_derivatives = true;
  for (int k = 1; k <= 3; ++k) {
    const double t_k = impact_time(g, e, h0, k);
    const ModelSensitivity s = rebuilt_parameter_sensitivity(
        text_load(kMechanicalBall, "ball.toml", {"t_end=" + num(t_k - 1e-9)}), {"e", "g", "h0"},
        saltation);
    ASSERT_TRUE(s.sensitivity.ok()) << s.sensitivity.message;
    ASSERT_EQ(static_cast<int>(s.sensitivity.events.size()), k - 1);
    const Matrix P = parameter_sensitivity(s);
    for (int c = 0; c < 3; ++c) {
      Dual gd(g), ed(e), hd(h0);
      (c == 0 ? ed : c == 1 ? gd : hd).v[0] = 1.0;
      const double expected = impact_time(gd, ed, hd, k).derivative();
      const double measured = -P(0, c) / s.run.result.x_final[1];
      EXPECT_NEAR(measured, expected, 1e-7 * (1 + std::abs(expected)))
          << "d t_" << k << " / d p" << c;
    }
  }
}

// Loading must fail with a ModelError naming the file and containing `cause`.
void expect_refused(const ModelLoad& load, const std::vector<std::string>& parameters,
                    const std::string& cause) {
  try {
    (void)rebuilt_parameter_sensitivity(load, parameters);
    ADD_FAILURE() << "accepted: " << cause;
  } catch (const model::ModelError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("ball.toml"), std::string::npos) << what;
    EXPECT_NE(what.find(cause), std::string::npos) << what;
  }
}

TEST(RebuiltParameterSensitivity, RefusesWhatItCannotDifferentiate) {
  const ModelLoad ball = text_load(kMechanicalBall, "ball.toml", {});
  expect_refused(ball, {"mu"},
                 "no parameter 'mu' to differentiate; expected one of the [parameters]: g, e, h0");
  expect_refused(ball, {"e", "e"}, "parameter 'e' is asked for twice");
  std::string timed = kMechanicalBall;
  timed.replace(timed.find("t_end = 1.0"), 11, "t_end = \"2*tau\"");
  timed.replace(timed.find("h0 = 1.0"), 8, "h0 = 1.0\ntau = 0.5");
  expect_refused(text_load(timed, "ball.toml", {}), {"tau"},
                 "parameter 'tau' changes t_end, which has no derivative");
}

TEST(RebuiltParameterSensitivity, ResetWithoutDerivativeNeedsTheAllowance) {
  // Routh's process with friction has no exact derivative: as for the states, the run has status
  // not differentiable unless central differences of the law are allowed.
  std::string text = kMechanicalBall;
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"[coordinates]\n", "[coordinates]\nx = { initial = 0.0, velocity = 1.0 }\n"},
           {"0.5*y'^2", "0.5*(x'^2 + y'^2)"},
           {"law = \"newton\"", "law = \"routh_poisson\"\ntangent = \"x\"\nmu = 0.3"}}) {
    text.replace(text.find(from), from.size(), to);
  }
  const ModelSensitivity s =
      rebuilt_parameter_sensitivity(text_load(text, "ball.toml", {"t_end=0.6"}), {"e"});
  EXPECT_EQ(s.sensitivity.status, analysis::SensitivityStatus::NotDifferentiable);
  EXPECT_NE(s.sensitivity.message.find("--numerical-resets"), std::string::npos)
      << s.sensitivity.message;
  analysis::SaltationOptions allowed;
  allowed.allow_numerical_derivatives = true;
  EXPECT_TRUE(
      rebuilt_parameter_sensitivity(text_load(text, "ball.toml", {"t_end=0.6"}), {"e"}, allowed)
          .sensitivity.ok());
}

}  // namespace
}  // namespace saltus::run
