// Newton shooting on the stroboscopic map of the impact oscillator of impact_oscillator.hpp. Its
// period-1 orbit (one impact per forcing period T = 2 pi / w) in closed form [derived]: with P = A
// / (1 - w^2), impact phase phi = w tau and impact speed V, the free motion from (sigma, -e V) at
// tau must return to (sigma, V) after T:
//   (sigma - P cos phi) tan(T/2) = P w sin phi - e V                     (position)
//   (1 - e) tan(T/2) (sigma - P cos phi) = (1 + e) P w sin phi            (velocity, with the
//   first)
// The second is R cos(phi - delta) = (1 - e) tan(T/2) sigma, R = P |((1-e) tan(T/2), (1+e) w)|.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>

#include "flow_map_differences.hpp"
#include "impact_oscillator.hpp"
#include "saltus/analysis/periodic_orbit.hpp"
#include "saltus/analysis/poincare_section.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::analysis {
namespace {

using saltus::testing::ImpactOscillator;

TEST(ImpactOscillatorOrbit, ShootingFindsTheClosedFormPeriodOneOrbit) {
  const ImpactOscillator io;
  const HybridSystem sys = io.build();
  const ImpactOscillator::Orbit exact = io.closed_form();
  ASSERT_EQ(exact.state_at_zero.size(), 2);
  const SimulationOptions options = saltus::testing::differentiation_options();
  const Vector guess = exact.state_at_zero + Vector::Constant(2, 0.02);
  const PeriodicOrbit orbit = shoot_stroboscopic(sys, 0, 0.0, io.period(), guess, options);
  ASSERT_TRUE(orbit.converged()) << orbit.message;
  // The fixed point to the shooting tolerance (1e-9, well above the runs' rtol 1e-12).
  EXPECT_LE((orbit.x - exact.state_at_zero).lpNorm<Eigen::Infinity>(), 1e-8)
      << orbit.x.transpose() << " vs " << exact.state_at_zero.transpose();
  RecordProperty(
      "fixed_point_error",
      saltus::testing::measured((orbit.x - exact.state_at_zero).lpNorm<Eigen::Infinity>()));
  RecordProperty("newton_iterations", orbit.iterations);
  RecordProperty("multiplier_moduli",
                 saltus::testing::measured(std::abs(orbit.multipliers[0])) + " " +
                     saltus::testing::measured(std::abs(orbit.multipliers[1])));
  EXPECT_EQ(orbit.events_per_period, 1);
  EXPECT_LE(orbit.iterations, 8);
  // The impact of the orbit: phase and speed.
  const FlowMapSensitivity s = flow_map_sensitivity(sys, 0, 0.0, orbit.x, io.period(), options);
  ASSERT_TRUE(s.ok()) << s.message;
  ASSERT_EQ(s.run.events.size(), 1);
  EXPECT_NEAR(io.w * s.run.events[0].t, exact.phase, 1e-8);
  EXPECT_NEAR(s.run.events.x_before(0)[1], exact.speed, 1e-8);
  // Floquet multipliers: the flow keeps volume and det S = e^2, so their product is e^2; and
  // they are the eigenvalues of the time-T map's Jacobian by central differences.
  const std::complex<double> product = orbit.multipliers.prod();
  EXPECT_NEAR(product.real(), io.e * io.e, 1e-9);
  EXPECT_NEAR(product.imag(), 0.0, 1e-9);
  const Matrix fd =
      saltus::testing::flow_map_by_differences(sys, 0, 0.0, orbit.x, io.period(), options);
  EXPECT_LE(saltus::testing::relative_difference(orbit.monodromy, fd),
            saltus::testing::kDifferenceTolerance);
  Eigen::VectorXcd fd_values = Eigen::EigenSolver<Matrix>(fd, false).eigenvalues();
  for (Eigen::Index i = 0; i < orbit.multipliers.size(); ++i) {
    double nearest = kInfinity;
    for (Eigen::Index k = 0; k < fd_values.size(); ++k) {
      nearest = std::min(nearest, std::abs(orbit.multipliers[i] - fd_values[k]));
    }
    EXPECT_LE(nearest, 1e-6) << "multiplier " << orbit.multipliers[i];
  }
}

TEST(ImpactOscillatorOrbit, NewtonThatCannotConvergeReportsItsResidual) {
  const ImpactOscillator io;
  const HybridSystem sys = io.build();
  ShootingOptions shooting;
  shooting.max_iterations = 1;
  const Vector guess = io.closed_form().state_at_zero + Vector::Constant(2, 0.05);
  const PeriodicOrbit orbit = shoot_stroboscopic(
      sys, 0, 0.0, io.period(), guess, saltus::testing::differentiation_options(), shooting);
  EXPECT_EQ(orbit.status, ShootingStatus::NotConverged);
  EXPECT_GT(orbit.residual, shooting.tolerance);
  EXPECT_NE(orbit.message.find("residual"), std::string::npos) << orbit.message;
}

TEST(ImpactOscillatorOrbit, StroboscopicSectionConvergesToTheClosedFormOrbit) {
  // Brute force: the time-only observer sin(w (t - T/4)) rising samples the run once per period
  // at T/4 + k T; from 0.3 off the orbit the points approach it by |multiplier| = 0.8 per period.
  const ImpactOscillator io;
  const double t_s = io.period() / 4.0;
  const Guard section = stroboscopic_section("strobe", io.period(), t_s);
  const HybridSystem sys = io.build(&section);
  const ImpactOscillator::Orbit exact = io.closed_form();
  const Vector start = exact.state_at_zero + Vector::Constant(2, 0.3);
  const int periods = 150;
  SimulationOptions options = saltus::testing::differentiation_options();
  options.output.reserve_events = 2 * periods + 8;
  const SimulationResult r = simulate(sys, 0, 0.0, start, periods * io.period(), options);
  ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  const SectionPoints points = section_points(r.events, 0, 1);
  ASSERT_EQ(static_cast<int>(points.t.size()), periods) << "one crossing per period";
  for (size_t k = 0; k < points.t.size(); ++k) {
    EXPECT_NEAR(points.t[k], t_s + static_cast<double>(k) * io.period(), 1e-12 * periods);
  }
  // 0.8^150 ~ 3e-15: the last point is the orbit's state at T/4 to the runs' accuracy.
  const Eigen::Index last = points.x.rows() - 1;
  const Vector expected = exact.state_at(points.t.back());
  EXPECT_LE((points.x.row(last).transpose() - expected).lpNorm<Eigen::Infinity>(), 1e-9)
      << points.x.row(last) << " vs " << expected.transpose();
  // And the shooting from t = T/4 lands on the same point.
  const PeriodicOrbit orbit =
      shoot_stroboscopic(io.build(), 0, t_s, io.period(), points.x.row(10).transpose(), options);
  ASSERT_TRUE(orbit.converged()) << orbit.message;
  EXPECT_LE((orbit.x - exact.state_at(t_s)).lpNorm<Eigen::Infinity>(), 1e-8);
}

TEST(ImpactOscillatorOrbit, ModelFileStartsOnTheClosedFormOrbit) {
  // models/impact_oscillator.toml: its initial state is the period-1 orbit at t = 0 for its own
  // parameters, so its run returns there after every forcing period with one impact each.
  const auto m = std::make_shared<const model::Model>(
      model::load_model_file(saltus::testing::models_dir() / "impact_oscillator.toml"));
  ImpactOscillator io;
  for (const model::Quantity& q : m->parameters) {
    if (q.name == "A") io.A = q.value;
    if (q.name == "w") io.w = q.value;
    if (q.name == "e") io.e = q.value;
  }
  io.sigma = m->initial_state()[2];
  const Vector x0 = m->initial_state();
  const ImpactOscillator::Orbit exact = io.closed_form();
  ASSERT_EQ(exact.state_at_zero.size(), 2);
  EXPECT_LE((x0.head(2) - exact.state_at_zero).lpNorm<Eigen::Infinity>(), 1e-14);
  const model::ModelRun r = model::run_model(m);
  ASSERT_TRUE(r.succeeded()) << r.message();
  const double periods = (m->t_end - m->t_start) / io.period();
  EXPECT_NEAR(periods, std::round(periods), 1e-12);
  EXPECT_EQ(r.result.events.size(), static_cast<long>(std::round(periods)));
  EXPECT_LE((r.result.x_final - x0).lpNorm<Eigen::Infinity>(), 1e-9);
}

}  // namespace
}  // namespace saltus::analysis
