// Painleve paradox: oracle cases painleve.rod.contact_lcp, painleve.rod.critical_mu and
// painleve.box.critical_mu (FORMULAS.md 11.1-11.3), reproduced with the contact-force LCP
// (2.9)-(2.10): the critical friction coefficients are FOUND by scanning mu (bisection on the
// verdict: unique below, none or several above), not evaluated from the closed forms.
//
// Tolerances: the oracle's (rel 1e-12, abs 1e-13) for every mu and force. The location of the
// minimum theta_C of mu_P(theta) is only determined to about sqrt(machine eps) by values of
// mu_P (a minimum is flat), so theta_critical_deg is checked to 1e-5 deg; the minimum value
// mu_C itself is checked to the oracle tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "mech/mech_test_models.hpp"
#include "saltus/mech/contact_force_problem.hpp"
#include "support/oracles.hpp"

namespace saltus::mech {
namespace {

using saltus::testing::oracle_cases;
using saltus::testing::oracle_near;
using saltus::testing::oracle_tolerance;
using testing::kPi;

std::string oracle_classification(Verdict v) {
  switch (v) {
    case Verdict::Unique:
      return "unique";
    case Verdict::None:
      return "none (inconsistent)";
    case Verdict::Several:
      return "multiple (indeterminate)";
    default:
      return "other";
  }
}

// Smallest mu at which verdict(mu) stops being Unique, by bisection on [0, mu_max]; checks that
// the verdict just above is `above` and the one just below is Unique.
double critical_mu(const std::function<ContactOutcome(double)>& solve, Verdict above) {
  double lo = 0.0, hi = 20.0;
  EXPECT_EQ(solve(lo).verdict, Verdict::Unique);
  EXPECT_EQ(solve(hi).verdict, above);
  while (hi - lo > 1e-16 * hi) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (solve(mid).verdict == Verdict::Unique ? lo : hi) = mid;
  }
  EXPECT_EQ(solve(lo).verdict, Verdict::Unique);
  EXPECT_EQ(solve(hi).verdict, above);
  return 0.5 * (lo + hi);
}

TEST(Painleve, OracleRodContactLcp) {
  const auto cases = oracle_cases("painleve.rod.contact_lcp");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
    const auto tol = oracle_tolerance(c);
    const ContactOutcome out = solve_contact_forces(testing::painleve_rod(
        p.at("m"), p.at("l"), p.at("J"), p.at("g"), p.at("theta_deg").get<double>() * kPi / 180.0,
        p.at("thetadot"), p.at("slip_direction_s"), p.at("mu")));
    const auto& e = c.at("expected");
    ASSERT_EQ(out.lcp_q.size(), 1);  // one sliding contact: gddot_N = B lambda_N + b
    EXPECT_TRUE(oracle_near("B", out.lcp_matrix(0, 0), e.at("B"), tol));
    EXPECT_TRUE(oracle_near("b", out.lcp_q(0), e.at("b"), tol));
    EXPECT_EQ(oracle_classification(out.verdict), e.at("classification").get<std::string>())
        << out.message;
    std::vector<double> got;
    for (const auto& s : out.solutions) got.push_back(s.lambda_N(0));
    std::sort(got.begin(), got.end());
    const auto& want = e.at("lambda_N_solutions");
    ASSERT_EQ(got.size(), want.size()) << out.message;
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_TRUE(oracle_near("lambda_N", got[i], want.at(i), tol));
    }
    // Default policy never picks one of several solutions.
    if (out.verdict != Verdict::Unique) {
      EXPECT_EQ(out.selected, -1) << out.message;
      EXPECT_NE(out.message.find("Painleve"), std::string::npos) << out.message;
    }
  }
}

