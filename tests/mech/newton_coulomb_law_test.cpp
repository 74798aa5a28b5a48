// The Newton-Coulomb impact law on one planar contact (issue 32 item 1): against the closed forms
// of its sliding and sticking cases, and against an enumeration of every case of the law on random
// bodies and approaches (tests/support/newton_coulomb_cases.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "saltus/core/error.hpp"
#include "saltus/mech/collision_matrix.hpp"
#include "saltus/mech/impact_law.hpp"
#include "saltus/mech/newton_coulomb_law.hpp"
#include "support/newton_coulomb_cases.hpp"

namespace saltus::mech {
namespace {

using saltus::testing::newton_coulomb_by_cases;

ContactImpactLaw law(double e, double e_t, double mu) {
  return {ImpactLawKind::NewtonCoulomb, e, e_t, mu};
}

// Sliding throughout: P_n = -(1 + e) v_n- / (A_nn - mu s A_tn), P_t = -mu s P_n.
TEST(NewtonCoulombLaw, OneContactSlidingMatchesItsClosedForm) {
  const Eigen::Matrix2d A = rigid_body_collision_matrix(1.0, 1.0 / 3.0, -0.5, -0.8);
  const Eigen::Vector2d v_minus(4.0, -1.0);  // fast slip: it cannot stop within the impact
  const double e = 0.6, mu = 0.2, s = 1.0;
  const auto r = solve_planar_impact({A, v_minus}, law(e, 0.0, mu));
  ASSERT_TRUE(r.resolved()) << r.message;
  const double P_n = -(1.0 + e) * v_minus[1] / (A(1, 1) - mu * s * A(0, 1));
  EXPECT_NEAR(r.impulse[1], P_n, 1e-14 * P_n);
  EXPECT_NEAR(r.impulse[0], -mu * s * P_n, 1e-14 * P_n);
  EXPECT_NEAR(r.v_plus[1], -e * v_minus[1], 1e-14);
  EXPECT_GT(r.v_plus[0], 0.0);  // still sliding forward
}

// Sticking: v+ = (-e_t v_t-, -e v_n-), so P = A^-1 (v+ - v-), inside the cone.
TEST(NewtonCoulombLaw, OneContactStickingMatchesItsClosedForm) {
  const Eigen::Matrix2d A = rigid_body_collision_matrix(2.0, 0.4, 0.3, -0.6);
  const Eigen::Vector2d v_minus(0.2, -1.5);
  for (double e_t : {0.0, 0.5}) {
    const double e = 0.7, mu = 0.8;
    const auto r = solve_planar_impact({A, v_minus}, law(e, e_t, mu));
    ASSERT_TRUE(r.resolved()) << r.message;
    const Eigen::Vector2d v_plus(-e_t * v_minus[0], -e * v_minus[1]);
    const Eigen::Vector2d P = A.inverse() * (v_plus - v_minus);
    ASSERT_LT(std::abs(P[0]), mu * P[1]) << "the case sticks";
    EXPECT_NEAR((r.impulse - P).norm(), 0.0, 1e-14 * P.norm()) << e_t;
    EXPECT_NEAR((r.v_plus - v_plus).norm(), 0.0, 1e-14) << e_t;
  }
}

// Random bodies, approaches and coefficients: where the law's cases give one motion the LCP finds
// it; where they give several (Painleve at the impulse level), the law says so. With e_t = e the
// law never gains energy (the dissipation identity in newton_coulomb_law.hpp); otherwise an
// impact that would gain energy is a status naming the law (Kane's example).
TEST(NewtonCoulombLaw, RandomOneContactImpactsAgreeWithTheLawsCases) {
  std::mt19937 rng(3202);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int unique = 0, several = 0, gains = 0;
  for (int k = 0; k < 2000; ++k) {
    const double m = 0.2 + 3.0 * unit(rng), rho2 = 0.01 + 0.3 * unit(rng);
    const Eigen::Matrix2d A =
        rigid_body_collision_matrix(m, rho2, -1.0 + 2.0 * unit(rng), -1.0 + 2.0 * unit(rng));
    const Eigen::Vector2d v_minus(-3.0 + 6.0 * unit(rng), -(0.05 + 2.0 * unit(rng)));
    const double e = unit(rng), mu = 2.0 * unit(rng);
    const double e_t = k % 2 == 0 ? e : (k % 4 == 1 ? 0.0 : unit(rng));
    SCOPED_TRACE(::testing::Message() << "case " << k << ": A = [" << A(0, 0) << " " << A(0, 1)
                                      << "; " << A(1, 1) << "], v- = (" << v_minus.transpose()
                                      << "), e = " << e << ", e_t = " << e_t << ", mu = " << mu);
    const Matrix M = A.inverse();
    const auto cases = newton_coulomb_by_cases(
        M, Matrix::Identity(2, 2).col(1), Matrix::Identity(2, 2).col(0), v_minus, {e}, {e_t}, {mu});
    const auto r = solve_planar_impact({A, v_minus}, law(e, e_t, mu));
    ASSERT_FALSE(cases.motions.empty());
    const double T_minus = 0.5 * v_minus.dot(M * v_minus);
    if (cases.unique()) {
      ++unique;
      const Eigen::Vector2d P(cases.impulses[0][1], cases.impulses[0][0]);  // (Lambda_T, _N)
      const double dT = impact_energy_change(A, v_minus, P);
      if (dT > 1e-9 * T_minus) {
        ++gains;
        EXPECT_NE(e_t, e);
        EXPECT_FALSE(r.resolved());
        EXPECT_NE(r.message.find("gain kinetic energy"), std::string::npos) << r.message;
        continue;
      }
      if (dT > -1e-9 * T_minus) continue;  // at the threshold: either answer
      ASSERT_TRUE(r.resolved()) << r.message;
      EXPECT_LT((r.v_plus - cases.motions[0]).norm(), 1e-12 * v_minus.norm());
    } else {
      ++several;
      EXPECT_FALSE(r.resolved());
      EXPECT_NE(r.message.find("Newton-Coulomb"), std::string::npos) << r.message;
    }
  }
  EXPECT_GT(unique, 1500);
  EXPECT_GT(gains, 0);  // the energy status is exercised
  RecordProperty("several", several);
  RecordProperty("gains", gains);
}

TEST(NewtonCoulombLaw, CoefficientsOutOfRangeAreErrorsNamingTheContact) {
  const PlanarImpactInput in{Eigen::Matrix2d::Identity(), {0.0, -1.0}};
  for (const ContactImpactLaw& bad : {law(-0.1, 0.0, 0.3), law(1.2, 0.0, 0.3), law(0.5, -0.2, 0.3),
                                      law(0.5, 1.5, 0.3), law(0.5, 0.0, -0.3)}) {
    try {
      solve_planar_impact(in, bad, "contact 'tip'");
      ADD_FAILURE() << "accepted e = " << bad.e << ", e_t = " << bad.e_t << ", mu = " << bad.mu;
    } catch (const Error& err) {
      EXPECT_NE(std::string(err.what()).find("contact 'tip'"), std::string::npos) << err.what();
      EXPECT_NE(std::string(err.what()).find("newton_coulomb"), std::string::npos) << err.what();
    }
  }
}

}  // namespace
}  // namespace saltus::mech
