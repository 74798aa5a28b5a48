// Contact-force LCP (2.9)-(2.10): oracle cases lcp.contact_forces.* (FORMULAS.md 10.3) and
// input errors. Tolerances: the oracle's (rel 1e-12, abs 1e-13).
#include "saltus/mech/contact_force_problem.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "mech/mech_test_models.hpp"
#include "saltus/core/error.hpp"
#include "support/oracles.hpp"

namespace saltus::mech {
namespace {

using saltus::testing::oracle_cases;
using saltus::testing::oracle_near;
using saltus::testing::oracle_tolerance;

Eigen::Vector3d vec3(const nlohmann::json& j) {
  return {j.at(0).get<double>(), j.at(1).get<double>(), j.at(2).get<double>()};
}

TEST(ContactForceProblem, OracleBoxTwoCornersSliding) {
  const auto cases = oracle_cases("lcp.contact_forces.box_two_corners");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    SCOPED_TRACE(c.at("id").get<std::string>());
    const auto& p = c.at("parameters");
    const auto tol = oracle_tolerance(c);
    ContactForceProblem problem = testing::box_two_corners(
        p.at("m"), p.at("rho2"), p.at("half_width_a"), p.at("half_height_b"), p.at("mu"),
        vec3(p.at("qdot")), vec3(p.at("h")));
    ASSERT_EQ(problem.sets.I_N, (std::vector<int>{0, 1}));
    ASSERT_TRUE(problem.sets.I_H.empty());  // both corners slide with gdot_T = 1
    const ContactOutcome out = solve_contact_forces(problem);
    const auto& expected = c.at("expected");
    ASSERT_EQ(static_cast<int>(out.solutions.size()), expected.at("n_solutions").get<int>())
        << out.message;
    EXPECT_EQ(out.verdict, Verdict::Unique) << out.message;
    EXPECT_EQ(out.selected, 0);
    const auto& e = expected.at("solutions").at(0);
    const ContactSolution& s = out.solutions.front();
    for (int i = 0; i < 2; ++i) {
      EXPECT_TRUE(oracle_near("lambda_N", s.lambda_N(i), e.at("lambda_N").at(i), tol));
      EXPECT_TRUE(oracle_near("lambda_T", s.lambda_T(i), e.at("lambda_T").at(i), tol));
      EXPECT_TRUE(oracle_near("gddot_N", s.rate_N(i), e.at("gddot_N").at(i), tol));
      EXPECT_EQ(to_string(s.modes[static_cast<std::size_t>(i)], ContactProblemKind::Forces),
                e.at("modes").at(i).get<std::string>());
    }
    for (int k = 0; k < 3; ++k) {
      EXPECT_TRUE(oracle_near("qddot", s.motion(k), e.at("qddot").at(k), tol));
    }
  }
}

TEST(ContactForceProblem, OracleBoxRestingStaticallyIndeterminate) {
  const auto cases = oracle_cases("lcp.contact_forces.box_two_corners_stick");
  ASSERT_FALSE(cases.empty());
  const auto& c = cases.front();
  const auto& p = c.at("parameters");
  const auto tol = oracle_tolerance(c);
  const double a = p.at("half_width_a");
  const double b = p.at("half_height_b");
  // rho2 is not given: a body at rest does not depend on it. Check two values.
  for (const double rho2 : {(a * a + b * b) / 3.0, 0.05}) {
    SCOPED_TRACE(rho2);
    ContactForceProblem problem = testing::box_two_corners(p.at("m"), rho2, a, b, p.at("mu"),
                                                           vec3(p.at("qdot")), vec3(p.at("h")));
    ASSERT_EQ(problem.sets.I_H, (std::vector<int>{0, 1}));
    const ContactOutcome out = solve_contact_forces(problem);
    EXPECT_EQ(out.verdict, Verdict::Unique) << out.message;
    EXPECT_EQ(out.motions, 1);
    EXPECT_TRUE(out.forces_indeterminate) << out.message;  // only sum lambda_T is determined
    EXPECT_FALSE(out.motion_continuum);
    ASSERT_FALSE(out.solutions.empty());
    const auto& e = c.at("expected");
    for (const ContactSolution& s : out.solutions) {
      for (int i = 0; i < 2; ++i) {
        EXPECT_TRUE(oracle_near("lambda_N", s.lambda_N(i), e.at("lambda_N").at(i), tol));
        EXPECT_LE(std::abs(s.lambda_T(i)), p.at("mu").get<double>() * s.lambda_N(i) + 1e-12);
      }
      EXPECT_TRUE(oracle_near("sum lambda_T", s.lambda_T.sum(), e.at("sum_lambda_T"), tol));
      // stays_at_rest: qddot = 0 and both corners keep sticking.
      EXPECT_EQ(e.at("stays_at_rest").get<bool>(), s.motion.cwiseAbs().maxCoeff() <= tol.abs);
      EXPECT_EQ(s.next_sets.I_H, (std::vector<int>{0, 1}));
    }
  }
}

TEST(ContactForceProblem, SingleSlidingContactMatchesClosedForm) {
  // FORMULAS.md 11.1: gddot_N = B lambda_N + b, B = 1/m + r_t (r_t + mu s r_n)/J.
  const double m = 2.0, rho2 = 0.3, r_t = 0.4, r_n = -0.7, mu = 0.25, s = -1.0, om = 1.5;
  const ContactOutcome out =
      solve_contact_forces(testing::sliding_body_problem(m, rho2, r_t, r_n, om, s, mu, 9.81));
  const double J = m * rho2;
  const double B = 1.0 / m + r_t * (r_t + mu * s * r_n) / J;
  const double b = -9.81 - om * om * r_n;
  ASSERT_EQ(out.lcp_q.size(), 1);
  EXPECT_NEAR(out.lcp_matrix(0, 0), B, 1e-15);
  EXPECT_NEAR(out.lcp_q(0), b, 1e-14);
  ASSERT_EQ(out.verdict, Verdict::Unique);
  EXPECT_NEAR(out.solutions[0].lambda_N(0), -b / B, 1e-12);
  EXPECT_NEAR(out.solutions[0].lambda_T(0), -mu * s * (-b / B), 1e-12);
}

TEST(ContactForceProblem, StickingCandidateStartsToSlideWhenPushedHard) {
  // Box at rest pushed with 6 N > mu m g = 3.924 N: both corners start to slide (+).
  ContactForceProblem problem = testing::box_two_corners(
      1.0, 0.1, 0.5, 0.25, 0.4, Eigen::Vector3d::Zero(), Eigen::Vector3d(6.0, -9.81, 0.0));
  const ContactOutcome out = solve_contact_forces(problem);
  ASSERT_EQ(out.verdict, Verdict::Unique) << out.message;
  const ContactSolution& s = out.solutions[static_cast<std::size_t>(out.selected)];
  EXPECT_NEAR(s.lambda_T.sum(), -0.4 * 9.81, 1e-12);
  EXPECT_NEAR(s.motion(0), 6.0 - 0.4 * 9.81, 1e-12);
  EXPECT_EQ(to_string(s.modes[0], ContactProblemKind::Forces), "closed/slide+");
  EXPECT_TRUE(s.next_sets.I_H.empty());
  EXPECT_EQ(s.next_sets.I_N, (std::vector<int>{0, 1}));
}

TEST(ContactForceProblem, SelectionPolicyIsOptIn) {
  // Painleve rod at theta_C, thetadot = 5, mu = 1.5: two solutions (oracle
  // painleve_rod_lcp_th63.43_om5_s-1_mu1.5). The default stops; policies choose.
  const ContactForceProblem problem =
      testing::painleve_rod(1.0, 1.0, 1.0 / 3.0, 9.81, std::atan(2.0), 5.0, -1.0, 1.5);
  ContactOutcome out = solve_contact_forces(problem);
  ASSERT_EQ(out.verdict, Verdict::Several) << out.message;
  EXPECT_EQ(out.motions, 2);
  EXPECT_EQ(out.selected, -1);
  EXPECT_FALSE(out.can_continue());
  EXPECT_EQ(out.selected_solution(), nullptr);
  EXPECT_NE(out.message.find("stop"), std::string::npos) << out.message;
  EXPECT_NE(out.message.find("SelectionPolicy"), std::string::npos) << out.message;
  ContactSolveOptions options;
  options.selection = SelectionPolicy::LeastKineticEnergy;
  out = solve_contact_forces(problem, options);
  ASSERT_TRUE(out.can_continue());
  EXPECT_EQ(out.policy_used, SelectionPolicy::LeastKineticEnergy);
  // Least Gauss constraint: the free motion (lambda_N = 0, the tip lifts off).
  EXPECT_EQ(out.selected_solution()->lambda_N(0), 0.0);
  EXPECT_EQ(out.selected_solution()->modes[0].normal, NormalState::Open);
  EXPECT_TRUE(out.selected_solution()->next_sets.I_N.empty());
  EXPECT_NE(out.message.find("LeastKineticEnergy"), std::string::npos) << out.message;
  options.selection = SelectionPolicy::FirstFound;
  out = solve_contact_forces(problem, options);
  EXPECT_EQ(out.selected, 0);
  EXPECT_EQ(out.policy_used, SelectionPolicy::FirstFound);
}

TEST(ContactForceProblem, InconsistentStateStopsWithAHint) {
  ContactSolveOptions options;
  options.selection = SelectionPolicy::LeastKineticEnergy;  // nothing to choose from
  ContactForceProblem problem =
      testing::painleve_rod(1.0, 1.0, 1.0 / 3.0, 9.81, std::atan(2.0), 0.0, -1.0, 1.5);
  problem.time = 0.25;
  const ContactOutcome out = solve_contact_forces(problem, options);
  ASSERT_EQ(out.verdict, Verdict::None);
  EXPECT_TRUE(out.solutions.empty());
  EXPECT_FALSE(out.can_continue());
  EXPECT_NE(out.message.find("t = 0.25"), std::string::npos) << out.message;
  EXPECT_NE(out.message.find("I_N = {0}"), std::string::npos) << out.message;
  EXPECT_NE(out.message.find("Lecornu"), std::string::npos) << out.message;
}

TEST(ContactForceProblem, BadInputNamesTheProblemAndValue) {
  ContactForceProblem good = testing::box_two_corners(
      1.0, 0.1, 0.5, 0.25, 0.4, Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, -9.81, 0));
  const auto message_of = [](const ContactForceProblem& p) -> std::string {
    try {
      solve_contact_forces(p);
    } catch (const saltus::Error& e) {
      return e.what();
    }
    return "no error";
  };
  ContactForceProblem p = good;
  p.contacts.mu(1) = -0.2;
  EXPECT_NE(message_of(p).find("mu(1) = -0.2"), std::string::npos) << message_of(p);
  p = good;
  p.h(1) = std::nan("");
  EXPECT_NE(message_of(p).find("h(1) = nan"), std::string::npos) << message_of(p);
  p = good;
  p.h.resize(2);
  EXPECT_NE(message_of(p).find("h has size 2"), std::string::npos) << message_of(p);
  p = good;
  p.contacts.W_T.resize(3, 1);
  EXPECT_NE(message_of(p).find("W_T is 3 x 1"), std::string::npos) << message_of(p);
  p = good;
  p.mass(2, 2) = -1.0;
  EXPECT_NE(message_of(p).find("not positive definite"), std::string::npos) << message_of(p);
  p = good;
  p.sets.I_H = {1};  // not in ... I_N holds it, fine; make I_N miss it
  p.sets.I_N = {0};
  EXPECT_NE(message_of(p).find("contact 1 is in I_H but not in I_N"), std::string::npos)
      << message_of(p);
  p = good;
  p.contacts.gdot_T(0) = 0.0;  // sliding without a direction
  EXPECT_NE(message_of(p).find("gdot_T = 0"), std::string::npos) << message_of(p);
  ContactSolveOptions bad;
  bad.rate_tolerance = -1.0;
  EXPECT_THROW(solve_contact_forces(good, bad), saltus::Error);
}

}  // namespace
}  // namespace saltus::mech
