// NonholonomicPlainEntries: a model's plain entries are given when it is constructed. The walls'
// guard set (all_wall_gaps) is used only for exactly the walls it was written for: a model with
// another number of walls keeps its per-wall guards; with the right number, the guard set gives
// the walls' own -h bit for bit.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "saltus/mech/nonholonomic_model.hpp"

namespace saltus {
namespace {

// h of the two walls x = 1 - q0 and y = 1 - q1 (context: a call counter).
void two_walls(const void* context, const double* q, double* h) {
  ++*static_cast<int*>(const_cast<void*>(context));
  h[0] = 1.0 - q[0];
  h[1] = 1.0 - q[1];
}

mech::NonholonomicModel particle(int walls, const std::shared_ptr<int>& calls) {
  mech::NonholonomicPlainEntries entries;
  entries.all_wall_gaps = {&two_walls, calls};
  entries.all_wall_gaps_walls = 2;
  mech::NonholonomicModel m("particle", 2, std::move(entries));
  m.set_mass_matrix([](const auto&, auto& M) {
    M(0, 0) = 1.0;
    M(1, 1) = 1.0;
  });
  m.add_wall("x", [](const auto& q) { return 1.0 - q[0]; });
  if (walls == 2) m.add_wall("y", [](const auto& q) { return 1.0 - q[1]; });
  return m;
}

TEST(NonholonomicPlainEntries, TheWallGuardSetServesOnlyTheWallsItWasWrittenFor) {
  const auto calls = std::make_shared<int>(0);
  const mech::NonholonomicModel one = particle(1, calls);
  EXPECT_FALSE(one.all_wall_gaps_fit());
  const auto compiled_one = one.compile();
  EXPECT_FALSE(compiled_one.system.mode(compiled_one.mode).guard_set.has_value());

  const mech::NonholonomicModel two = particle(2, calls);
  ASSERT_TRUE(two.all_wall_gaps_fit());
  const auto compiled = two.compile();
  const Mode& mode = compiled.system.mode(compiled.mode);
  ASSERT_TRUE(mode.guard_set.has_value());
  const double x[4] = {0.25, -0.5, 1.0, 2.0};
  double values[2];
  mode.guard_set->call(0.0, x, nullptr, values);
  EXPECT_EQ(*calls, 1);
  for (int w = 0; w < 2; ++w) {
    const Vector xv = Eigen::Map<const Vector>(x, 4);
    const double by_guard = mode.guards[static_cast<size_t>(w)].value(0.0, xv, Vector());
    EXPECT_EQ(std::memcmp(&values[w], &by_guard, sizeof by_guard), 0) << "wall " << w;
  }
}

}  // namespace
}  // namespace saltus
