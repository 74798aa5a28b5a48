// Continuation of the impact oscillator's period-1 orbit in the stop position sigma
// (impact_oscillator.hpp; sigma a state of zero derivative): every branch point against the
// closed-form orbit, the period doubling where the closed-form monodromy trace is -(1 + e^2),
// the grazing at sigma = |A / (1 - w^2)|, and a brute-force diagram that agrees with the branch.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>
#include <random>

#include "flow_map_differences.hpp"
#include "impact_oscillator.hpp"
#include "saltus/analysis/bifurcation_diagram.hpp"
#include "saltus/analysis/orbit_continuation.hpp"
#include "saltus/analysis/periodic_orbit.hpp"
#include "saltus/analysis/poincare_section.hpp"

namespace saltus::analysis {
namespace {

using saltus::testing::ImpactOscillator;

// sigma where the closed-form trace crosses -(1 + e^2), by bisection on [lo, hi].
double closed_form_doubling(ImpactOscillator io, double lo, double hi) {
  const double target = -(1.0 + io.e * io.e);
  io.sigma = lo;
  const double f_lo = io.monodromy_trace() - target;
  for (int k = 0; k < 200; ++k) {
    io.sigma = 0.5 * (lo + hi);
    const double f = io.monodromy_trace() - target;
    ((f > 0.0) == (f_lo > 0.0) ? lo : hi) = io.sigma;
  }
  return 0.5 * (lo + hi);
}

Vector with_sigma(const Vector& x, double sigma) {
  Vector out(3);
  out << x[0], x[1], sigma;
  return out;
}

TEST(OrbitContinuation, ImpactOscillatorDoublingAndGrazingInTheStopPosition) {
  ImpactOscillator io;
  const HybridSystem sys = io.build(nullptr, true);
  const SimulationOptions options = saltus::testing::differentiation_options();
  const ReturnMap map = stroboscopic_map(sys, 0, 0.0, io.period(), options);
  ContinuationOptions c;
  c.parameter = 2;
  c.p_min = -0.5;
  c.p_max = 1.0;
  const Branch branch =
      continue_orbit(map, with_sigma(io.closed_form().state_at_zero, io.sigma), c);
  ASSERT_TRUE(branch.ok) << branch.stop_reason;
  ASSERT_GE(branch.points.size(), 10u) << branch.stop_reason;
  RecordProperty("branch_points", static_cast<int>(branch.points.size()));
  // Every point is the closed-form orbit at its sigma, with det M = e^2.
  double worst = 0.0;
  for (const BranchPoint& p : branch.points) {
    ImpactOscillator at = io;
    at.sigma = p.parameter;
    const ImpactOscillator::Orbit exact = at.closed_form();
    ASSERT_EQ(exact.state_at_zero.size(), 2) << "no closed-form orbit at sigma " << p.parameter;
    worst = std::max(worst, (p.x.head(2) - exact.state_at_zero).lpNorm<Eigen::Infinity>());
    EXPECT_NEAR(p.x[2], p.parameter, 0.0);
    // det M = e^2; its rounding grows with |M|^2 (|M| ~ 1/V near grazing).
    const double size = std::max(1.0, std::abs(p.multipliers[0]));
    EXPECT_NEAR(std::abs(p.multipliers.prod()), io.e * io.e, 1e-8 * size * size)
        << "sigma " << p.parameter << ", largest multiplier " << p.multipliers[0];
    EXPECT_EQ(p.resets, 1);
  }
  RecordProperty("worst_point_error", saltus::testing::measured(worst));
  EXPECT_LE(worst, 1e-8);
  // Period doubling where the closed-form trace is -(1 + e^2), then grazing at |A / (1 - w^2)|.
  const double sigma_g = io.grazing_sigma();
  ASSERT_EQ(branch.bifurcations.size(), 2u) << branch.stop_reason;
  const BifurcationPoint& pd = branch.bifurcations[0];
  EXPECT_EQ(pd.kind, BifurcationKind::PeriodDoubling) << pd.message;
  const double sigma_pd = closed_form_doubling(io, io.sigma, sigma_g * (1.0 - 1e-9));
  RecordProperty("period_doubling", saltus::testing::measured(pd.parameter) + " vs " +
                                        saltus::testing::measured(sigma_pd));
  EXPECT_NEAR(pd.parameter, sigma_pd, 1e-7) << pd.message;
  double nearest_to_minus_one = kInfinity;
  for (Eigen::Index k = 0; k < pd.multipliers.size(); ++k) {
    nearest_to_minus_one = std::min(nearest_to_minus_one, std::abs(pd.multipliers[k] + 1.0));
  }
  EXPECT_LE(nearest_to_minus_one, 1e-6);
  const BifurcationPoint& graze = branch.bifurcations[1];
  EXPECT_EQ(graze.kind, BifurcationKind::Grazing) << graze.message;
  RecordProperty("grazing", saltus::testing::measured(graze.parameter) + " vs " +
                                saltus::testing::measured(sigma_g));
  EXPECT_NEAR(graze.parameter, sigma_g, 1e-5) << graze.message;
  // Stable before the doubling, unstable after it.
  for (const BranchPoint& p : branch.points) {
    if (p.parameter < sigma_pd - 1e-6) {
      EXPECT_TRUE(p.stable) << p.parameter;
    } else if (p.parameter > sigma_pd + 1e-6) {
      EXPECT_FALSE(p.stable) << p.parameter;
    }
  }
}

TEST(OrbitContinuation, RandomOscillatorsFollowTheirClosedForm) {
  // Seeded random forcing frequencies and restitutions: a few continuation steps in sigma from 0,
  // every point on the closed-form orbit of its sigma, det M = e^2, one impact per period.
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> frequency(2.2, 3.5), restitution(0.5, 0.9);
  int continued = 0;
  for (int trial = 0; trial < 10; ++trial) {
    ImpactOscillator io;
    io.w = frequency(rng);
    io.e = restitution(rng);
    const ImpactOscillator::Orbit start = io.closed_form();
    if (start.state_at_zero.size() != 2) continue;  // no admissible period-1 orbit at sigma = 0
    const ReturnMap map = stroboscopic_map(io.build(nullptr, true), 0, 0.0, io.period(),
                                           saltus::testing::differentiation_options());
    ContinuationOptions c;
    c.parameter = 2;
    c.max_points = 6;
    c.max_step = 0.01;
    const Branch branch = continue_orbit(map, with_sigma(start.state_at_zero, 0.0), c);
    ASSERT_TRUE(branch.ok) << "w " << io.w << " e " << io.e << ": " << branch.stop_reason;
    ++continued;
    for (const BranchPoint& p : branch.points) {
      ImpactOscillator at = io;
      at.sigma = p.parameter;
      const ImpactOscillator::Orbit exact = at.closed_form();
      ASSERT_EQ(exact.state_at_zero.size(), 2) << "sigma " << p.parameter;
      EXPECT_LE((p.x.head(2) - exact.state_at_zero).lpNorm<Eigen::Infinity>(), 1e-8)
          << "w " << io.w << " e " << io.e << " sigma " << p.parameter;
      const double size = std::max(1.0, std::abs(p.multipliers[0]));
      EXPECT_NEAR(std::abs(p.multipliers.prod()), io.e * io.e, 1e-8 * size * size);
      EXPECT_EQ(p.resets, 1);
    }
  }
  EXPECT_GE(continued, 5);  // most draws have the orbit
}

TEST(OrbitContinuation, NonImpactingOrbitGrazesFromAbove) {
  // Above sigma_g the period-1 orbit is the free forced response x = P cos(w t), P = A/(1 - w^2),
  // whose closest approach to the stop is sigma - |P| (the apex observers' value). Continued
  // down in sigma it grazes at sigma_g, where impacts appear.
  ImpactOscillator io;
  const HybridSystem sys = io.build(nullptr, true);
  const ReturnMap map =
      stroboscopic_map(sys, 0, 0.0, io.period(), saltus::testing::differentiation_options());
  const double P = io.A / (1.0 - io.w * io.w), sigma_g = io.grazing_sigma();
  Vector start(3);
  start << P, 0.0, 0.3;
  const MapValue at_start = map(start);
  ASSERT_TRUE(at_start.ok()) << at_start.message;
  EXPECT_EQ(at_start.resets, 0);
  EXPECT_NEAR(at_start.closest_approach, 0.3 - sigma_g, 1e-9);
  ContinuationOptions c;
  c.parameter = 2;
  c.direction = -1.0;
  c.p_min = 0.0;
  c.p_max = 1.0;
  const Branch branch = continue_orbit(map, start, c);
  ASSERT_TRUE(branch.ok) << branch.stop_reason;
  for (const BranchPoint& p : branch.points) {
    EXPECT_EQ(p.resets, 0);
    EXPECT_NEAR(p.x[0], P, 1e-9);
    EXPECT_NEAR(p.closest_approach, p.parameter - sigma_g, 1e-8);
  }
  ASSERT_EQ(branch.bifurcations.size(), 1u) << branch.stop_reason;
  EXPECT_EQ(branch.bifurcations[0].kind, BifurcationKind::Grazing);
  EXPECT_NEAR(branch.bifurcations[0].parameter, sigma_g, 1e-5) << branch.bifurcations[0].message;
}

TEST(OrbitContinuation, FoldWhereTheTwoClosedFormOrbitsMeet) {
  // The closed form's impact phase solves R cos(phi - delta) = (1 - e) tan(T/2) sigma: its two
  // solutions meet where the right side is -R, at sigma_f = -R / ((1 - e) tan(T/2)) (a fold of
  // period-1 orbits, a multiplier at +1). Continued down from sigma = 0 the branch turns there.
  ImpactOscillator io;
  const double P = io.A / (1.0 - io.w * io.w), t2 = std::tan(io.period() / 2.0);
  const double R = std::abs(P) * std::hypot((1.0 - io.e) * t2, (1.0 + io.e) * io.w);
  const double sigma_f = -R / ((1.0 - io.e) * t2);
  const ReturnMap map = stroboscopic_map(io.build(nullptr, true), 0, 0.0, io.period(),
                                         saltus::testing::differentiation_options());
  ContinuationOptions c;
  c.parameter = 2;
  c.direction = -1.0;
  c.p_min = 2.0 * sigma_f;
  c.p_max = 0.5;
  c.max_points = 120;
  const Branch branch =
      continue_orbit(map, with_sigma(io.closed_form().state_at_zero, io.sigma), c);
  ASSERT_TRUE(branch.ok) << branch.stop_reason;
  const BifurcationPoint* fold = nullptr;
  for (const BifurcationPoint& b : branch.bifurcations) {
    if (b.kind == BifurcationKind::Fold) fold = &b;
  }
  ASSERT_NE(fold, nullptr) << branch.stop_reason;
  RecordProperty("fold", saltus::testing::measured(fold->parameter) + " vs " +
                             saltus::testing::measured(sigma_f));
  EXPECT_NEAR(fold->parameter, sigma_f, 1e-6) << fold->message;
  double nearest_to_one = kInfinity;
  for (Eigen::Index k = 0; k < fold->multipliers.size(); ++k) {
    nearest_to_one = std::min(nearest_to_one, std::abs(fold->multipliers[k] - 1.0));
  }
  EXPECT_LE(nearest_to_one, 1e-4);
  // Past the fold the points are the other closed-form solution: sigma grows again.
  EXPECT_GT(branch.points.back().parameter, sigma_f);
}

TEST(OrbitContinuation, ParameterThatChangesAlongTheOrbitIsRefused) {
  // x as the "parameter": it is not constant along the orbit, so nothing is continued.
  ImpactOscillator io;
  const ReturnMap map = stroboscopic_map(io.build(nullptr, true), 0, 0.0, io.period(),
                                         saltus::testing::differentiation_options());
  ContinuationOptions c;
  c.parameter = 0;
  const Branch branch = continue_orbit(
      map, with_sigma(io.closed_form().state_at_zero + Vector::Constant(2, 0.1), 0.0), c);
  EXPECT_FALSE(branch.ok);
  EXPECT_TRUE(branch.points.empty());
  EXPECT_NE(branch.stop_reason.find("not constant along the orbit"), std::string::npos)
      << branch.stop_reason;
}

TEST(OrbitContinuation, BruteForceDiagramAgreesWithTheBranch) {
  ImpactOscillator io;
  const double t_s = io.period() / 4.0;
  const Guard strobe = stroboscopic_section("strobe", io.period(), t_s);
  const HybridSystem sys = io.build(&strobe, true);
  const double sigma_g = io.grazing_sigma();
  const double sigma_pd = closed_form_doubling(io, io.sigma, sigma_g * (1.0 - 1e-9));
  DiagramOptions d;
  d.parameter = 2;
  d.discard = 300;
  d.keep = 8;
  d.horizon = 1000.0 * io.period();
  d.simulation = saltus::testing::differentiation_options();
  d.values = {0.0, 0.5 * sigma_pd, 0.9 * sigma_pd};
  const std::vector<DiagramColumn> columns =
      bifurcation_diagram(sys, 0, 1, with_sigma(io.closed_form().state_at_zero, 0.0), d);
  ASSERT_EQ(columns.size(), d.values.size());
  for (const DiagramColumn& col : columns) {
    ASSERT_EQ(col.points.rows(), d.keep) << col.message;
    ImpactOscillator at = io;
    at.sigma = col.parameter;
    const Vector expected = at.closed_form().state_at(t_s);
    for (Eigen::Index k = 0; k < col.points.rows(); ++k) {
      EXPECT_LE((col.points.row(k).head(2).transpose() - expected).lpNorm<Eigen::Infinity>(), 1e-7)
          << "sigma " << col.parameter << " point " << k;
    }
  }
  // Just past the doubling the attractor is a period-2 orbit: two points alternating, each a
  // stable fixed point of the time-2T map with two impacts (shot from the diagram's point).
  d.values = {1.02 * sigma_pd, 1.1 * sigma_pd};
  const std::vector<DiagramColumn> doubled =
      bifurcation_diagram(sys, 0, 1, with_sigma(io.closed_form().state_at_zero, 0.0), d);
  for (const DiagramColumn& col : doubled) {
    ASSERT_EQ(col.points.rows(), d.keep) << col.message;
    for (Eigen::Index k = 0; k + 2 < col.points.rows(); ++k) {
      EXPECT_LE((col.points.row(k) - col.points.row(k + 2)).lpNorm<Eigen::Infinity>(), 1e-7);
      EXPECT_GE((col.points.row(k) - col.points.row(k + 1)).lpNorm<Eigen::Infinity>(), 1e-2);
    }
    ImpactOscillator at = io;
    at.sigma = col.parameter;
    const Vector start = col.points.row(0).head(2).transpose();
    const PeriodicOrbit two = shoot_stroboscopic(at.build(), 0, t_s, 2.0 * io.period(), start,
                                                 saltus::testing::differentiation_options());
    ASSERT_TRUE(two.converged()) << two.message;
    EXPECT_LE((two.x - start).lpNorm<Eigen::Infinity>(), 1e-8);
    EXPECT_EQ(two.events_per_period, 2);
    EXPECT_LT(std::abs(two.multipliers[0]), 1.0);
  }
}

// A map with the fixed points x = s up to s = 0.5 and none beyond (issue 34): there it is
// undefined (`undefined`) or moves x by 1 (a Newton matrix that is singular). The branch stops
// at the cliff as a partial one naming the parameter, step, iterations and residual, not as a
// continued branch.
ReturnMap cliff_map(bool undefined) {
  return [undefined](const Vector& u) {
    MapValue v;
    const double x = u[0], s = u[1];
    v.x = Vector(2);
    v.jacobian = Matrix::Identity(2, 2);
    if (s > 0.5 && undefined) {
      v.status = SensitivityStatus::SimulationFailed;
      v.message = "undefined beyond s = 0.5";
      return v;
    }
    v.status = SensitivityStatus::Ok;
    v.return_time = 1.0;
    if (s > 0.5) {
      v.x << x + 1.0, s;
    } else {
      v.x << s + 0.5 * (x - s), s;
      v.jacobian(0, 0) = 0.5;
      v.jacobian(0, 1) = 0.5;
    }
    return v;
  };
}

// Issue 46: a user's impact oscillator (w = 1.5, its stop at sigma = 0.3) from the file's rest
// state. `saltus orbit` converged there in 5 damped Newton steps, while the continuation's plain
// corrector stepped to a start beyond the stop ("the initial state is on the trigger side") and
// found no first orbit. The first orbit is now found by the same damped Newton; every point of
// the branch is the closed-form orbit at its sigma.
TEST(OrbitContinuation, StartsFromAnyGuessTheOrbitSolverConvergesFrom) {
  ImpactOscillator io;
  io.A = 1.0;
  io.w = 1.5;
  io.sigma = 0.3;
  const HybridSystem sys = io.build(nullptr, true);
  const SimulationOptions options = saltus::testing::differentiation_options();
  const ReturnMap map = stroboscopic_map(sys, 0, 0.0, io.period(), options);
  const Vector guess = with_sigma(Vector::Zero(2), io.sigma);
  // The premise: the undamped Newton step from the guess starts beyond the stop.
  const MapValue at_guess = map(guess);
  ASSERT_TRUE(at_guess.ok()) << at_guess.message;
  const Matrix newton = at_guess.jacobian.topLeftCorner(2, 2) - Matrix::Identity(2, 2);
  const Vector step = -newton.fullPivLu().solve((at_guess.x - guess).head(2));
  ASSERT_GT(guess[0] + step[0], io.sigma) << "the guess no longer tests the damped start";
  const PeriodicOrbit orbit = find_fixed_point(map, guess);
  ASSERT_TRUE(orbit.converged()) << orbit.message;
  ContinuationOptions c;
  c.parameter = 2;
  c.p_min = 0.3;
  c.p_max = 0.31;
  c.initial_step = 0.002;
  const Branch branch = continue_orbit(map, guess, c);
  ASSERT_TRUE(branch.ok) << branch.stop_reason;
  EXPECT_EQ(branch.status, BranchStatus::Continued) << branch.stop_reason;
  EXPECT_NE(branch.stop_reason.find("left [0.3, 0.31]"), std::string::npos) << branch.stop_reason;
  ASSERT_GE(branch.points.size(), 3u);
  EXPECT_EQ(branch.points.front().parameter, 0.3);
  EXPECT_GT(branch.points.back().parameter, 0.305);
  double worst = 0.0;
  for (const BranchPoint& p : branch.points) {
    ImpactOscillator at = io;
    at.sigma = p.parameter;
    const ImpactOscillator::Orbit exact = at.closed_form();
    ASSERT_EQ(exact.state_at_zero.size(), 2) << "no closed-form orbit at sigma " << p.parameter;
    worst = std::max(worst, (p.x.head(2) - exact.state_at_zero).lpNorm<Eigen::Infinity>());
    EXPECT_EQ(p.resets, 1);
  }
  RecordProperty("worst_point_error", saltus::testing::measured(worst));
  EXPECT_LE(worst, 1e-8);
}

TEST(OrbitContinuation, CorrectorFailingHalfWayIsAPartialBranch) {
  ContinuationOptions c;
  c.parameter = 1;
  c.p_min = 0.0;
  c.p_max = 1.0;
  for (const bool undefined : {true, false}) {
    const Branch b = continue_orbit(cliff_map(undefined), Vector::Zero(2), c);
    ASSERT_TRUE(b.ok) << b.stop_reason;
    EXPECT_EQ(b.status, BranchStatus::CorrectorFailed) << b.stop_reason;
    EXPECT_STREQ(to_string(b.status), "corrector failed");
    ASSERT_GE(b.points.size(), 5u);
    for (const BranchPoint& p : b.points) {
      EXPECT_LE(p.parameter, 0.5);
      EXPECT_NEAR(p.x[0], p.parameter, 1e-9);
    }
    const CorrectorFailure& f = b.failure;
    EXPECT_EQ(f.parameter, b.points.back().parameter);
    EXPECT_GT(f.parameter, 0.5 - 1e-6);
    EXPECT_LE(f.step, c.min_step);
    EXPECT_GT(f.step, 0.0);
    if (undefined) {
      EXPECT_TRUE(std::isnan(f.residual));
      EXPECT_EQ(f.iterations, 0);
      EXPECT_NE(f.message.find("undefined beyond s = 0.5"), std::string::npos) << f.message;
    } else {
      EXPECT_NEAR(f.residual, 1.0, 1e-12);
      EXPECT_NE(f.message.find("singular"), std::string::npos) << f.message;
    }
    EXPECT_NE(b.stop_reason.find("the corrector failed after parameter"), std::string::npos)
        << b.stop_reason;
    EXPECT_NE(b.stop_reason.find("partial"), std::string::npos) << b.stop_reason;
  }
  // The same map kept below the cliff ends at p_max: a complete branch.
  c.p_max = 0.4;
  const Branch whole = continue_orbit(cliff_map(true), Vector::Zero(2), c);
  EXPECT_EQ(whole.status, BranchStatus::Continued) << whole.stop_reason;
  EXPECT_TRUE(std::isnan(whole.failure.parameter));
}

}  // namespace
}  // namespace saltus::analysis
