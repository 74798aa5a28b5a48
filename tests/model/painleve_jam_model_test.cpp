// The classical Painleve rod as a model file (models/painleve_rounded_rod.toml with a point tip,
// a = 0: m = 1, l = 1, J = m l^2 / 3, g = 9.81; issue 32 item 4(c)), against FORMULAS.md 11.2:
//   B(th) = (1 + 3 cos^2 th - 3 mu sin th cos th) / m for the tip sliding with s = -1,
//   b = l thdot^2 sin th - g (the tip's normal acceleration without contact force).
//
// 1. Seeded random sliding starts: the run starts in the mode the analytic classification gives
//    (B > 0: slip with lambda_N = -b / B > 0, or free flight when b > 0), or, with painleve =
//    "stop", refuses to start naming the Painleve situation and the right case (B < 0:
//    "inconsistent" when b < 0, "indeterminate: lambda_N = 0 or -b/B" when b > 0).
// 2. Genot and Brogliato's dynamic jam: a slip with B > 0 that drives th towards th_P, the first
//    root of B, with lambda_N = -b / B growing without bound. Near th_P, with u = th_P - th,
//    B ~ beta u and the sliding equations give b ~ -C u^p, p = 2 kappa l sin th_P / beta (kappa =
//    (l / J)(mu sin th_P - cos th_P), beta = -dB/dth): for mu = 3, th_P = 0.4384 and p = 0.12 < 1,
//    so lambda_N ~ u^(p - 1) is unbounded but integrable, and the slip reaches th_P in finite time
//    (a singular point: B = b = 0). The run must take Lecornu's impact without collision there
//    (event painleve:tip) at the time an independent integration of the sliding equations
//    predicts, and leave with the velocities that impulse gives: the slip brought to rest along
//    the cone's edge (P_T = mu P_N, v_n held at 0), P = the impulse that zeroes v_t.
//    The independent integration: the sliding equations (th, w = thdot^2, xdot, t) in
//    sigma = -ln(th_P - th), where they are smooth (u / B is bounded), by RK4; to the state at the
//    event's th, then the rest of the way to th_P at the event's speed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

constexpr double kG = 9.81;

double painleve_B(double th, double mu, double s) {
  return 1.0 + 3.0 * std::cos(th) * std::cos(th) + 3.0 * mu * s * std::sin(th) * std::cos(th);
}

// The rod sliding at th with angular velocity thdot and tip speed v_t (sign s), at rest normally.
std::vector<std::string> rod_start(double th, double thdot, double v_t, double mu, double t_end) {
  const double xdot = v_t - std::sin(th) * thdot;  // xdot_A = xdot + l sin th thdot
  return {"a=0",
          "mu=" + num(mu),
          "theta0=" + num(th),
          "theta'=" + num(thdot),
          "y'=" + num(std::cos(th) * thdot),  // ydot_A = ydot - l cos th thdot = 0
          "x'=" + num(xdot),
          "t_end=" + num(t_end),
          "rtol=1e-12",
          "atol=1e-14"};
}

TEST(PainleveJamModel, RandomSlidingStartsFollowTheAnalyticClassification) {
  std::mt19937 rng(3210);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int slip = 0, flight = 0, inconsistent = 0, indeterminate = 0;
  for (int k = 0; k < 200; ++k) {
    const double th = 0.1 + 1.3 * unit(rng), mu = 3.0 * unit(rng);
    const double s = unit(rng) < 0.75 ? -1.0 : 1.0, thdot = -5.0 + 10.0 * unit(rng);
    const double v_t = s * (0.5 + 3.0 * unit(rng));
    const double B = painleve_B(th, mu, s), b = thdot * thdot * std::sin(th) - kG;
    if (std::abs(B) < 1e-6 || std::abs(b) < 1e-6) continue;
    // painleve = "stop": the refusal (the bridged start: tests/model/painleve_start_test.cpp).
    std::vector<std::string> sets = rod_start(th, thdot, v_t, mu, 1e-4);
    sets.push_back("mechanics.painleve=stop");
    SCOPED_TRACE("case " + std::to_string(k) + ": th = " + num(th) + ", mu = " + num(mu) +
                 ", s = " + num(s) + ", thdot = " + num(thdot) + ", B = " + num(B) +
                 ", b = " + num(b));
    try {
      const auto model = std::make_shared<const Model>(
          load_model_file(models_dir() / "painleve_rounded_rod.toml", sets));
      const ModelRun r = run_model(model);
      ASSERT_GT(B, 0.0) << "the run started: " << r.message();
      ASSERT_TRUE(r.succeeded()) << r.message();
      const std::string mode = r.system.mode(r.result.trajectory.mode(0)).name;
      if (b < 0.0) {
        ++slip;
        EXPECT_EQ(mode, s > 0.0 ? "slip+:tip" : "slip-:tip");
      } else {
        ++flight;
        EXPECT_EQ(mode, "free");
      }
    } catch (const Error& err) {
      const std::string what = err.what();
      ASSERT_LT(B, 0.0) << what;
      EXPECT_NE(what.find("Painleve situation at t = 0"), std::string::npos) << what;
      EXPECT_NE(what.find("sliding with s = -1"), std::string::npos) << what;
      if (b < 0.0) {
        ++inconsistent;
        EXPECT_NE(what.find("inconsistent: no contact force solves it"), std::string::npos) << what;
      } else {
        ++indeterminate;
        const std::string key = "indeterminate: lambda_N = 0 or ";
        const size_t at = what.find(key);
        ASSERT_NE(at, std::string::npos) << what;
        EXPECT_NEAR(std::stod(what.substr(at + key.size())), -b / B, 1e-9 * (-b / B)) << what;
      }
    }
  }
  std::printf("Painleve rod starts: %d slip, %d flight, %d inconsistent, %d indeterminate\n", slip,
              flight, inconsistent, indeterminate);
  EXPECT_GT(slip, 50);
  EXPECT_GT(flight, 15);
  EXPECT_GT(inconsistent, 20);
  EXPECT_GT(indeterminate, 5);
}

