// models/painleve_rounded_rod.toml: the Painleve rod with a circular tip of radius a (saltus's
// own derivation, docs/painleve_rounded_tip.md). With gamma = J / (m l^2), alpha = a / l and the
// tip sliding with s = -1:
//   B(mu) = 1/m + l cos(th) (l cos(th) - mu (l sin(th) + a)) / J,  b = -g + l sin(th) thdot^2,
//   mu_P(th, alpha) = (gamma + cos^2 th) / (cos th (sin th + alpha)),
// mu_C(alpha) = min over th of mu_P. The test reads the model file (M, h, w_N, w_T and what_N
// come from the file's T, V, gap and tangent by the model compiler), poses the contact-force LCP
// (2.9)-(2.10) at the released state and FINDS the switch from a unique contact force to a
// Painleve verdict (none with thdot = 0, several with b > 0) by bisection on mu; it must equal
// mu_P. The run itself starts sliding just below mu_P and is refused just above it.
//
// Tolerances: B and b are single evaluations of closed forms (1e-12 relative); the verdict
// switch is bisected to 1e-15 relative and compared with mu_P to 1e-11 relative (the LCP decides
// the sign of B = (mu_P - mu) l cos(th)(l sin(th) + a) / J, exact up to round-off); the run
// checks use a margin of 1e-3 on each side. mu_C's location theta_C is flat, so it is compared
// with the scanned minimum's value only (1e-10 relative).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/mech/contact_force_problem.hpp"
#include "saltus/model/mechanical_system.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

constexpr double kPi = 3.141592653589793238462643383279502884;
constexpr double kG = 9.81, kGamma = 1.0 / 3.0;  // the file's g and J = m l^2 / 3 (l = 1, m = 1)

double mu_p(double theta, double alpha) {
  const double c = std::cos(theta), s = std::sin(theta);
  return (kGamma + c * c) / (c * (s + alpha));
}

// Golden-section minimum of f on [lo, hi] (f unimodal there): {argmin, min}.
std::pair<double, double> golden_min(const std::function<double(double)>& f, double lo, double hi) {
  const double phi = 0.5 * (std::sqrt(5.0) - 1.0);
  double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo), f1 = f(x1), f2 = f(x2);
  while (hi - lo > 1e-10) {
    if (f1 < f2) {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - phi * (hi - lo), f1 = f(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + phi * (hi - lo), f2 = f(x2);
    }
  }
  return {0.5 * (lo + hi), std::min(f1, f2)};
}

double mu_c(double alpha) {
  return golden_min([alpha](double th) { return mu_p(th, alpha); }, 0.05, 0.5 * kPi - 0.05).second;
}

// stop: painleve = "stop" (a Painleve start is refused; by default it starts with a stretch).
std::shared_ptr<const Model> load(double alpha, double theta, double mu, double omega,
                                  bool stop = false) {
  // Tip on the floor (g_N = gdot_N = 0), sliding in -x at 1 m/s, angular rate omega:
  // y' = l cos(th) omega, x' = -1 - (l sin(th) + a) omega (l = 1).
  const double a = alpha, yd = std::cos(theta) * omega, xd = -1.0 - (std::sin(theta) + a) * omega;
  std::vector<std::string> sets = {"a=" + num(a),   "theta0=" + num(theta), "mu=" + num(mu),
                                   "x'=" + num(xd), "y'=" + num(yd),        "theta'=" + num(omega)};
  if (stop) sets.push_back("mechanics.painleve=stop");
  return std::make_shared<const Model>(
      load_model_file(models_dir() / "painleve_rounded_rod.toml", sets));
}

