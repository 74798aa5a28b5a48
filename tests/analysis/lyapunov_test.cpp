// Lyapunov spectra (analysis/lyapunov.hpp) of linear flows, where they are known exactly, and
// the runs that must end with a status instead of numbers. The vibrating table, the relay
// feedback cycle and random tables: lyapunov_table_test.cpp.
#include "saltus/analysis/lyapunov.hpp"

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"
#include "support/solver_options.hpp"

namespace saltus::analysis {
namespace {

constexpr double kRtol = 1e-12;  // every run below; the tolerances are multiples of it

HybridSystem linear_system(const Matrix& a) {
  HybridSystem sys;
  sys.add_mode("linear", ode_flow(
                             static_cast<int>(a.rows()),
                             [a](double, ConstVectorRef x, VectorRef xd) { xd.noalias() = a * x; },
                             [a](double, ConstVectorRef, MatrixRef dfdx) { dfdx = a; }));
  return sys;
}

LyapunovSpectrum linear_spectrum(const Matrix& a, double t0, double span, double window,
                                 double transient) {
  const HybridSystem sys = linear_system(a);
  LyapunovOptions o;
  o.window = window;
  o.transient = transient;
  const Vector x0 = Vector::Ones(a.rows());
  return lyapunov_spectrum(sys, 0, t0, x0, t0 + span,
                           saltus::testing::solver_options(kRtol, kRtol, Integrator::Dop853), o);
}

Matrix random_orthogonal(int n, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  Matrix m(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) m(i, j) = g(rng);
  return Eigen::HouseholderQR<Matrix>(m).householderQ() * Matrix::Identity(n, n);
}

TEST(Lyapunov, LinearFlowGivesTheRealPartsOfItsEigenvalues) {
  // A = U T U^T, T real Schur form with eigenvalues 0.4, -0.1 +- 1.3 i, -0.8 (the pair in a
  // normal block) and random couplings above. Once the transient has turned Q onto the Schur
  // vectors (error e^{-0.5 * 60}), each window's R has diagonal e^{Re lambda tau}.
  std::mt19937_64 rng(46);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Matrix t = Matrix::Zero(4, 4);
  t(0, 0) = 0.4;
  t.block(1, 1, 2, 2) << -0.1, -1.3, 1.3, -0.1;
  t(3, 3) = -0.8;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j)
      if (!(i == 1 && j == 2)) t(i, j) = u(rng);
  const Matrix q = random_orthogonal(4, rng);
  const LyapunovSpectrum s = linear_spectrum(q * t * q.transpose(), 0.0, 80.0, 0.5, 60.0);
  ASSERT_TRUE(s.ok()) << s.message;
  const double expected[] = {0.4, -0.1, -0.1, -0.8};
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(s.exponents(i), expected[i], 1e-6 * std::abs(expected[i])) << i;
  }
  EXPECT_EQ(s.events, 0);
  EXPECT_EQ(s.qr_steps, 160);
  EXPECT_EQ(s.checkpoints.size(), 40u);
  EXPECT_NEAR(s.checkpoints.back().estimates(0), s.exponents(0), 1e-15);
  EXPECT_LT(s.spread(0), 1e-6);
}

// Seeded random A (n = 2..4, entries in [-1, 1]): the sum of the exponents is the mean log volume
// factor tr A; starting at t0 = 1e6 and measuring time in units c times smaller (A / c on
// c-times longer spans) leave the spectrum unchanged.
TEST(Lyapunov, RandomLinearFlowsKeepTheirInvariants) {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> u(-1.0, 1.0), scale(0.2, 5.0);
  const double tol = 1e4 * kRtol;  // per unit exponent: the windows' errors, averaged
  for (int trial = 0; trial < 8; ++trial) {
    const int n = 2 + trial % 3;
    Matrix a(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) a(i, j) = u(rng);
    const double c = scale(rng);
    const LyapunovSpectrum s = linear_spectrum(a, 0.0, 20.0, 0.5, 0.0);
    const LyapunovSpectrum shifted = linear_spectrum(a, 1e6, 20.0, 0.5, 0.0);
    const LyapunovSpectrum slow = linear_spectrum(a / c, 0.0, 20.0 * c, 0.5 * c, 0.0);
    ASSERT_TRUE(s.ok() && shifted.ok() && slow.ok()) << s.message << shifted.message;
    const double size = 1.0 + s.exponents.cwiseAbs().maxCoeff();
    EXPECT_NEAR(s.exponents.sum(), a.trace(), tol * size) << "trial " << trial;
    for (int i = 0; i < n; ++i) {
      EXPECT_NEAR(shifted.exponents(i), s.exponents(i), tol * size) << "trial " << trial;
      EXPECT_NEAR(c * slow.exponents(i), s.exponents(i), tol * size) << "trial " << trial;
    }
    for (int i = 0; i + 1 < n; ++i) EXPECT_GE(s.exponents(i), s.exponents(i + 1));
  }
}

