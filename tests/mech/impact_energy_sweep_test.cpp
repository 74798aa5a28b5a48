// Energy consistency of the frictional impact laws over 10^5 random planar impacts
// (issue 4 "Must show"; FORMULAS.md 8, 9, 14 [002] Newton vs Poisson).
//
// Each sample: a planar rigid body (mass m, radius of gyration rho, contact offset r = (r_t, r_n)
// anywhere on the lower half plane around the centre of mass), a pre-impact contact velocity of
// random speed and incidence angle (v_n- < 0), e in [0, 1], e_t in [-1, 1], mu in [0, 2]. Every
// law resolves the same impact; Delta T is compared with round-off 1e-12 T-.
// Expected: Chatterjee-Ruina, Routh-Poisson and Routh-Stronge never gain energy; the naive law
// and Routh-Newton do (named cases below and counted here). Jams (dv_n/dP_n <= 0 while
// approaching) are counted and excluded from the energy check.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>
#include <map>
#include <random>
#include <string>

#include "saltus/mech/collision_matrix.hpp"
#include "saltus/mech/impact_law.hpp"
#include "saltus/mech/routh_impact_process.hpp"
#include "support/oracles.hpp"

namespace saltus::mech {
namespace {

constexpr long kSamples = 100000;

struct Sample {
  double m, rho2, r_t, r_n, e, e_t, mu;
  Eigen::Vector2d v;
};

Sample draw(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Sample s;
  s.m = std::exp(std::log(0.1) + u(rng) * std::log(100.0));               // 0.1 .. 10
  const double rho = std::exp(std::log(0.05) + u(rng) * std::log(40.0));  // 0.05 .. 2
  s.rho2 = rho * rho;
  const double d = std::exp(std::log(0.05) + u(rng) * std::log(40.0));
  const double phi = -M_PI * u(rng);  // contact point below the centre of mass
  s.r_t = d * std::cos(phi);
  s.r_n = d * std::sin(phi);
  const double angle = M_PI * (0.001 + 0.998 * u(rng));  // incidence, from grazing to grazing
  const double speed = std::exp(std::log(0.01) + u(rng) * std::log(1e4));
  s.v = {speed * std::cos(angle), -speed * std::sin(angle)};
  s.e = u(rng);
  s.e_t = -1.0 + 2.0 * u(rng);
  s.mu = 2.0 * u(rng);
  if (u(rng) < 0.05) s.e = 0.0;  // plastic and elastic extremes get their share
  if (u(rng) < 0.05) s.e = 1.0;
  return s;
}

struct Tally {
  long gains = 0, jams = 0;
  double worst_relative_gain = 0.0;
  Sample worst{};
};

TEST(ImpactEnergySweep, ConsistentLawsNeverGainEnergy) {
  std::mt19937_64 rng(20240611);
  std::map<ImpactLawKind, Tally> tally;
  for (long i = 0; i < kSamples; ++i) {
    const Sample s = draw(rng);
    const Eigen::Matrix2d A = rigid_body_collision_matrix(s.m, s.rho2, s.r_t, s.r_n);
    const double T_minus = 0.5 * s.v.dot(A.inverse() * s.v);  // contact-space kinetic energy
    for (ImpactLawKind kind : frictional_impact_laws()) {
      // Glocker's e_t (newton_coulomb) is a restitution in [0, 1].
      const double e_t = kind == ImpactLawKind::NewtonCoulomb ? std::abs(s.e_t) : s.e_t;
      const auto r = solve_planar_impact({A, s.v}, {kind, s.e, e_t, s.mu});
      Tally& t = tally[kind];
      if (!r.resolved()) {
        ++t.jams;
        continue;
      }
      const double rel = r.dT / T_minus;
      if (rel > 1e-12) {
        ++t.gains;
        if (rel > t.worst_relative_gain) {
          t.worst_relative_gain = rel;
          t.worst = s;
        }
      }
    }
  }
  for (auto& [kind, t] : tally) {
    RecordProperty(std::string(to_string(kind)) + "_gains", static_cast<int>(t.gains));
    RecordProperty(std::string(to_string(kind)) + "_jams", static_cast<int>(t.jams));
    std::printf("  %-18s gains %6ld  jams %5ld  worst dT/T- %.3e\n", to_string(kind), t.gains,
                t.jams, t.worst_relative_gain);
  }
  // newton_coulomb: an impact that would gain energy is a status (newton_coulomb_law.hpp).
  for (ImpactLawKind kind : {ImpactLawKind::ChatterjeeRuina, ImpactLawKind::RouthPoisson,
                             ImpactLawKind::RouthStronge, ImpactLawKind::NewtonCoulomb}) {
    const Tally& t = tally[kind];
    EXPECT_EQ(t.gains, 0) << to_string(kind) << " gained energy; worst dT/T- "
                          << t.worst_relative_gain << " at m " << t.worst.m << " rho2 "
                          << t.worst.rho2 << " r (" << t.worst.r_t << ", " << t.worst.r_n
                          << ") v- (" << t.worst.v[0] << ", " << t.worst.v[1] << ") e " << t.worst.e
                          << " e_t " << t.worst.e_t << " mu " << t.worst.mu;
  }
  // The sweep must also find the gains the issue names.
  EXPECT_GT(tally[ImpactLawKind::Naive].gains, 0);
  EXPECT_GT(tally[ImpactLawKind::RouthNewton].gains, 0);
}

// Named: the naive law creates energy at nearly normal incidence with e = 1 (FORMULAS.md 6.3;
// oracle particle_naive_m1_V1_eps0.05_e1_mu0.3: dT = +0.15 = 2 m V^2 mu (mu - eps)).
TEST(ImpactEnergySweep, NaiveLawGainsEnergyNearNormalIncidence) {
  const auto& c = saltus::testing::oracle_case("particle_naive_m1_V1_eps0.05_e1_mu0.3");
  const auto& p = c["parameters"];
  const PlanarImpactInput in{Eigen::Matrix2d::Identity() / double(p["m"]),
                             Eigen::Vector2d(p["v_minus_t"], p["v_minus_n"])};
  const auto r = solve_planar_impact(in, {ImpactLawKind::Naive, p["e"], 0.0, p["mu"]});
  EXPECT_NEAR(r.dT, 0.15, 1e-14);
  // The consistent laws dissipate (or, elastic and frictionless-like, conserve) on it.
  for (auto kind :
       {ImpactLawKind::ChatterjeeRuina, ImpactLawKind::RouthPoisson, ImpactLawKind::RouthStronge}) {
    EXPECT_LE(solve_planar_impact(in, {kind, p["e"], 0.0, p["mu"]}).dT, 1e-15) << to_string(kind);
  }
}

// Named: Routh-Newton creates energy after stick (oracle body_newton_energy_gain_visible:
// Delta T = +0.3676 of T- = 2.25; Poisson -0.1634, Stronge -0.1176).
TEST(ImpactEnergySweep, RouthNewtonGainsEnergyAfterStick) {
  const auto& c = saltus::testing::oracle_case("body_newton_energy_gain_visible");
  const auto& p = c["parameters"];
  const Eigen::Matrix2d A = rigid_body_collision_matrix(p["m"], p["rho2"], p["r_t"], p["r_n"]);
  const double r_t = p["r_t"], r_n = p["r_n"];
  const auto q = p["qdot_minus"].get<std::vector<double>>();
  const Eigen::Vector2d v(q[0] - r_n * q[2], q[1] + r_t * q[2]);
  const auto r = routh_impact({A, v}, p["e"], p["mu"], RouthTermination::Newton);
  EXPECT_NEAR(r.dT, 0.3676400523058973, 1e-12);
  EXPECT_GT(r.dT, 0.0);
}

}  // namespace
}  // namespace saltus::mech