// The sliding rod (s = -1, m = l = 1, J = 1/3) in sigma = -ln(th_P - th): y = (th, w, xdot, t),
// w = thdot^2. d th/d sigma = u, dw/d sigma = 2 thddot u, d xdot/d sigma = (mu N / m) u / thdot,
// dt/d sigma = u / thdot, N = (g - l w sin th) / B, thddot = (l / J)(mu sin th - cos th) N.
struct SlideState {
  double th, w, xdot, t;
};

SlideState slide_rate(const SlideState& y, double th_P, double mu) {
  const double u = th_P - y.th, sn = std::sin(y.th), c = std::cos(y.th);
  const double B = 1.0 + 3.0 * c * c - 3.0 * mu * sn * c;  // 1/m + (l^2/J)(c^2 - mu sn c)
  const double N_u = (kG - y.w * sn) * (u / B);            // N u, bounded
  const double thdot = std::sqrt(y.w);
  return {u, 2.0 * 3.0 * (mu * sn - c) * N_u, mu * N_u / thdot, u / thdot};
}

SlideState slide_to(SlideState y, double th_P, double mu, double th_end) {
  const double s0 = -std::log(th_P - y.th), s1 = -std::log(th_P - th_end);
  const int steps = static_cast<int>(std::ceil((s1 - s0) / 2e-3));
  const double h = (s1 - s0) / steps;
  const auto axpy = [](const SlideState& a, double f, const SlideState& d) {
    return SlideState{a.th + f * d.th, a.w + f * d.w, a.xdot + f * d.xdot, a.t + f * d.t};
  };
  for (int i = 0; i < steps; ++i) {
    const SlideState k1 = slide_rate(y, th_P, mu);
    const SlideState k2 = slide_rate(axpy(y, 0.5 * h, k1), th_P, mu);
    const SlideState k3 = slide_rate(axpy(y, 0.5 * h, k2), th_P, mu);
    const SlideState k4 = slide_rate(axpy(y, h, k3), th_P, mu);
    y = {y.th + h / 6.0 * (k1.th + 2.0 * k2.th + 2.0 * k3.th + k4.th),
         y.w + h / 6.0 * (k1.w + 2.0 * k2.w + 2.0 * k3.w + k4.w),
         y.xdot + h / 6.0 * (k1.xdot + 2.0 * k2.xdot + 2.0 * k3.xdot + k4.xdot),
         y.t + h / 6.0 * (k1.t + 2.0 * k2.t + 2.0 * k3.t + k4.t)};
  }
  return y;
}

