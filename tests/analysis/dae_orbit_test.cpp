// Periodic orbits of modes with algebraic states (index-1 DAE modes; return_map.hpp): the map
// acts on the differential states, the algebraic state is made consistent at each start and
// after each reset, and the multipliers are those of the differential part. Two systems with
// closed forms, written with the acceleration as the algebraic state z:
//  - the forced damped oscillator x' = v, v' = z, 0 = z + c v + x - a cos(w t) (z jumps with
//    v, forced_damped_oscillator.hpp's closed forms), shot and continued through its
//    Neimark-Sacker point c = 0;
//  - the impact oscillator x' = v, v' = z, 0 = z + x - A cos(w t) below the stop at sigma,
//    v -> -e v (impact_oscillator.hpp's closed-form period-1 orbit and monodromy trace);
//  - the energising wall x' = v, v' = z, 0 = z + x + c v, v -> -(v + k) at x = 0, on the section
//    v = 0 (energising_wall.hpp's closed-form limit cycle, period and multiplier q).
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>

#include "energising_wall.hpp"
#include "flow_map_differences.hpp"
#include "forced_damped_oscillator.hpp"
#include "impact_oscillator.hpp"
#include "saltus/analysis/orbit_continuation.hpp"

namespace saltus::analysis {
namespace {

using saltus::testing::ForcedDampedOscillator;
using saltus::testing::ImpactOscillator;

HybridSystem damped_dae(const ForcedDampedOscillator& fdo) {
  HybridSystem sys;
  const double a = fdo.a, w = fdo.w;
  sys.add_mode("free", semi_explicit_flow(
                           3, 1,
                           [](const auto&, const auto& x, const auto& z, auto& xd) {
                             xd[0] = x[1];
                             xd[1] = z[0];
                             xd[2] = 0.0 * x[2];
                           },
                           [a, w](const auto& t, const auto& x, const auto& z, auto& res) {
                             using std::cos;
                             res[0] = z[0] + x[2] * x[1] + x[0] - a * cos(w * t);
                           }));
  return sys;
}

HybridSystem impact_dae(const ImpactOscillator& io) {
  HybridSystem sys;
  const double A = io.A, w = io.w, s = io.sigma, e = io.e;
  const ModeId m =
      sys.add_mode("free", semi_explicit_flow(
                               2, 1,
                               [](const auto&, const auto& x, const auto& z, auto& xd) {
                                 xd[0] = x[1];
                                 xd[1] = z[0];
                               },
                               [A, w](const auto& t, const auto& x, const auto& z, auto& res) {
                                 using std::cos;
                                 res[0] = z[0] + x[0] - A * cos(w * t);
                               }));
  sys.add_guard(m, make_guard(
                       "stop", Direction::Rising,
                       [s](const auto&, const auto& x, const auto&) { return x[0] - s; },
                       Reset::to_ad(m, [e](const auto&, const auto& x, const auto&, auto& xp) {
                         xp[0] = x[0];
                         xp[1] = -e * x[1];
                       })));
  return sys;
}

TEST(DaeOrbit, ForcedDampedOscillatorWithAccelerationAsAlgebraicState) {
  const ForcedDampedOscillator fdo;
  const double c = 0.3;
  // A wrong algebraic guess: each start solves 0 = g for z.
  const ReturnMap map =
      stroboscopic_map(damped_dae(fdo), 0, 0.0, fdo.period(),
                       saltus::testing::differentiation_options(), {}, Vector::Constant(1, 5.0));
  const PeriodicOrbit orbit = find_fixed_point(
      map, fdo.fixed_point(c) + Vector::Constant(3, 0.1) - 0.1 * Vector::Unit(3, 2));
  ASSERT_TRUE(orbit.converged()) << orbit.message;
  EXPECT_LE((orbit.x - fdo.fixed_point(c)).lpNorm<Eigen::Infinity>(), 1e-9);
  ASSERT_EQ(orbit.multipliers.size(), 2);  // of (x, v): c is constant, its 1 left out
  const std::complex<double> exact =
      std::exp(std::complex<double>(-c / 2.0, std::sqrt(1.0 - c * c / 4.0)) * fdo.period());
  for (Eigen::Index k = 0; k < 2; ++k) {
    EXPECT_NEAR(std::abs(orbit.multipliers[k]), std::abs(exact), 1e-9);
    EXPECT_NEAR(std::abs(orbit.multipliers[k].imag()), std::abs(exact.imag()), 1e-9);
  }
  // Continued in c through 0: the Neimark-Sacker point with the angle T (w = 2.5, T < pi).
  ContinuationOptions o;
  o.parameter = 2;
  o.p_min = -0.3;
  o.p_max = 0.3;
  o.direction = -1.0;
  const Branch branch = continue_orbit(map, fdo.fixed_point(c), o);
  ASSERT_TRUE(branch.ok) << branch.stop_reason;
  for (const BranchPoint& p : branch.points) {
    EXPECT_LE((p.x - fdo.fixed_point(p.parameter)).lpNorm<Eigen::Infinity>(), 1e-9);
  }
  ASSERT_EQ(branch.bifurcations.size(), 1u) << branch.stop_reason;
  EXPECT_EQ(branch.bifurcations[0].kind, BifurcationKind::NeimarkSacker);
  EXPECT_NEAR(branch.bifurcations[0].parameter, 0.0, 1e-9);
  EXPECT_NEAR(branch.bifurcations[0].angle, fdo.crossing_angle(), 1e-9);
}

TEST(DaeOrbit, ImpactOscillatorWithAccelerationAsAlgebraicState) {
  const ImpactOscillator io;
  const ImpactOscillator::Orbit exact = io.closed_form();
  const PeriodicOrbit orbit =
      find_fixed_point(stroboscopic_map(impact_dae(io), 0, 0.0, io.period(),
                                        saltus::testing::differentiation_options()),
                       exact.state_at_zero + Vector::Constant(2, 0.01));
  ASSERT_TRUE(orbit.converged()) << orbit.message;
  RecordProperty(
      "dae_impact_orbit_error",
      saltus::testing::measured((orbit.x - exact.state_at_zero).lpNorm<Eigen::Infinity>()));
  EXPECT_LE((orbit.x - exact.state_at_zero).lpNorm<Eigen::Infinity>(), 1e-8);
  EXPECT_EQ(orbit.events_per_period, 1);
  // det M = e^2 and tr M = -2 e cos T + k sin T (impact_oscillator.hpp).
  EXPECT_NEAR(orbit.monodromy.determinant(), io.e * io.e, 1e-8);
  EXPECT_NEAR(orbit.monodromy.trace(), io.monodromy_trace(), 1e-7);
}

TEST(DaeOrbit, EnergisingWallOnASectionWithAccelerationAsAlgebraicState) {
  const saltus::testing::EnergisingWall wall;
  Vector guess = wall.section_point();
  guess[0] *= 1.2;
  guess[1] = -0.05;
  const Guard lowest = make_observer("lowest", Direction::Rising,
                                     [](const auto&, const auto& x, const auto&) { return x[1]; });
  const PeriodicOrbit orbit = find_fixed_point(
      section_map(wall.build_dae(), 0, 0.0, lowest, 0.25 * wall.period(), 3.0 * wall.period(),
                  saltus::testing::differentiation_options(), {}, Vector::Constant(1, 3.0)),
      guess);
  ASSERT_TRUE(orbit.converged()) << orbit.message;
  EXPECT_LE((orbit.x - wall.section_point()).lpNorm<Eigen::Infinity>(), 1e-8);
  EXPECT_NEAR(orbit.period, wall.period(), 1e-8);
  EXPECT_EQ(orbit.events_per_period, 1);
  // The Poincare map's multipliers: q and 0 (the flow direction).
  ASSERT_EQ(orbit.multipliers.size(), 2);
  EXPECT_NEAR(orbit.multipliers[0].real(), wall.q(), 1e-8);
  EXPECT_NEAR(std::abs(orbit.multipliers[1]), 0.0, 1e-8);
}

TEST(DaeOrbit, InconsistentAlgebraicStateIsAStatus) {
  // g with no root in z (0 = z^2 + 1): every start fails, naming the residual; no matrix.
  HybridSystem sys;
  sys.add_mode(
      "free",
      semi_explicit_flow(
          1, 1, [](const auto&, const auto& x, const auto&, auto& xd) { xd[0] = -x[0]; },
          [](const auto&, const auto&, const auto& z, auto& res) { res[0] = z[0] * z[0] + 1.0; }));
  const PeriodicOrbit orbit =
      find_fixed_point(stroboscopic_map(sys, 0, 0.0, 1.0), Vector::Constant(1, 1.0));
  EXPECT_FALSE(orbit.converged());
  EXPECT_EQ(orbit.status, ShootingStatus::MapFailed) << orbit.message;
  EXPECT_NE(orbit.message.find("residual"), std::string::npos) << orbit.message;
  EXPECT_EQ(orbit.monodromy.size(), 0);
  EXPECT_EQ(orbit.multipliers.size(), 0);
}

}  // namespace
}  // namespace saltus::analysis