// The contact-force LCP of the file's rod at its initial state, the tip closed and sliding.
mech::ContactOutcome contact_forces(double alpha, double theta, double mu, double omega) {
  const auto model = load(alpha, theta, mu, omega);
  const mech::LagrangianModel rod = lagrangian_model(model);
  const Vector x0 = model->initial_state();
  const Vector q = x0.head(3), qd = x0.tail(3);
  mech::ContactForceProblem p;
  p.mass = rod.mass_matrix(q);
  p.h = rod.forces(0.0, q, qd);
  mech::PlanarContacts& c = p.contacts;
  c.W_N = rod.gap_gradient(0, q);
  c.W_T = rod.tangent_gradient(0, q);
  c.g_N = Vector::Constant(1, rod.gap(0, q));
  c.gdot_N = c.W_N.transpose() * qd;
  c.gdot_T = c.W_T.transpose() * qd;
  c.w_hat_N = Vector::Constant(1, rod.gap_acceleration_offset(0, q, qd));
  c.w_hat_T = Vector::Constant(1, rod.tangent_acceleration_offset(0, q, qd));
  c.mu = Vector::Constant(1, mu);
  EXPECT_NEAR(c.g_N[0], 0.0, 1e-15);
  EXPECT_NEAR(c.gdot_N[0], 0.0, 1e-14);
  EXPECT_NEAR(c.gdot_T[0], -1.0, 1e-14);  // s = -1: the tip leads
  p.sets.I_S = {0};
  p.sets.I_N = {0};
  return mech::solve_contact_forces(p);
}