TEST(PainleveJamModel, RodSlidingIntoTheDynamicJamTakesLecornusImpulseAtThePredictedTime) {
  const double mu = 3.0, th0 = 0.40, thdot0 = 1.0, v_t0 = -30.0;
  // th_P: the first root of B above th0 (bisection on the closed form).
  double lo = th0, hi = 0.6;
  ASSERT_GT(painleve_B(lo, mu, -1.0), 0.0);
  ASSERT_LT(painleve_B(hi, mu, -1.0), 0.0);
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (painleve_B(mid, mu, -1.0) > 0.0 ? lo : hi) = mid;
  }
  const double th_P = 0.5 * (lo + hi);
  {
    // p < 1: the jam's normal force is unbounded (the header's local analysis).
    const double sn = std::sin(th_P), c = std::cos(th_P);
    const double beta = 3.0 * (2.0 * sn * c + mu * (c * c - sn * sn));
    const double p = 2.0 * 3.0 * (mu * sn - c) * sn / beta;
    EXPECT_LT(p, 0.2);
    EXPECT_GT(p, 0.0);
  }
  const auto model = std::make_shared<const Model>(load_model_file(
      models_dir() / "painleve_rounded_rod.toml", rod_start(th0, thdot0, v_t0, mu, 0.05)));
  const ModelRun r = run_model(model);
  ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
  const EventLog& ev = r.result.events;
  long jam = -1;
  for (long i = 0; i < ev.size(); ++i) {
    if (r.system.mode(ev[i].mode_before).guards[static_cast<size_t>(ev[i].guard)].name ==
        "painleve:tip") {
      jam = i;
      break;
    }
  }
  ASSERT_GE(jam, 0) << "no impact without collision";
  ASSERT_EQ(r.system.mode(ev[jam].mode_before).name, "slip-:tip");
  const auto before = ev.x_before(jam), after = ev.x_after(jam);  // x, y, th, x', y', th'
  const double th_e = before[2];
  EXPECT_LT(th_e, th_P);
  EXPECT_LT(painleve_B(th_e, mu, -1.0), 1e-8) << "fired at B = 1e-9 w_N^T M^-1 w_N";
  // The normal force there, -b / B (m = 1), has grown without bound: 1e4 m g and more.
  const double N_e = (kG - before[5] * before[5] * std::sin(th_e)) / painleve_B(th_e, mu, -1.0);
  EXPECT_GT(N_e, 1e4 * kG);
  // The independent integration to the event's th, then on to th_P at the event's speed.
  const double xdot0 = v_t0 - std::sin(th0) * thdot0;
  const SlideState at = slide_to({th0, thdot0 * thdot0, xdot0, 0.0}, th_P, mu, th_e);
  const double t_pred = at.t + (th_P - th_e) / std::sqrt(at.w);
  EXPECT_NEAR(ev[jam].t, t_pred, 1e-9);
  std::printf(
      "dynamic jam: th_P = %.12f, predicted t = %.12f, saltus t = %.12f, B there %.2e, "
      "lambda_N there %.3g\n",
      th_P, t_pred, ev[jam].t, painleve_B(th_e, mu, -1.0), N_e);
  EXPECT_NEAR(before[5], std::sqrt(at.w), 1e-6 * std::sqrt(at.w));
  EXPECT_NEAR(before[3], at.xdot, 1e-6 * std::abs(at.xdot));
  // Lecornu's impulse from the predicted state: along the cone's edge (P_T = mu P_N for s = -1)
  // until v_t = 0; velocities change by M^-1 (w_T P_T + w_N P_N), w_N = (0, 1, -l cos th),
  // w_T = (1, 0, l sin th), M = diag(1, 1, 1/3).
  const double sn = std::sin(th_e), c = std::cos(th_e), thdot = std::sqrt(at.w);
  const double v_t = at.xdot + sn * thdot;
  const double A_tt = 1.0 + 3.0 * sn * sn, A_tn = -3.0 * sn * c;
  const double P_N = -v_t / (A_tt * mu + A_tn), P_T = mu * P_N;
  EXPECT_GT(P_N, 0.0);
  const double xdot_plus = at.xdot + P_T, thdot_plus = thdot + 3.0 * (sn * P_T - c * P_N);
  const double ydot_plus = c * thdot + P_N;  // ydot- = l cos th thdot (the tip at rest normally)
  EXPECT_NEAR(after[3], xdot_plus, 1e-6 * std::abs(v_t));
  EXPECT_NEAR(after[4], ydot_plus, 1e-6 * std::abs(v_t));
  EXPECT_NEAR(after[5], thdot_plus, 1e-6 * std::abs(v_t));
  EXPECT_NEAR(after[3] + sn * after[5], 0.0, 1e-9 * std::abs(v_t)) << "the slip is at rest";
  const auto out = ev.outputs(jam);  // impulse_t, impulse_n, energy_change
  EXPECT_NEAR(out[0], mu * out[1], 1e-9 * out[1]);
  EXPECT_LT(out[2], 0.0);
}

}  // namespace
}  // namespace saltus::model
