// Routh's process on Painleve-regime landings (issue 32 item 0): the first slip phase has
// dv_n/dP_n = A_nn - mu s A_tn <= 0, so it cannot end the compression, but the slip decelerates,
// stops, the contact sticks and the compression ends in stick. Checked against an independent
// step-by-step integration of the impulse differential inclusion (implicit in the tangential
// impulse, as Moreau's scheme at the impulse level).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "saltus/mech/collision_matrix.hpp"
#include "saltus/mech/impact_law.hpp"
#include "saltus/mech/naive_impact_law.hpp"
#include "saltus/mech/routh_impact_process.hpp"

namespace saltus::mech {
namespace {

// The impulse process stepped with a fixed increment h of P_n. Per step the tangential impulse
// dP_t in [-mu h, mu h] solves the one-dimensional Coulomb problem at the end of the step
// (stick if it can hold, otherwise the cone edge opposing the end velocity). First order in h.
struct SteppedImpact {
  Eigen::Vector2d impulse = Eigen::Vector2d::Zero();
  bool ended = false;
};

SteppedImpact step_impulse_process(const Eigen::Matrix2d& A, const Eigen::Vector2d& v_minus,
                                   double e, double mu, RouthTermination termination, double h) {
  SteppedImpact out;
  Eigen::Vector2d v = v_minus, P = Eigen::Vector2d::Zero();
  double W = 0.0, P_nc = -1.0, W_c = 0.0;
  for (long step = 0; step < 50'000'000; ++step) {
    const double free_t = v[0] + A(0, 1) * h;  // end tangential velocity with dP_t = 0
    double dP_t = -free_t / A(0, 0);           // stick
    if (std::abs(dP_t) > mu * h) dP_t = free_t > 0.0 ? -mu * h : mu * h;
    const Eigen::Vector2d dP(dP_t, h);
    const Eigen::Vector2d v_next = v + A * dP;
    W += 0.5 * (v[1] + v_next[1]) * h;
    P += dP;
    if (P_nc < 0.0 && v_next[1] >= 0.0) {
      P_nc = P[1];
      W_c = W;
      if (e == 0.0) {
        out.impulse = P;
        out.ended = true;
        return out;
      }
    }
    v = v_next;
    if (P_nc >= 0.0) {
      const bool done = (termination == RouthTermination::Newton && v[1] >= -e * v_minus[1]) ||
                        (termination == RouthTermination::Poisson && P[1] >= (1.0 + e) * P_nc) ||
                        (termination == RouthTermination::Stronge && W >= (1.0 - e * e) * W_c);
      if (done) {
        out.impulse = P;
        out.ended = true;
        return out;
      }
    }
  }
  return out;
}

// The landing of the Frictional Bounce Model's tip pushed over the belt: a slender body whose
// first slip phase is in the Painleve regime (A_nn - mu s A_tn < 0) and decelerates.
TEST(RouthProcess, PainleveLandingSlipsToStickAndEndsTheCompressionInStick) {
  const double rho2 = 0.05, r_t = 0.7, r_n = -0.7;  // mu_P = (0.05 + 0.49)/0.49 = 1.10
  const Eigen::Matrix2d A = rigid_body_collision_matrix(1.0, rho2, r_t, r_n);
  const PlanarImpactInput in{A, {2.0, -0.1}};  // s = +1: A_nn - mu A_tn < 0 for mu = 3
  const double mu = 3.0;
  ASSERT_LT(A(1, 1) - mu * A(0, 1), 0.0);
  for (RouthTermination termination :
       {RouthTermination::Newton, RouthTermination::Poisson, RouthTermination::Stronge}) {
    const auto r = routh_impact(in, 0.5, mu, termination);
    ASSERT_TRUE(r.resolved()) << r.message;
    ASSERT_GE(r.phases.size(), 2u);
    EXPECT_EQ(r.phases[0].mode, SlipMode::SlipPositive);
    EXPECT_EQ(r.phases[0].end, PhaseEnd::StickOrReverse);
    EXPECT_EQ(r.phases[1].mode, SlipMode::Stick);
    // The stick phase ends the compression: v_n was still decreasing at the slip's end.
    EXPECT_EQ(r.phases[1].end, PhaseEnd::MaxCompression);
    EXPECT_LE(r.dT, 0.0) << to_string(termination);
    EXPECT_GE(r.v_plus[1], 0.0);
  }
  // The naive law freezes the slip direction, so it has no answer here.
  EXPECT_EQ(naive_impact(in, 0.5, mu).status, ImpactStatus::Jam);
}

// Random landings in the Painleve regime (rigid bodies of random shape, random approach), every
// termination and restitution: Routh's process resolves each one (for a positive definite A the
// path always ends: a Painleve slip, mu s A_tn > A_nn, decelerates since mu A_tt > |A_tn| would
// otherwise give A_tn^2 > A_tt A_nn) and agrees with the stepped inclusion to its O(h) error.
TEST(RouthProcess, RandomPainleveLandingsMatchTheSteppedImpulseProcess) {
  std::mt19937 rng(3201);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int cases = 0;
  double worst = 0.0;
  while (cases < 24) {
    const double m = 0.2 + 3.0 * unit(rng), rho2 = 0.01 + 0.2 * unit(rng);
    const double r_t = -1.0 + 2.0 * unit(rng), r_n = -1.0 + 2.0 * unit(rng);
    const Eigen::Matrix2d A = rigid_body_collision_matrix(m, rho2, r_t, r_n);
    const double s = unit(rng) < 0.5 ? -1.0 : 1.0;
    if (!(s * A(0, 1) > 0.0)) continue;  // Painleve needs mu s A_tn > A_nn
    const double mu_P = A(1, 1) / (s * A(0, 1));
    if (mu_P > 4.0) continue;
    const double mu = mu_P * (1.05 + 2.0 * unit(rng));
    const Eigen::Vector2d v_minus(s * (0.1 + 3.0 * unit(rng)), -(0.1 + 2.0 * unit(rng)));
    const double e = unit(rng) < 0.25 ? 0.0 : unit(rng);
    const RouthTermination termination = static_cast<RouthTermination>(cases % 3);
    ++cases;
    SCOPED_TRACE(::testing::Message()
                 << "case " << cases << ": A = [" << A(0, 0) << " " << A(0, 1) << "; " << A(1, 1)
                 << "], v- = (" << v_minus.transpose() << "), mu = " << mu << ", e = " << e << ", "
                 << to_string(termination));
    const auto r = routh_impact({A, v_minus}, e, mu, termination);
    ASSERT_TRUE(r.resolved()) << r.message;
    // In other units (mass in 1/a, velocity in 1/b): the same phases, P scaled by b a.
    const double a = 0.0137, b = 523.0;
    const auto scaled = routh_impact({A / a, b * v_minus}, e, mu, termination);
    ASSERT_TRUE(scaled.resolved()) << scaled.message;
    ASSERT_EQ(scaled.phases.size(), r.phases.size());
    EXPECT_LT((scaled.impulse - a * b * r.impulse).norm(), 1e-12 * a * b * r.impulse.norm());
    ASSERT_GE(r.phases.size(), 2u);
    EXPECT_EQ(r.phases[0].end, PhaseEnd::StickOrReverse);  // the Painleve slip stops first
    // Step: 1e-5 of the impulse that stops v_n- with the normal row alone.
    const double h = 1e-5 * (-v_minus[1] / A(1, 1));
    const SteppedImpact stepped = step_impulse_process(A, v_minus, e, mu, termination, h);
    ASSERT_TRUE(stepped.ended);
    const double error = (r.impulse - stepped.impulse).norm() / r.impulse.norm();
    worst = std::max(worst, error);
    // A few steps of error: the ending step and the stick onset each cost O(h) in P.
    EXPECT_LT((r.impulse - stepped.impulse).norm(), 20.0 * h * (1.0 + mu)) << error;
  }
  RecordProperty("worst_relative_error", std::to_string(worst));
}

// Lecornu's impact without collision at the dynamic jam: a contact sliding at v_n = 0 with a
// Painleve slip gets the impulse that brings it to rest, P = A^-1 (-v_t, 0) (the stick phase ends
// the compression where it began: v+ = 0), which dissipates; a slip outside the Painleve regime,
// or at rest, gets none.
TEST(ImpactWithoutCollision, APainleveSlipAtContactIsBroughtToRestByTheStickImpulse) {
  std::mt19937 rng(3205);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int jams = 0, others = 0;
  for (int k = 0; k < 400; ++k) {
    const Eigen::Matrix2d A =
        rigid_body_collision_matrix(0.2 + 3.0 * unit(rng), 0.01 + 0.2 * unit(rng),
                                    -1.0 + 2.0 * unit(rng), -1.0 + 2.0 * unit(rng));
    const double mu = 2.0 * unit(rng);
    const double v_t = k % 10 == 0 ? 0.0 : -3.0 + 6.0 * unit(rng);
    const double s = v_t > 0.0 ? 1.0 : -1.0;
    const auto r = impact_without_collision({A, {v_t, 0.0}}, mu);
    ASSERT_TRUE(r.resolved()) << r.message;
    if (v_t != 0.0 && A(1, 1) - mu * s * A(0, 1) <= 0.0) {
      ++jams;
      const Eigen::Vector2d P = A.inverse() * Eigen::Vector2d(-v_t, 0.0);
      EXPECT_NEAR((r.impulse - P).norm(), 0.0, 1e-12 * P.norm()) << k;
      EXPECT_NEAR(r.v_plus.norm(), 0.0, 1e-12 * std::abs(v_t)) << k;
      EXPECT_GT(r.impulse[1], 0.0);
      EXPECT_LE(std::abs(r.impulse[0]), mu * r.impulse[1] * (1.0 + 1e-12));
      EXPECT_LT(r.dT, 0.0);
    } else {
      ++others;
      EXPECT_EQ(r.impulse.norm(), 0.0) << k;
    }
  }
  EXPECT_GT(jams, 20);
  EXPECT_GT(others, 100);
}

}  // namespace
}  // namespace saltus::mech
