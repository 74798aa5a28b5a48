// AD Jacobians of the compiled Lagrangian flows (free, frictionless closed, slip+, slip-, stick,
// each also with an active compliant contact) and AD gradients of every guard, against an
// independent derivative computed IN THIS TEST ONLY: a sixth-order central difference of the
// double-precision rhs / guard value. Then a frictional rod bouncing, sliding and sticking on
// its tip under Radau5 (which uses these Jacobians) agrees with Dop853.
//
// Tolerance of the difference check: truncation h^6 f^(7)/140 ~ 1e-18 and rounding
// eps |f| / h ~ 1e-13 for h = 1e-3 (1 + |x_i|): compared at 1e-8 (1 + |J|_max).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "lagrangian_test_models.hpp"
#include "saltus/mech/bouncing_rod.hpp"
#include "saltus/sim/simulator.hpp"
#include "support/central_difference.hpp"

namespace saltus::mech {
namespace {

// Bouncing rod with a frictional tip (rigid) and a compliant upper end ("top", Kelvin-Voigt
// force release) so that every kernel enters some flow.
LagrangianModel rod_with_compliant_top() {
  BouncingRodParameters p;
  p.law = {ImpactLawKind::RouthPoisson, 0.5, 0.0, 0.4};
  LagrangianModel rod = bouncing_rod_model(p);
  const double l = p.ell;
  rod.add_compliant_contact(
      "top", "rod",
      [l](const auto& q) {
        using std::sin;
        return 0.9 - (q[1] + 2.0 * l * sin(q[2]));  // a ceiling at height 0.9
      },
      CompliantContactLaw::kelvin_voigt(2e3, 30.0, ReleaseCondition::ForceReturnsToZero));
  return rod;
}

using saltus::testing::central_difference;

void check_mode(const HybridSystem& sys, ModeId id, const Vector& x, double t) {
  const Mode& mode = sys.mode(id);
  const int nx = mode.flow.nx;
  Matrix J(nx, nx), Jz(nx, 0);
  const Vector z(0);
  mode.flow.rhs_jacobian(t, x, z, J, Jz);
  auto rhs = [&](const Vector& xx) {
    Vector out(nx);
    mode.flow.rhs(t, xx, z, out);
    return out;
  };
  Matrix Jfd(nx, nx);
  for (int k = 0; k < nx; ++k) Jfd.col(k) = central_difference(rhs, x, k, nx);
  const double scale = 1.0 + Jfd.cwiseAbs().maxCoeff();
  EXPECT_LE((J - Jfd).cwiseAbs().maxCoeff(), 1e-8 * scale) << "mode '" << mode.name << "'\nAD:\n"
                                                           << J << "\ndifference:\n"
                                                           << Jfd;
  for (const Guard& g : mode.guards) {
    if (g.name.rfind("index-sets:", 0) == 0) continue;  // constant
    Vector dpdx(nx), dpdz(0);
    const double dpdt = g.gradient(t, x, z, dpdx, dpdz);
    auto value = [&](const Vector& xx) {
      Vector out(1);
      out[0] = g.value(t, xx, z);
      return out;
    };
    Vector fd(nx);
    for (int k = 0; k < nx; ++k) fd[k] = central_difference(value, x, k, 1)[0];
    const double gs = 1.0 + fd.cwiseAbs().maxCoeff();
    EXPECT_LE((dpdx - fd).cwiseAbs().maxCoeff(), 1e-8 * gs)
        << "guard '" << g.name << "' of mode '" << mode.name << "'\nAD " << dpdx.transpose()
        << "\ndifference " << fd.transpose();
    EXPECT_EQ(dpdt, 0.0) << g.name;  // autonomous model
  }
}

TEST(LagrangianJacobian, EveryModeMatchesSixthOrderDifferences) {
  const LagrangianModel rod = rod_with_compliant_top();
  const auto c = rod.compile();
  // A generic state: tip near the ground, the upper end 1 cm into the ceiling, moving.
  Vector x(6);
  x << 0.1, 0.0, 1.4, 0.3, 0.05, -1.1;
  x[1] = 0.9 + 0.01 - 2.0 * 0.5 * std::sin(x[2]);  // top penetrates by 1 cm
  int checked = 0;
  for (ModeId id = 0; id < c.system.mode_count(); ++id) {
    if (c.modes[id].kind == ClosedKind::PostZeno) continue;
    check_mode(c.system, id, x, 0.25);
    ++checked;
  }
  EXPECT_EQ(checked, 8);  // {free, slip+, slip-, stick} x {top inactive, active}
  // Frictionless closed mode of the plain bouncing rod.
  const auto plain = bouncing_rod_model(BouncingRodParameters{}).compile();
  check_mode(plain.system, plain.closed[0], x, 0.0);
  check_mode(plain.system, plain.free, x, 0.0);
}

// A nearly upright rod dropped with its tip sliding at 0.6 m/s onto the table (Routh-Poisson
// e = 0.5, mu = 0.4): 16 bounces (their frictional impulses stop the sliding), Zeno hand-over,
// sticking while the rod tips over, slip+ from 0.579 s; the run ends at 0.68 s before the rod
// lies flat (theta = 0.31). Radau5 (AD Jacobians of every mode) and Dop853 give the same event
// sequence; times and the final state agree to the tolerances' level.
TEST(LagrangianJacobian, FrictionalRodUnderRadau5AgreesWithDop853) {
  BouncingRodParameters p;
  p.law = {ImpactLawKind::RouthPoisson, 0.5, 0.0, 0.4};
  const LagrangianModel rod = bouncing_rod_model(p);
  const auto c = rod.compile();
  Vector x0(6);
  x0 << 0.0, 0.1, 1.5, 0.6, 0.0, 0.0;
  SimulationOptions dop = testing::tight_options();
  dop.stepper.rtol = 1e-11;
  dop.stepper.atol = 1e-13;
  SimulationOptions rad = dop;
  rad.integrator = Integrator::Radau5;
  const double T = 0.68;
  const SimulationResult a = simulate(c.system, c.free, 0.0, x0, T, dop);
  const SimulationResult b = simulate(c.system, c.free, 0.0, x0, T, rad);
  ASSERT_EQ(a.termination(), Termination::EndTimeReached) << a.summary.message;
  ASSERT_EQ(b.termination(), Termination::EndTimeReached) << b.summary.message;
  EXPECT_GT(b.summary.stepper.jacobian_evaluations, 0);
  ASSERT_EQ(a.events.size(), b.events.size()) << a.summary.full_report(&c.system) << "\n"
                                              << b.summary.full_report(&c.system);
  std::string sequence;
  double worst_t = 0.0;
  for (long i = 0; i < a.events.size(); ++i) {
    EXPECT_EQ(a.events[i].guard, b.events[i].guard) << "event " << i;
    EXPECT_EQ(a.events[i].mode_after, b.events[i].mode_after) << "event " << i;
    worst_t = std::max(worst_t, std::abs(a.events[i].t - b.events[i].t));
    sequence += c.system.mode(a.events[i].mode_after).name + " ";
  }
  EXPECT_LT(worst_t, 1e-7) << sequence;
  EXPECT_EQ(a.final_mode, b.final_mode);
  EXPECT_LT((a.x_final - b.x_final).lpNorm<Eigen::Infinity>(), 1e-7) << sequence;
  // The run exercised the closed contact: it ends sliding on the tip, which stays on the table.
  EXPECT_EQ(a.final_mode, c.slip_positive[0]) << sequence;
  EXPECT_NEAR(a.x_final[1], 0.0, 1e-10);
  EXPECT_NEAR(a.x_final[4], 0.0, 1e-10);
  EXPECT_GT(a.x_final[2], 0.0);
  RecordProperty("event_sequence", sequence);
}

}  // namespace
}  // namespace saltus::mech
