// Which contacts join a fired contact's impact (src/mech/multi_contact_impact.hpp,
// simultaneous_impact_set): one that lands within the time the located state may precede the
// fired contact's impact joins; when the fired contact is at rest to the round-off of its rate at
// the run's scales there is no such time, and a contact 1 cm away does not join (issue 46: a
// residual gap 2.2e-19 over a rate -1.2e-24 gave 1.8e5 s, and the woodpecker's beak joined a
// sleeve impact).
#include <gtest/gtest.h>

#include <vector>

#include "mech/multi_contact_impact.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech {
namespace {

// Two unit point masses above a floor: contact "a" is y1 >= 0, contact "b" is y2 >= 0.
LagrangianModel two_masses() {
  LagrangianModel m("two_masses", 2);
  m.set_mass_matrix([](const auto&, auto& M) {
    M(0, 0) = 1.0;
    M(1, 1) = 1.0;
  });
  m.set_forces([](const auto&, const auto&, const auto&, auto& h) {
    h[0] = -9.81;
    h[1] = -9.81;
  });
  ContactImpactLaw law;
  law.e = 0.5;
  m.add_contact(
      "a", "one", [](const auto& q) { return q[0]; }, law);
  m.add_contact(
      "b", "two", [](const auto& q) { return q[1]; }, law);
  return m;
}

std::vector<int> impact_set(const LagrangianModel& m, double y1, double v1, double y2, double v2,
                            const double* scales) {
  Vector q(2), qdot(2);
  q << y1, y2;
  qdot << v1, v2;
  return detail::simultaneous_impact_set(m, 0.0, 0, 0u, q, qdot, scales);
}

TEST(ImpactSetLead, AContactLandingWithinTheLeadJoins) {
  const LagrangianModel m = two_masses();
  const double scales[4] = {1.0, 1.0, 1.0, 1.0};
  // "a" 1e-13 above its surface approaching at 1 m/s: the lead is 1e-13 s.
  EXPECT_EQ(impact_set(m, 1e-13, -1.0, 5e-14, -1.0, scales), (std::vector<int>{0, 1}));
  EXPECT_TRUE(impact_set(m, 1e-13, -1.0, 1e-2, -1.0, scales).empty());
}

TEST(ImpactSetLead, NoLeadFromAFiredContactAtRest) {
  const LagrangianModel m = two_masses();
  const double scales[4] = {1.0, 1.0, 1.0, 1.0};
  // 2.2e-19 / 1.2e-24 = 1.8e5 s: "b", 1 cm away at 1 m/s, would join.
  EXPECT_TRUE(impact_set(m, 2.2e-19, -1.2e-24, 1e-2, -1.0, scales).empty());
}

}  // namespace
}  // namespace saltus::mech
