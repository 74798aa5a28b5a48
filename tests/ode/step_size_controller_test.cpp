#include "saltus/ode/step_size_controller.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace saltus::ode {
namespace {

// The formula of the header, written out: clamp(safety err^-(1/p - c b) err_prev^b), with
// c = 0.75 for p = 5 (DOPRI5) and 0.2 for p = 8 (DOP853).
double coupling(int p) {
  return p == 5 ? 0.75 : 0.2;
}
double expected_factor(double err, double err_prev, int p, const StepperOptions& o) {
  const double f = o.safety * std::pow(err, -(1.0 / p - coupling(p) * o.pi_beta)) *
                   std::pow(std::max(err_prev, 1e-4), o.pi_beta);
  return std::clamp(f, o.fac_min, o.fac_max);
}

TEST(StepSizeController, ElementaryControllerWhenBetaIsZero) {
  StepperOptions o;
  StepSizeController c(5, coupling(5));
  c.restart();
  EXPECT_DOUBLE_EQ(c.accepted(0.5, o), 0.9 * std::pow(0.5, -0.2));
  EXPECT_DOUBLE_EQ(c.accepted(1e-3, o), 0.9 * std::pow(1e-3, -0.2));
  EXPECT_DOUBLE_EQ(c.accepted(0.0, o), o.fac_max);  // an exact step grows at the cap
  EXPECT_DOUBLE_EQ(c.rejected(4.0, o), 0.9 * std::pow(4.0, -0.2));
  EXPECT_DOUBLE_EQ(c.rejected(1e9, o), o.fac_min);
}

TEST(StepSizeController, NoGrowthRightAfterARejection) {
  StepperOptions o;
  StepSizeController c(8, coupling(8));
  c.restart();
  EXPECT_LT(c.rejected(3.0, o), 1.0);
  EXPECT_DOUBLE_EQ(c.accepted(1e-6, o), 1.0);  // would grow by 0.9 * 1e6^(1/8) = 5.1
  EXPECT_GT(c.accepted(1e-6, o), 1.0);         // the next acceptance grows again
  c.rejected(2.0, o);
  EXPECT_DOUBLE_EQ(c.accepted(0.9, o), 0.9 * std::pow(0.9, -1.0 / 8));  // shrinking stays
  c.rejected(2.0, o);
  c.restart();  // a restart forgets the rejection
  EXPECT_DOUBLE_EQ(c.accepted(0.0, o), o.fac_max);
}

// Seeded random errors, orders and betas: the controller equals the formula, including the
// pow-free path for tiny errors, and uses the previous accepted error (the PI term).
TEST(StepSizeController, MatchesTheFormulaForRandomErrorSequences) {
  std::mt19937 rng(20261123);
  std::uniform_real_distribution<double> log_err(-18.0, 0.0), beta(0.0, 0.1);
  int checked = 0;
  for (int run = 0; run < 200; ++run) {
    StepperOptions o;
    o.pi_beta = run % 4 == 0 ? 0.0 : beta(rng);
    o.fac_max = 2.0 + 10.0 * beta(rng);
    const int p = run % 2 == 0 ? 5 : 8;
    StepSizeController c(p, coupling(p));
    c.restart();
    double prev = 1e-4;
    for (int k = 0; k < 20; ++k) {
      const double err = std::pow(10.0, log_err(rng));
      const double want = expected_factor(err, prev, p, o);
      EXPECT_NEAR(c.accepted(err, o), want, 1e-14 * want) << "err " << err << " beta " << o.pi_beta;
      prev = err;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4000);
}

TEST(StepSizeController, PiTermUsesThePreviousAcceptedError) {
  StepperOptions o;
  o.pi_beta = 0.04;
  StepSizeController large(5, 0.75), small(5, 0.75);
  large.restart();
  small.restart();
  large.accepted(0.9, o);
  small.accepted(1e-3, o);
  // Same current error, larger previous error: a larger factor (err_prev^beta grows with it).
  EXPECT_GT(large.accepted(0.1, o), small.accepted(0.1, o));
}

}  // namespace
}  // namespace saltus::ode