TEST(Painleve, OracleRodCriticalMuByScanning) {
  const auto cases = oracle_cases("painleve.rod.critical_mu");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const double gamma = c.at("parameters").at("gamma");
    const auto tol = oracle_tolerance(c);
    const auto& e = c.at("expected");
    // mu_P(theta): the rod sliding with s = -1 (tip leading). With thetadot = 0, b = -g < 0:
    // none above; with thetadot = 6, b > 0: several above.
    const auto mu_p = [gamma](double theta, double omega, Verdict above) {
      return critical_mu(
          [&](double mu) {
            return solve_contact_forces(
                testing::painleve_rod(1.0, 1.0, gamma, 9.81, theta, omega, -1.0, mu));
          },
          above);
    };
    for (const auto& [deg, value] : e.at("mu_P_of_theta_deg").items()) {
      SCOPED_TRACE("theta = " + deg + " deg");
      const double theta = std::stod(deg) * kPi / 180.0;
      EXPECT_TRUE(oracle_near("mu_P none", mu_p(theta, 0.0, Verdict::None), value, tol));
      EXPECT_TRUE(oracle_near("mu_P several", mu_p(theta, 6.0, Verdict::Several), value, tol));
    }
    // s = +1 (tip trailing): never a paradox.
    for (const double mu : {0.5, 2.0, 10.0}) {
      EXPECT_EQ(
          solve_contact_forces(testing::painleve_rod(1.0, 1.0, gamma, 9.81, 1.1, 0.0, 1.0, mu))
              .verdict,
          Verdict::Unique);
    }
    // mu_C = min over theta of mu_P(theta): golden-section search on the scanned mu_P.
    const auto f = [&](double th) { return mu_p(th, 0.0, Verdict::None); };
    double a = 5.0 * kPi / 180.0, b = 89.0 * kPi / 180.0;
    const double phi = 0.5 * (std::sqrt(5.0) - 1.0);
    double x1 = b - phi * (b - a), x2 = a + phi * (b - a);
    double f1 = f(x1), f2 = f(x2);
    while (b - a > 1e-9) {
      if (f1 < f2) {
        b = x2, x2 = x1, f2 = f1, x1 = b - phi * (b - a), f1 = f(x1);
      } else {
        a = x1, x1 = x2, f1 = f2, x2 = a + phi * (b - a), f2 = f(x2);
      }
    }
    const double theta_c = 0.5 * (a + b);
    EXPECT_TRUE(oracle_near("mu_critical", std::min(f1, f2), e.at("mu_critical"), tol));
    EXPECT_NEAR(theta_c * 180.0 / kPi, e.at("theta_critical_deg").get<double>(), 1e-5);
  }
}

TEST(Painleve, OracleBoxCriticalMuByScanning) {
  const auto cases = oracle_cases("painleve.box.critical_mu");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
    const auto tol = oracle_tolerance(c);
    const double a = p.at("half_width_a");
    const double b = p.at("half_height_b");
    const double rho2 = p.at("rho2");
    // Single corner r = (a, -b) sliding in +t (s = +1), m = 1 (mu_P does not depend on m).
    const auto scan = [&](double omega, Verdict above) {
      return critical_mu(
          [&](double mu) {
            return solve_contact_forces(
                testing::sliding_body_problem(1.0, rho2, a, -b, omega, 1.0, mu, 9.81));
          },
          above);
    };
    // thetadot = 0: b = -g < 0, none above. Large thetadot: b = -g + thetadot^2 b > 0.
    const double omega_several = std::sqrt(2.0 * 9.81 / b);
    EXPECT_TRUE(oracle_near("mu_critical none", scan(0.0, Verdict::None),
                            c.at("expected").at("mu_critical"), tol));
    EXPECT_TRUE(oracle_near("mu_critical several", scan(omega_several, Verdict::Several),
                            c.at("expected").at("mu_critical"), tol));
  }
}

TEST(Painleve, EveryLcpAndPainleveOracleCaseIsCovered) {
  // The tests of this folder read these models; a new case under lcp.* or painleve.* with
  // another model name would be missed, so fail here.
  const std::vector<std::string> covered = {"lcp.impact.single_contact_e0",
                                            "lcp.impact.box_two_corners_e0",
                                            "lcp.contact_forces.box_two_corners",
                                            "lcp.contact_forces.box_two_corners_stick",
                                            "painleve.rod.critical_mu",
                                            "painleve.rod.contact_lcp",
                                            "painleve.box.critical_mu"};
  int n = 0;
  for (const std::string prefix : {"lcp.", "painleve."}) {
    for (const auto& c : oracle_cases(prefix, true)) {
      ++n;
      const std::string model = c.at("model");
      EXPECT_NE(std::find(covered.begin(), covered.end(), model), covered.end()) << model;
    }
  }
  EXPECT_GT(n, 0);  // oracle_cases also fails the test for a prefix that matches nothing
}

}  // namespace
}  // namespace saltus::mech