TEST(Lyapunov, BadInputIsRefusedBeforeAnyRun) {
  const HybridSystem sys = linear_system(-Matrix::Identity(2, 2));
  const Vector x0 = Vector::Ones(2);
  const SimulationOptions o = saltus::testing::solver_options(kRtol, kRtol);
  LyapunovOptions l;
  l.transient = 5.0;
  EXPECT_THROW((void)lyapunov_spectrum(sys, 0, 0.0, x0, 5.0, o, l), Error);  // t_end = t0 + T0
  l.transient = 0.0;
  l.window = 0.0;
  EXPECT_THROW((void)lyapunov_spectrum(sys, 0, 0.0, x0, 5.0, o, l), Error);
  l.window = 1.0;
  l.max_events_per_window = 0;
  EXPECT_THROW((void)lyapunov_spectrum(sys, 0, 0.0, x0, 5.0, o, l), Error);
  l.max_events_per_window = 8;
  EXPECT_THROW((void)lyapunov_spectrum(sys, 0, 0.0, Vector::Ones(3), 5.0, o, l), Error);
}

TEST(Lyapunov, FailedRunIsAStatusNotNumbers) {
  // x' = x^2 from x = 1 blows up at t = 1.
  HybridSystem sys;
  sys.add_mode("blow-up",
               ode_flow(1, [](const auto&, const auto& x, auto& xd) { xd[0] = x[0] * x[0]; }));
  LyapunovOptions l;
  l.window = 0.25;
  const LyapunovSpectrum s = lyapunov_spectrum(sys, 0, 0.0, Vector::Ones(1), 2.0,
                                               saltus::testing::solver_options(1e-10, 1e-10), l);
  EXPECT_EQ(s.status, LyapunovStatus::SimulationFailed);
  EXPECT_EQ(s.exponents.size(), 0);
  EXPECT_NE(s.message.find("window [0.75, 1]"), std::string::npos) << s.message;
  EXPECT_EQ(s.checkpoints.size(), 3u);  // the estimates up to the failure are kept
}

model::ModelStart load(const std::string& file, const std::vector<std::string>& set,
                       model::ModelRun& run) {
  return model::prepare_model_run(std::make_shared<const model::Model>(model::load_model_file(
                                      saltus::testing::models_dir() / file, set)),
                                  run);
}

TEST(Lyapunov, ZenoRunIsAStatusNotNumbers) {
  // The table of models/vibrating_table.toml's comment that chatters (no sticking mode).
  model::ModelRun run;
  const model::ModelStart start =
      load("vibrating_table.toml", {"A=0.3", "e=0.5", "y0=1", "v0=0"}, run);
  LyapunovOptions l;
  l.window = 0.5;
  const LyapunovSpectrum s =
      lyapunov_spectrum(run.system, start.mode, 0.0, start.x0, 20.0, run.model->options, l);
  EXPECT_EQ(s.status, LyapunovStatus::ZenoPoint);
  EXPECT_EQ(s.exponents.size(), 0);
  EXPECT_NE(s.message.find("guard 'impact'"), std::string::npos) << s.message;
  EXPECT_NE(s.message.find("accumulate at t_inf"), std::string::npos) << s.message;
}

TEST(Lyapunov, SlidingOntoASwitchingSurfaceCollapsesADirection) {
  // models/relay_sign.toml: x reaches x = 0 at 4 - 2 sqrt 2 and slides (Filippov) until t = 4.
  // Entering the sliding mode maps every perturbation onto the surface (det S = 0): the one
  // exponent is -inf, reported with the reset that took it.
  model::ModelRun run;
  model::ModelStart start = load("relay_sign.toml", {}, run);
  LyapunovOptions l;
  l.window = 0.25;
  const LyapunovSpectrum s =
      lyapunov_spectrum(run.system, start.mode, 0.0, start.x0, 6.0, run.model->options, l);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_EQ(s.collapsed, 1);
  ASSERT_EQ(s.exponents.size(), 1);
  EXPECT_TRUE(std::isinf(s.exponents(0)) && s.exponents(0) < 0.0);
  EXPECT_NE(s.message.find("guard 'slide:x'"), std::string::npos) << s.message;
  EXPECT_NE(s.message.find("t = 1.17157"), std::string::npos) << s.message;
  // models/dry_friction_sign.toml (2 states): the mass sticks to the belt at t = asin(vb / F),
  // leaves it at x = F / w^2 whatever it stuck at (one direction collapses; the flow direction,
  // a shift in time, stays), and slips on a cycle of the undamped oscillator that touches the
  // belt's speed: there it sticks again for some 1e-5 s (det S = 0, but the kernel holds no
  // tracked direction: nothing more collapses; the flow direction's exponent is ~0, within the
  // O(1/T) of a finite span). At t ~ 36.5 it touches the surface without sticking: grazing.
  model::ModelRun belt;
  start = load("dry_friction_sign.toml", {}, belt);
  const LyapunovSpectrum stick =
      lyapunov_spectrum(belt.system, start.mode, 0.0, start.x0, 24.0, belt.model->options, l);
  ASSERT_TRUE(stick.ok()) << stick.message;
  EXPECT_EQ(stick.collapsed, 1);
  EXPECT_LT(std::abs(stick.exponents(0)), 1.0 / 24.0);
  EXPECT_TRUE(std::isinf(stick.exponents(1)));
  const LyapunovSpectrum grazes =
      lyapunov_spectrum(belt.system, start.mode, 0.0, start.x0, 60.0, belt.model->options, l);
  EXPECT_EQ(grazes.status, LyapunovStatus::Grazing);
  EXPECT_EQ(grazes.exponents.size(), 0);
  EXPECT_NE(grazes.message.find("grazing"), std::string::npos) << grazes.message;
}

}  // namespace
}  // namespace saltus::analysis