// The smallest mu where the verdict stops being Unique, bisected on [0, 5].
double scanned_mu_p(double alpha, double theta, double omega, mech::Verdict above) {
  double lo = 0.0, hi = 5.0;
  EXPECT_EQ(contact_forces(alpha, theta, lo, omega).verdict, mech::Verdict::Unique);
  EXPECT_EQ(contact_forces(alpha, theta, hi, omega).verdict, above);
  while (hi - lo > 1e-15 * hi) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (contact_forces(alpha, theta, mid, omega).verdict == mech::Verdict::Unique ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

TEST(PainleveRoundedRod, LcpCoefficientsEqualTheClosedForm) {
  for (const double alpha : {0.0, 0.3, 1.0}) {
    for (const double deg : {30.0, 60.0, 80.0}) {
      const double th = deg * kPi / 180.0, mu = 0.4, omega = 2.5;
      SCOPED_TRACE("alpha = " + num(alpha) + ", theta = " + num(deg) + " deg");
      const mech::ContactOutcome out = contact_forces(alpha, th, mu, omega);
      ASSERT_EQ(out.lcp_q.size(), 1);
      const double c = std::cos(th), s = std::sin(th);
      const double B = 1.0 + c * (c - mu * (s + alpha)) / kGamma;
      const double b = -kG + s * omega * omega;
      EXPECT_NEAR(out.lcp_matrix(0, 0), B, 1e-12 * (1.0 + c * c / kGamma));
      EXPECT_NEAR(out.lcp_q(0), b, 1e-12 * (kG + omega * omega));
    }
  }
}

TEST(PainleveRoundedRod, VerdictSwitchesAtTheDerivedCriticalMu) {
  double worst = 0.0;
  for (const double alpha : {0.0, 0.25, 0.5, 0.98571099, 2.0}) {
    for (const double deg : {40.0, 60.0, 75.0}) {
      const double th = deg * kPi / 180.0, expected = mu_p(th, alpha);
      SCOPED_TRACE("alpha = " + num(alpha) + ", theta = " + num(deg) + " deg");
      // thdot = 0: b = -g < 0, no solution above; thdot^2 = 2 g / sin(th): b = g > 0, two.
      const double omega_two = std::sqrt(2.0 * kG / std::sin(th));
      for (const auto& [omega, above] :
           {std::pair{0.0, mech::Verdict::None}, std::pair{omega_two, mech::Verdict::Several}}) {
        const double got = scanned_mu_p(alpha, th, omega, above);
        EXPECT_NEAR(got, expected, 1e-11 * expected) << "omega = " << omega;
        worst = std::max(worst, std::abs(got - expected) / expected);
        EXPECT_EQ(contact_forces(alpha, th, expected * (1 - 1e-6), omega).verdict,
                  mech::Verdict::Unique);
        EXPECT_EQ(contact_forces(alpha, th, expected * (1 + 1e-6), omega).verdict, above);
      }
    }
  }
  std::printf("rounded-tip Painleve rod: scanned vs derived mu_P, worst relative error %.2e\n",
              worst);
}

// mu_C(alpha) = min over theta of the SCANNED switch; 4/3 at alpha = 0 (the classical rod,
// oracle painleve.rod.critical_mu), 0.63 (seed 001's figure for the tip of its ref. [7]) at
// alpha = 0.98571, falling monotonically with alpha.
TEST(PainleveRoundedRod, CriticalMuOverTheAngle) {
  double alpha_063 = 0.0, hi = 5.0;  // mu_c decreases in alpha: bisect mu_c(alpha) = 0.63
  while (hi - alpha_063 > 1e-12) {
    const double mid = 0.5 * (alpha_063 + hi);
    (mu_c(mid) > 0.63 ? alpha_063 : hi) = mid;
  }
  EXPECT_NEAR(alpha_063, 0.98571, 1e-5);
  double previous = kInfinity;
  for (const double alpha : {0.0, 0.25, 0.5, alpha_063, 2.0}) {
    SCOPED_TRACE("alpha = " + num(alpha));
    const auto [th_c, scanned] =
        golden_min([alpha](double th) { return scanned_mu_p(alpha, th, 0.0, mech::Verdict::None); },
                   0.05, 0.5 * kPi - 0.05);
    EXPECT_NEAR(scanned, mu_c(alpha), 1e-10 * mu_c(alpha));
    EXPECT_LT(scanned, previous);
    previous = scanned;
    if (alpha == 0.0) {
      EXPECT_NEAR(scanned, 4.0 / 3.0, 1e-10);
      EXPECT_NEAR(std::tan(th_c), 2.0, 1e-4);
    }
    if (alpha == alpha_063) {
      EXPECT_NEAR(scanned, 0.63, 1e-10);
    }
    std::printf("alpha = %.8f: mu_C = %.10f at theta = %.4f deg\n", alpha, scanned,
                th_c * 180.0 / kPi);
  }
}

// The file's run: just below mu_P the tip slides (mode slip-:tip); just above the run is refused
// with the Painleve error, which names the contact and the critical mu at the configuration.
TEST(PainleveRoundedRod, RunSlidesBelowAndIsRefusedAbove) {
  // The file as shipped: a = l / 2, theta0 = 1.05, mu = 0.6 < mu_P = 0.8538.
  const ModelRun shipped = run_model(
      std::make_shared<const Model>(load_model_file(models_dir() / "painleve_rounded_rod.toml")));
  ASSERT_TRUE(shipped.succeeded()) << shipped.message();
  EXPECT_LT(0.6, mu_p(1.05, 0.5));
  EXPECT_EQ(shipped.system.mode(shipped.result.trajectory.mode(0)).name, "slip-:tip");
  for (const double alpha : {0.0, 0.5, 0.98571099}) {
    const double th = 1.05, crit = mu_p(th, alpha);
    SCOPED_TRACE("alpha = " + num(alpha));
    const ModelRun below = run_model(load(alpha, th, crit * (1 - 1e-3), 0.0));
    ASSERT_TRUE(below.succeeded()) << below.message();
    ASSERT_GT(below.result.trajectory.size(), 0);
    EXPECT_EQ(below.system.mode(below.result.trajectory.mode(0)).name, "slip-:tip");
    // Above mu_P (b = -g < 0: no contact force): by default a Moreau-Jean stretch from t0
    // (tests/model/painleve_start_test.cpp), with painleve = "stop" the refusal.
    const ModelRun above = run_model(load(alpha, th, crit * (1 + 1e-3), 0.0));
    ASSERT_FALSE(above.bridge_log.stretches.empty()) << above.message();
    EXPECT_EQ(above.bridge_log.stretches[0].stop_status, "initial-state");
    try {
      run_model(load(alpha, th, crit * (1 + 1e-3), 0.0, true));
      ADD_FAILURE() << "no Painleve error above mu_P";
    } catch (const Error& err) {
      const std::string msg = err.what();
      EXPECT_NE(msg.find("contact 'tip'"), std::string::npos) << msg;
      EXPECT_NE(msg.find("Painleve situation at t = 0"), std::string::npos) << msg;
      const std::string key = "critical mu at this configuration ";
      const size_t at = msg.find(key);
      ASSERT_NE(at, std::string::npos) << msg;
      EXPECT_NEAR(std::stod(msg.substr(at + key.size())), crit, 1e-5 * crit) << msg;
    }
  }
}

}  // namespace
}  // namespace saltus::model
