// The classical Painleve rod's regimes (issue 32 item 4(c); FORMULAS.md 11.1-11.2): saltus's
// contact-force verdict (solve_contact_forces) against the analytic classification on seeded
// random states. Rod of mass m, CoM-to-tip l, J = gamma m l^2, axis at th above the ground, tip
// sliding with s, friction mu, angular velocity thdot, gravity g:
//   gddot_N = B lambda_N + b,  B = 1/m + (l^2 / J)(cos^2 th + mu s sin th cos th),
//                              b = l thdot^2 sin th - g;
//   B > 0: one solution lambda_N = max(0, -b / B); B < 0, b < 0: none (inconsistent);
//   B < 0, b > 0: two, 0 and -b / B (indeterminate).
// B < 0 needs s = -1 and mu > mu_P(th) = (gamma + cos^2 th) / (sin th cos th), whose minimum over
// th is mu_C = 2 sqrt(gamma (1 + gamma)) (4/3 for the uniform rod, gamma = 1/3, at tan th = 2):
// below mu_C every sliding state has exactly one contact force.
// Tolerances: states with |B| below 1e-8 of 1/m or |b| below 1e-8 g are skipped (the verdict at
// the boundary is decided by round-off); the forces are compared to 1e-10 relative.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "mech/mech_test_models.hpp"
#include "saltus/mech/contact_force_problem.hpp"

namespace saltus::mech {
namespace {

using testing::kPi;

TEST(PainleveRegimes, RandomRodStatesGetTheAnalyticContactForceVerdict) {
  std::mt19937 rng(3209);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int unique = 0, none = 0, several = 0, below_critical = 0, skipped = 0;
  const double g = 9.81;
  for (int k = 0; k < 4000; ++k) {
    const double m = 0.5 + 1.5 * unit(rng), l = 0.3 + 1.2 * unit(rng);
    const double gamma = k % 2 == 0 ? 1.0 / 3.0 : 0.02 + 0.5 * unit(rng);
    const double J = gamma * m * l * l;
    const double th = 0.02 + (kPi / 2.0 - 0.04) * unit(rng);
    const double mu = 3.0 * unit(rng), s = unit(rng) < 0.7 ? -1.0 : 1.0;
    const double thdot = -6.0 + 12.0 * unit(rng);
    const double c = std::cos(th), sn = std::sin(th);
    const double B = 1.0 / m + (l * l / J) * (c * c + mu * s * sn * c);
    const double b = l * thdot * thdot * sn - g;
    if (std::abs(B) < 1e-8 / m || std::abs(b) < 1e-8 * g) {
      ++skipped;
      continue;
    }
    SCOPED_TRACE(::testing::Message()
                 << "case " << k << ": m = " << m << ", l = " << l << ", gamma = " << gamma
                 << ", th = " << th << ", mu = " << mu << ", s = " << s << ", thdot = " << thdot);
    const ContactOutcome out =
        solve_contact_forces(testing::painleve_rod(m, l, J, g, th, thdot, s, mu));
    ASSERT_EQ(out.lcp_q.size(), 1);
    EXPECT_NEAR(out.lcp_matrix(0, 0), B, 1e-10 * (1.0 / m + l * l / J));
    EXPECT_NEAR(out.lcp_q(0), b, 1e-10 * (g + l * thdot * thdot));
    const double mu_C = 2.0 * std::sqrt(gamma * (1.0 + gamma));
    if (mu < mu_C) {
      ++below_critical;
      EXPECT_GT(B, 0.0) << "below the critical mu every slip has B > 0";
    }
    if (B < 0.0) {
      EXPECT_EQ(s, -1.0) << "only the leading tip (s = -1) jams";
      EXPECT_GT(mu, (gamma + c * c) / (sn * c) * (1.0 - 1e-12));
    }
    if (B > 0.0) {
      ++unique;
      ASSERT_EQ(out.verdict, Verdict::Unique) << out.message;
      ASSERT_EQ(out.solutions.size(), 1u);
      const double lambda = std::max(0.0, -b / B);
      EXPECT_NEAR(out.solutions[0].lambda_N(0), lambda, 1e-10 * (1.0 + lambda));
    } else if (b < 0.0) {
      ++none;
      EXPECT_EQ(out.verdict, Verdict::None) << out.message;
    } else {
      ++several;
      ASSERT_EQ(out.verdict, Verdict::Several) << out.message;
      ASSERT_EQ(out.solutions.size(), 2u);
      const double a = out.solutions[0].lambda_N(0), z = out.solutions[1].lambda_N(0);
      EXPECT_NEAR(std::min(a, z), 0.0, 1e-12);
      EXPECT_NEAR(std::max(a, z), -b / B, 1e-10 * (-b / B));
    }
  }
  std::printf("Painleve rod regimes: %d unique, %d none, %d several (%d below mu_C, %d skipped)\n",
              unique, none, several, below_critical, skipped);
  EXPECT_GT(unique, 2000);
  EXPECT_GT(none, 50);
  EXPECT_GT(several, 50);
  EXPECT_GT(below_critical, 1000);
}

// The critical coefficient of the uniform rod found from the verdict alone: along th, the smallest
// mu at which some sliding state (s = -1, thdot = 0) loses its unique force is 4/3 at tan th = 2
// (bisection on mu per th, then the minimum over th).
TEST(PainleveRegimes, UniformRodLosesUniquenessFirstAtFourThirdsWhereTanThetaIsTwo) {
  const double m = 1.0, l = 1.0, J = m * l * l / 3.0, g = 9.81;
  const auto unique_at = [&](double th, double mu) {
    return solve_contact_forces(testing::painleve_rod(m, l, J, g, th, 0.0, -1.0, mu)).verdict ==
           Verdict::Unique;
  };
  double best_mu = kInfinity, best_th = kNaN;
  for (int i = 1; i < 400; ++i) {
    const double th = (kPi / 2.0) * i / 400.0;
    double lo = 0.0, hi = 50.0;
    if (unique_at(th, hi)) continue;
    for (int it = 0; it < 100; ++it) {
      const double mid = 0.5 * (lo + hi);
      (unique_at(th, mid) ? lo : hi) = mid;
    }
    const double c = std::cos(th), sn = std::sin(th);
    EXPECT_NEAR(hi, (1.0 / 3.0 + c * c) / (sn * c), 1e-12 * hi) << "th = " << th;
    if (hi < best_mu) {
      best_mu = hi;
      best_th = th;
    }
  }
  EXPECT_NEAR(best_mu, 4.0 / 3.0, 1e-4);  // the grid's step in th, squared (a flat minimum)
  EXPECT_NEAR(std::tan(best_th), 2.0, 0.02);
}

}  // namespace
}  // namespace saltus::mech
