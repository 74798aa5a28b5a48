// Super-elastic contacts (issue 32, bad input): e > 1 only where the contact says so
// (ContactImpactLaw::superelastic) and only for the kinematic Newton laws (newton_frictionless,
// newton_coulomb); the energy-gain statuses are skipped for such a contact only. Closed forms:
//   frictionless (seed 000 (5.17)): P_n = -(1 + e) v_n- / A_nn, v_n+ = -e v_n-,
//     dT = (e^2 - 1) v_n-^2 / (2 A_nn);
//   Newton-Coulomb sliding throughout: P_n = -(1 + e) v_n- / (A_nn - mu s A_tn), P_t = -mu s P_n;
//   sticking: v+ = (-e_t v_t-, -e v_n-), P = A^-1 (v+ - v-).
// The random cases are solved by the law's cases (tests/support/newton_coulomb_cases.hpp),
// independently of the LCP.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/mech/collision_matrix.hpp"
#include "saltus/mech/impact_law.hpp"
#include "saltus/mech/newton_impact_map.hpp"
#include "support/newton_coulomb_cases.hpp"

namespace saltus::mech {
namespace {

using saltus::testing::newton_coulomb_by_cases;

ContactImpactLaw law(ImpactLawKind kind, double e, double e_t, double mu, bool superelastic) {
  ContactImpactLaw l{kind, e, e_t, mu};
  l.superelastic = superelastic;
  return l;
}

std::string error_of(const ContactImpactLaw& l) {
  try {
    l.validate("contact 'pad'");
  } catch (const Error& err) {
    return err.what();
  }
  return "";
}

// e > 1 is refused without superelastic for every law, with the contact, the law and the value;
// with it, only newton_frictionless and newton_coulomb take it, the others say why not.
TEST(SuperelasticLaw, EAboveOneNeedsTheModelToSaySoAndANewtonLaw) {
  for (ImpactLawKind kind : all_impact_laws()) {
    SCOPED_TRACE(to_string(kind));
    const std::string refused = error_of(law(kind, 1.25, 0.0, 0.3, false));
    EXPECT_NE(refused.find("contact 'pad'"), std::string::npos) << refused;
    EXPECT_NE(refused.find(to_string(kind)), std::string::npos) << refused;
    EXPECT_NE(refused.find("e = 1.25"), std::string::npos) << refused;
    EXPECT_NE(refused.find("superelastic = true"), std::string::npos) << refused;
    const std::string asked = error_of(law(kind, 1.25, 0.0, 0.3, true));
    if (allows_superelastic(kind)) {
      EXPECT_EQ(asked, "");
    } else {
      EXPECT_NE(asked.find("cannot be super-elastic"), std::string::npos) << asked;
      EXPECT_NE(asked.find("expected law newton or newton_coulomb"), std::string::npos) << asked;
      EXPECT_STREQ(law(kind, 0.5, 0.0, 0.3, true).invalid_key(), "superelastic");
    }
  }
  EXPECT_TRUE(allows_superelastic(ImpactLawKind::NewtonFrictionless));
  EXPECT_TRUE(allows_superelastic(ImpactLawKind::NewtonCoulomb));
  // Super-elastic does not widen the other ranges: e >= 0, e_t in [0, 1], mu >= 0.
  struct Bad {
    ContactImpactLaw l;
    const char *key, *says;
  };
  const ImpactLawKind nc = ImpactLawKind::NewtonCoulomb;
  for (const Bad& b : {Bad{law(nc, -0.1, 0.0, 0.3, true), "e", "e = -0.1"},
                       Bad{law(nc, kNaN, 0.0, 0.3, true), "e", "e = nan"},
                       Bad{law(nc, 1.5, 1.2, 0.3, true), "e_t", "e_t = 1.2"},
                       Bad{law(nc, 1.5, -0.2, 0.3, true), "e_t", "e_t = -0.2"},
                       Bad{law(nc, 1.5, 0.0, -0.25, true), "mu", "mu = -0.25"}}) {
    EXPECT_STREQ(b.l.invalid_key(), b.key);
    const std::string what = error_of(b.l);
    EXPECT_NE(what.find(b.says), std::string::npos) << what;
    EXPECT_NE(what.find("contact 'pad'"), std::string::npos) << what;
  }
}

TEST(SuperelasticLaw, FrictionlessImpactReturnsEBeyondOne) {
  const Eigen::Matrix2d A = rigid_body_collision_matrix(1.7, 0.2, 0.3, -0.4);
  const Eigen::Vector2d v_minus(0.8, -1.3);
  for (double e : {1.0, 1.5, 3.0}) {
    const auto r = solve_planar_impact(
        {A, v_minus}, law(ImpactLawKind::NewtonFrictionless, e, 0.0, 0.0, true), "pad");
    ASSERT_TRUE(r.resolved()) << r.message;
    const double P_n = -(1.0 + e) * v_minus[1] / A(1, 1);
    EXPECT_NEAR(r.impulse[1], P_n, 1e-14 * P_n);
    EXPECT_NEAR(r.v_plus[1], -e * v_minus[1], 1e-14);
    EXPECT_NEAR(r.dT, (e * e - 1.0) * v_minus[1] * v_minus[1] / (2.0 * A(1, 1)), 1e-14);
  }
  // The generalised map (5.18): a point mass, qdot+ = qdot- - (1 + e) (w . qdot-) w / |w|^2.
  const Matrix M = Matrix::Identity(2, 2) * 2.0;
  const Vector w = Eigen::Vector2d(0.6, 0.8), qd = Eigen::Vector2d(1.0, -2.0);
  EXPECT_THROW(newton_impact(M, w, qd, 2.0), Error);
  const NewtonImpact imp = newton_impact(M, w, qd, 2.0, "pad", true);
  const Vector expected = qd - 3.0 * w.dot(qd) * w;
  EXPECT_LT((imp.qdot_plus - expected).norm(), 1e-14);
  EXPECT_NEAR(imp.kinetic_energy_plus - imp.kinetic_energy_minus,
              (4.0 - 1.0) * std::pow(w.dot(qd), 2) / (2.0 * 0.5), 1e-13);
}

TEST(SuperelasticLaw, NewtonCoulombSlidingAndStickingMatchTheirClosedForms) {
  const ImpactLawKind nc = ImpactLawKind::NewtonCoulomb;
  {
    const Eigen::Matrix2d A = rigid_body_collision_matrix(1.0, 1.0 / 3.0, -0.5, -0.8);
    const Eigen::Vector2d v_minus(4.0, -1.0);  // fast slip: slides throughout
    const double e = 1.6, mu = 0.2, s = 1.0;
    const auto r = solve_planar_impact({A, v_minus}, law(nc, e, 0.0, mu, true));
    ASSERT_TRUE(r.resolved()) << r.message;
    const double P_n = -(1.0 + e) * v_minus[1] / (A(1, 1) - mu * s * A(0, 1));
    EXPECT_NEAR(r.impulse[1], P_n, 1e-14 * P_n);
    EXPECT_NEAR(r.impulse[0], -mu * s * P_n, 1e-14 * P_n);
    EXPECT_NEAR(r.v_plus[1], -e * v_minus[1], 1e-14);
    EXPECT_GT(r.v_plus[0], 0.0);
  }
  {
    const Eigen::Matrix2d A = rigid_body_collision_matrix(2.0, 0.4, 0.3, -0.6);
    const Eigen::Vector2d v_minus(0.2, -1.5);
    const double e = 1.3, e_t = 0.5, mu = 0.8;
    const auto r = solve_planar_impact({A, v_minus}, law(nc, e, e_t, mu, true));
    ASSERT_TRUE(r.resolved()) << r.message;
    const Eigen::Vector2d v_plus(-e_t * v_minus[0], -e * v_minus[1]);
    const Eigen::Vector2d P = A.inverse() * (v_plus - v_minus);
    ASSERT_LT(std::abs(P[0]), mu * P[1]) << "the case sticks";
    EXPECT_LT((r.impulse - P).norm(), 1e-14 * P.norm());
    EXPECT_GT(r.dT, 0.0);
  }
}

// Random bodies and approaches: where the law's cases give one motion, a super-elastic contact
// takes it whatever the energy does (e up to 2, and Kane's gain with e_t != e at e <= 1), and the
// same contact without superelastic (e <= 1) keeps the energy-gain status.
TEST(SuperelasticLaw, NewtonCoulombTakesTheLawsAnswerWhateverTheEnergy) {
  std::mt19937 rng(3207);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int gains_at_most_one = 0, gains_above_one = 0;
  for (int k = 0; k < 2000; ++k) {
    const double m = 0.2 + 3.0 * unit(rng), rho2 = 0.01 + 0.3 * unit(rng);
    const Eigen::Matrix2d A =
        rigid_body_collision_matrix(m, rho2, -1.0 + 2.0 * unit(rng), -1.0 + 2.0 * unit(rng));
    const Eigen::Vector2d v_minus(-3.0 + 6.0 * unit(rng), -(0.05 + 2.0 * unit(rng)));
    const bool above = k % 2 == 0;
    const double e = above ? 1.0 + unit(rng) : unit(rng), e_t = unit(rng), mu = 2.0 * unit(rng);
    SCOPED_TRACE(::testing::Message()
                 << "case " << k << ": e = " << e << ", e_t = " << e_t << ", mu = " << mu);
    const Matrix M = A.inverse();
    const auto cases = newton_coulomb_by_cases(
        M, Matrix::Identity(2, 2).col(1), Matrix::Identity(2, 2).col(0), v_minus, {e}, {e_t}, {mu});
    if (!cases.unique()) continue;
    const auto r =
        solve_planar_impact({A, v_minus}, law(ImpactLawKind::NewtonCoulomb, e, e_t, mu, true));
    ASSERT_TRUE(r.resolved()) << r.message;
    EXPECT_LT((r.v_plus - cases.motions[0]).norm(), 1e-12 * v_minus.norm());
    const double T_minus = 0.5 * v_minus.dot(M * v_minus);
    if (r.dT <= 1e-9 * T_minus) continue;
    (above ? gains_above_one : gains_at_most_one)++;
    if (above) continue;
    const auto plain =
        solve_planar_impact({A, v_minus}, law(ImpactLawKind::NewtonCoulomb, e, e_t, mu, false));
    EXPECT_FALSE(plain.resolved());
    EXPECT_NE(plain.message.find("gain kinetic energy"), std::string::npos) << plain.message;
  }
  EXPECT_GT(gains_at_most_one, 0);
  EXPECT_GT(gains_above_one, 300);  // 484 of the 1000 draws with e > 1
}

}  // namespace
}  // namespace saltus::mech
