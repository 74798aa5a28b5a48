// Routh's process in space (spatial_routh_process.hpp): against the planar process when the
// motion keeps to one tangent direction (any orientation of the tangent plane), against Newton's
// law with the cone for a sphere (no coupling: every ending is Newton's), and over random contacts
// the process's own invariants: the cone, each ending's condition, Stronge's work ratio and no
// energy gained, the contact at rest when it ends sticking, the same answer in other units.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "saltus/mech/routh_impact_process.hpp"
#include "saltus/mech/spatial_impact_law.hpp"
#include "saltus/mech/spatial_routh_process.hpp"

namespace saltus::mech {
namespace {

constexpr RouthTermination kEndings[] = {RouthTermination::Newton, RouthTermination::Poisson,
                                         RouthTermination::Stronge};

Eigen::Matrix2d rotation(double th) {
  Eigen::Matrix2d R;
  R << std::cos(th), -std::sin(th), std::sin(th), std::cos(th);
  return R;
}

// The planar contact (A, v-) in space: its tangent t along R e_1 (the plane turned by th), a second
// tangent decoupled from both with A_T2T2 = other.
SpatialImpactInput embedded(const PlanarImpactInput& planar, double th, double other) {
  const Eigen::Matrix2d R = rotation(th);
  Eigen::Matrix2d B = Eigen::Vector2d(planar.A(0, 0), other).asDiagonal();
  B = R * B * R.transpose();
  const Eigen::Vector2d a = R * Eigen::Vector2d(planar.A(0, 1), 0.0);
  SpatialImpactInput in;
  in.A << planar.A(1, 1), a.transpose(), a, B;
  in.v_minus << planar.v_minus[1], R * Eigen::Vector2d(planar.v_minus[0], 0.0);
  return in;
}

// The spatial impulse is the planar one (P_t, P_n) turned by th, to 1e-9 of the planar impulse.
void expect_turned(const SpatialImpactResult& s, const PlanarImpactResult& p, double th,
                   const std::string& what) {
  const double scale = std::max(1e-12, p.impulse.cwiseAbs().maxCoeff());
  const Eigen::Vector2d P_T = rotation(th) * Eigen::Vector2d(p.impulse[0], 0.0);
  EXPECT_NEAR(s.impulse[0], p.impulse[1], 1e-9 * scale) << what;
  EXPECT_NEAR(s.impulse[1], P_T[0], 1e-9 * scale) << what;
  EXPECT_NEAR(s.impulse[2], P_T[1], 1e-9 * scale) << what;
}

// A random symmetric positive definite 3 x 3 matrix with condition number up to about 100.
Eigen::Matrix3d random_spd(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::Matrix3d L;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) L(i, j) = u(rng);
  return L * L.transpose() + 0.01 * Eigen::Matrix3d::Identity();
}

TEST(SpatialRouthProcess, IsThePlanarProcessWhenTheSlipKeepsToOneDirection) {
  // Planar A (t, n) embedded with a second tangent decoupled from both, the tangent plane turned
  // by a random angle: P_N and the turned P_T are the planar process's (1e-9 of the impulse),
  // and where the planar process jams so does this one. Stick, reversal (the ray) and Painleve
  // slips are all reached.
  std::mt19937 rng(48);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int compared = 0, jams = 0, sticks = 0, rays = 0;
  for (int k = 0; k < 300; ++k) {
    const double A_tt = 0.2 + 2.0 * u(rng), A_nn = 0.2 + 2.0 * u(rng);
    const double A_tn = (2.0 * u(rng) - 1.0) * 0.95 * std::sqrt(A_tt * A_nn);
    const double mu = 0.05 + 1.5 * u(rng), e = u(rng), th = 6.3 * u(rng);
    const Eigen::Vector2d v_planar(2.0 * u(rng) - 1.0, -0.1 - u(rng));  // (v_t, v_n)
    PlanarImpactInput planar;
    planar.A << A_tt, A_tn, A_tn, A_nn;
    planar.v_minus = v_planar;
    const SpatialImpactInput in = embedded(planar, th, 0.3 + u(rng));
    for (const RouthTermination ending : kEndings) {
      const PlanarImpactResult p = routh_impact(planar, e, mu, ending);
      SpatialRouthTrace trace;
      const SpatialImpactResult s = spatial_routh_impact(in, e, mu, ending, &trace);
      ASSERT_EQ(p.status == ImpactStatus::Resolved, s.resolved())
          << k << " " << to_string(ending) << ": " << p.message << " / " << s.message;
      if (!s.resolved()) {
        ++jams;
        EXPECT_FALSE(s.message.empty());
        continue;
      }
      expect_turned(s, p, th, std::to_string(k) + " " + to_string(ending));
      for (const SpatialRouthPhase& phase : trace.phases) {
        sticks += phase.kind == SpatialSlipPhase::Stick;
        rays += phase.kind == SpatialSlipPhase::RaySlip;
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 800);
  EXPECT_GT(sticks, 50);
  EXPECT_GT(rays, 50);
  std::printf("compared %d, jams %d, stick phases %d, ray phases %d\n", compared, jams, sticks,
              rays);
}

TEST(SpatialRouthProcess, IsNewtonsLawWithTheConeForASphere) {
  // A sphere's lowest point: A_NT = 0, B = (1/m + r^2/I) 1. The slip keeps its direction and v_N
  // its rate of change, so every ending is Newton's law with the cone and e_t = 0.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int k = 0; k < 40; ++k) {
    const double m = 0.2 + u(rng), r = 0.05 + u(rng), I = 0.4 * m * r * r;
    SpatialImpactInput in;
    in.A = Eigen::Vector3d(1.0 / m, 1.0 / m + r * r / I, 1.0 / m + r * r / I).asDiagonal();
    in.v_minus << -0.5 - u(rng), 2.0 * u(rng) - 1.0, 2.0 * u(rng) - 1.0;
    const double mu = 0.05 + u(rng), e = u(rng);
    const SpatialImpactResult newton = spatial_newton_coulomb_impact(in, e, 0.0, mu, false);
    ASSERT_TRUE(newton.resolved()) << newton.message;
    for (const RouthTermination ending : kEndings) {
      const SpatialImpactResult s = spatial_routh_impact(in, e, mu, ending);
      ASSERT_TRUE(s.resolved()) << s.message;
      EXPECT_LT((s.impulse - newton.impulse).norm(), 1e-10 * newton.impulse.norm())
          << k << " " << to_string(ending) << " " << s.impulse.transpose() << " / "
          << newton.impulse.transpose();
      EXPECT_EQ(s.sticks, newton.sticks) << k;
    }
  }
}

TEST(SpatialRouthProcess, KeepsItsLawsOverRandomContacts) {
  // 400 random positive definite A, approaching velocities, mu and e, every ending: the impulse
  // lies in the cone, the ending's condition holds (Newton's rate, Poisson's impulse ratio,
  // Stronge's work ratio), Stronge never gains energy, the work of the process is the kinetic
  // energy change, a contact that ends sticking is at rest; in other units (A times alpha, v
  // times beta) the impulse is beta / alpha times as large.
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int resolved = 0, swerved = 0;
  for (int k = 0; k < 400; ++k) {
    SpatialImpactInput in;
    in.A = random_spd(rng);
    in.v_minus << -0.1 - u(rng), 2.0 * u(rng) - 1.0, 2.0 * u(rng) - 1.0;
    const double mu = 0.05 + 1.2 * u(rng), e = u(rng);
    const double T = 0.5 * in.v_minus.dot(in.A.ldlt().solve(in.v_minus));
    for (const RouthTermination ending : kEndings) {
      SpatialRouthTrace trace;
      const SpatialImpactResult s = spatial_routh_impact(in, e, mu, ending, &trace);
      if (ending == RouthTermination::Stronge) {
        ASSERT_TRUE(s.resolved()) << k << ": " << s.message;
      }
      if (!s.resolved()) {
        EXPECT_NE(s.message.find("Routh process in space"), std::string::npos) << s.message;
        continue;
      }
      ++resolved;
      const double P_N = s.impulse[0], scale = s.impulse.norm();
      EXPECT_GT(P_N, 0.0);
      EXPECT_LE(s.impulse.tail<2>().norm(), mu * P_N * (1.0 + 1e-9)) << k;
      EXPECT_GE(s.v_plus[0], -1e-12 * in.v_minus.norm()) << k;
      EXPECT_NEAR(s.dT, trace.normal_work + trace.friction_work, 1e-9 * T) << k;
      EXPECT_LE(trace.friction_work, 1e-14 * T) << k;
      switch (ending) {
        case RouthTermination::Newton:
          EXPECT_NEAR(s.v_plus[0], -e * in.v_minus[0], 1e-10 * in.v_minus.norm()) << k;
          break;
        case RouthTermination::Poisson:
          EXPECT_NEAR(P_N, (1.0 + e) * trace.P_N_compression, 1e-10 * scale) << k;
          break;
        case RouthTermination::Stronge:
          EXPECT_LE(s.dT, 1e-12 * T) << k;
          if (e > 0.0) {
            EXPECT_NEAR(trace.W_restitution, -e * e * trace.W_compression,
                        1e-9 * std::abs(trace.W_compression))
                << k;
          }
          break;
      }
      if (s.sticks) {
        EXPECT_LT(s.v_plus.tail<2>().norm(), 1e-9 * in.v_minus.norm()) << k;
      }
      // The slip turned: its direction after differs from before (a slip that ends sliding).
      if (!s.sticks && s.v_plus.tail<2>().norm() > 1e-3 && in.v_minus.tail<2>().norm() > 1e-3) {
        const double turn = std::acos(std::clamp(
            s.v_plus.tail<2>().normalized().dot(in.v_minus.tail<2>().normalized()), -1.0, 1.0));
        swerved += turn > 0.1;
      }
      const double alpha = 1e3, beta = 1e-2;
      SpatialImpactInput other = in;
      other.A *= alpha;
      other.v_minus *= beta;
      const SpatialImpactResult t = spatial_routh_impact(other, e, mu, ending);
      ASSERT_TRUE(t.resolved()) << t.message;
      EXPECT_LT((t.impulse * alpha / beta - s.impulse).norm(), 1e-9 * scale) << k;
    }
  }
  EXPECT_GT(resolved, 1100);
  EXPECT_GT(swerved, 50);
  std::printf("resolved %d of 1200, slips turned by more than 0.1 rad: %d\n", resolved, swerved);
}

TEST(SpatialRouthProcess, WithoutCollisionIsThePlanarLecornuImpulse) {
  // Lecornu's impact without collision in space with the slip in one tangent direction (the plane
  // turned by a random angle): the planar impact_without_collision (1e-9 of the impulse) for
  // Painleve slips (A_nn - mu s A_tn <= 0), none for the others; in general A (the slip turning),
  // the impulse lies on the cone and brings the slip to rest, and energy is lost.
  std::mt19937 rng(1988);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int painleve = 0, turned = 0;
  for (int k = 0; k < 200; ++k) {
    const double A_tt = 0.5 + 2.0 * u(rng), A_nn = 0.2 + u(rng);
    const double A_tn = (2.0 * u(rng) - 1.0) * 0.95 * std::sqrt(A_tt * A_nn);
    const double mu = 0.2 + 3.0 * u(rng), th = 6.3 * u(rng), v_t = 2.0 * u(rng) - 1.0;
    const double jam = 2e-9 * A_nn;
    PlanarImpactInput planar;
    planar.A << A_tt, A_tn, A_tn, A_nn;
    planar.v_minus << v_t, 0.0;
    const PlanarImpactResult p = impact_without_collision(planar, mu, jam);
    const SpatialImpactInput in = embedded(planar, th, 0.3 + u(rng));
    const SpatialImpactResult s = spatial_impact_without_collision(in, mu, jam);
    ASSERT_EQ(p.status == ImpactStatus::Resolved, s.resolved()) << k << ": " << s.message;
    expect_turned(s, p, th, std::to_string(k));
    painleve += p.impulse[1] > 0.0;
  }
  for (int k = 0; k < 300; ++k) {
    SpatialImpactInput in;
    in.A = random_spd(rng);
    in.v_minus << 0.0, 2.0 * u(rng) - 1.0, 2.0 * u(rng) - 1.0;
    const double mu = 0.5 + 3.0 * u(rng);
    const Eigen::Vector2d d = in.v_minus.tail<2>().normalized();
    const double slope = in.A(0, 0) - mu * in.A.block<1, 2>(0, 1).dot(d);
    const SpatialImpactResult s = spatial_impact_without_collision(in, mu, 1e-9 * in.A(0, 0));
    if (slope > 1e-9 * in.A(0, 0)) {
      EXPECT_EQ(s.impulse, Eigen::Vector3d::Zero()) << k << ": not a Painleve slip";
      continue;
    }
    ASSERT_TRUE(s.resolved()) << k << ": " << s.message;
    EXPECT_GT(s.impulse[0], 0.0) << k;
    EXPECT_LE(s.impulse.tail<2>().norm(), mu * s.impulse[0] * (1.0 + 1e-9)) << k;
    EXPECT_LE(s.dT, 0.0) << k;
    EXPECT_GE(s.v_plus[0], -1e-12) << k;
    if (s.sticks) {
      EXPECT_LT(s.v_plus.tail<2>().norm(), 1e-9 * in.v_minus.norm()) << k;
      // The tangential impulse's angle from -d: the slip turned during the process.
      const double turn =
          std::acos(std::clamp((-s.impulse.tail<2>().normalized()).dot(d), -1.0, 1.0));
      turned += turn > 0.05;
    }
  }
  EXPECT_GT(painleve, 30);
  EXPECT_GT(turned, 10);
  std::printf("planar Painleve jams %d; in space, impulses turned from the slip %d\n", painleve,
              turned);
}

TEST(SpatialRouthProcess, SaysWhyItHasNoAnswer) {
  SpatialImpactInput in;
  in.v_minus << -1.0, 0.3, 0.0;
  const SpatialImpactResult away = [&] {
    SpatialImpactInput leaving = in;
    leaving.v_minus[0] = 0.5;
    return spatial_routh_impact(leaving, 0.5, 0.3, RouthTermination::Stronge);
  }();
  EXPECT_TRUE(away.resolved());
  EXPECT_EQ(away.impulse, Eigen::Vector3d::Zero());
  in.A << 1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0;  // not positive definite
  const SpatialImpactResult bad = spatial_routh_impact(in, 0.5, 0.3, RouthTermination::Stronge);
  EXPECT_FALSE(bad.resolved());
  EXPECT_NE(bad.message.find("not positive definite"), std::string::npos) << bad.message;
}

}  // namespace
}  // namespace saltus::mech
