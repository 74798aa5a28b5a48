// LagrangianModel::contact_forces: every contact's force in a mode, the one read-out the outputs'
// force columns use. A sliding block on an incline (closed form, FORMULAS.md: lambda_N =
// m g cos a, lambda_T = -mu s lambda_N), the same block's open mode (no force), and a compliant
// contact's law force while active, beside an open rigid one.
#include <gtest/gtest.h>

#include <cmath>

#include "lagrangian_test_models.hpp"
#include "saltus/mech/compliant_contact_law.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech {
namespace {

using testing::incline_block_model;
using testing::incline_state;

TEST(ContactForces, ClosedSlidingContactCarriesItsMultipliers) {
  const double m = 2.0, g = 9.81, a = 0.3, mu = 0.2;
  ContactImpactLaw law;
  law.kind = ImpactLawKind::NewtonCoulomb;
  law.e = 0.0;
  law.mu = mu;
  const LagrangianModel block = incline_block_model(m, g, a, law);
  const Vector x = incline_state(a, 0.5, 1.0);  // sliding uphill: s = +1
  const LagrangianMode slip{0, ClosedKind::SlipPositive, 0};
  const ContactForces f = block.contact_forces(slip, 0.0, x.head(2), x.tail(2));
  const ContactDynamics d = block.dynamics(slip, 0.0, x.head(2), x.tail(2));
  ASSERT_EQ(f.normal.size(), 1);
  EXPECT_EQ(f.normal[0], d.lambda_N);
  EXPECT_EQ(f.tangential[0], d.lambda_T);
  EXPECT_NEAR(f.normal[0], m * g * std::cos(a), 1e-12);
  EXPECT_NEAR(f.tangential[0], -mu * f.normal[0], 1e-12);
  const ContactForces open =
      block.contact_forces({-1, ClosedKind::None, 0}, 0.0, x.head(2), x.tail(2));
  EXPECT_EQ(open.normal[0], 0.0);
  EXPECT_EQ(open.tangential[0], 0.0);
}

TEST(ContactForces, ActiveCompliantContactCarriesItsLawForce) {
  LagrangianModel p("particle", 1);
  p.set_mass_matrix([](const auto&, auto& M) { M(0, 0) = 1.0; });
  p.set_forces([](const auto&, const auto&, const auto&, auto& h) { h[0] = -9.81; });
  ContactImpactLaw rigid;
  p.add_contact(
      "ceiling", "particle", [](const auto& q) { return 1.0 - q[0]; }, rigid);
  p.add_compliant_contact(
      "floor", "particle", [](const auto& q) { return q[0]; },
      CompliantContactLaw::linear_spring(1e4));
  Vector q(1), qdot(1);
  q << -1e-3;  // 1 mm into the floor
  qdot << -0.5;
  const ContactForces active = p.contact_forces({-1, ClosedKind::None, 1u}, 0.0, q, qdot);
  EXPECT_EQ(active.normal[0], 0.0);  // the open rigid ceiling
  EXPECT_EQ(active.normal[1], p.compliant_force(1, q, qdot));
  EXPECT_NEAR(active.normal[1], 10.0, 1e-12);
  EXPECT_EQ(p.contact_forces({-1, ClosedKind::None, 0u}, 0.0, q, qdot).normal[1], 0.0);
}

}  // namespace
}  // namespace saltus::mech
