// Whether two sticking contacts share one friction unknown (src/mech/index_set_dynamics.hpp,
// sticking_directions_shared) must not depend on the units. Two bottom corners of a box tilted by
// eps have tangent gradients w_T = (1, 0, b cos eps -/+ a sin eps) in q = (x, y, theta); in the
// kinetic metric M^-1 = diag(1/m, 1/m, 1/J) they are
//   |w_1 - w_2|_{M^-1} / |w_1|_{M^-1} = 2 a sin(eps) / sqrt(J / m + (b cos eps - a sin eps)^2)
// apart, a number without units. The old max-norm test, |w_1 - w_2|_inf <= 1e-8 (1 + |w_1|_inf),
// mixed the unit 1 of the x entry with the length of the theta entry: a thin plate (b small) tilted
// by 1e-9 rad was one group in metres and two in millimetres.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "mech/index_set_dynamics.hpp"

namespace saltus::mech::detail {
namespace {

struct Box {
  double m, a, b, eps;
};

// The decision for the box with lengths in `length_unit` and masses in `mass_unit` (per metre,
// per kilogram).
bool corners_shared(const Box& box, double length_unit, double mass_unit) {
  const double m = box.m * mass_unit, a = box.a * length_unit, b = box.b * length_unit;
  const double J = m * (a * a + b * b) / 3.0;
  DofMatrix<double> M = DofMatrix<double>::Zero(3, 3);
  M.diagonal() << m, m, J;
  SpdFactor<double> factor;
  EXPECT_TRUE(factor.compute(M));
  DofVector<double> w1(3), w2(3);
  w1 << 1.0, 0.0, b * std::cos(box.eps) - a * std::sin(box.eps);
  w2 << 1.0, 0.0, b * std::cos(box.eps) + a * std::sin(box.eps);
  return sticking_directions_shared(factor, w1, w2);
}

// The closed form above (units cancel; evaluated in metres and kilograms).
double kinetic_distance(const Box& box) {
  const double J_over_m = (box.a * box.a + box.b * box.b) / 3.0;
  const double arm = box.b * std::cos(box.eps) - box.a * std::sin(box.eps);
  return 2.0 * box.a * std::sin(box.eps) / std::sqrt(J_over_m + arm * arm);
}

TEST(StickingDirections, ThinPlateIsOneGroupInMetresAndInMillimetres) {
  const Box plate{2.0, 0.4, 0.001, 1e-9};  // 2 a eps / 1 m = 8e-10: the old test shared it in m
  ASSERT_LT(kinetic_distance(plate), 1e-8);
  EXPECT_TRUE(corners_shared(plate, 1.0, 1.0));
  EXPECT_TRUE(corners_shared(plate, 1e3, 1.0));  // old test: 8e-7 mm > 1e-8 (1 + 1) mm: two groups
  EXPECT_TRUE(corners_shared(plate, 1e3, 1e-3));
}

// Seeded random boxes, tilts and units: the decision is the closed form's (cases within 1 % of
// the level are skipped: there the last bits decide), and the same in every unit.
TEST(StickingDirections, RandomBoxesDecideByTheKineticDistanceInAnyUnits) {
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const auto log_uniform = [&](double lo, double hi) {
    return std::exp(std::log(lo) + u01(rng) * (std::log(hi) - std::log(lo)));
  };
  int shared = 0, apart = 0, checked = 0;
  for (int k = 0; k < 2000; ++k) {
    const Box box{log_uniform(1e-2, 1e2), log_uniform(1e-3, 1.0), log_uniform(1e-4, 1.0),
                  log_uniform(1e-12, 1e-6)};
    const double d = kinetic_distance(box);
    if (std::abs(d / 1e-8 - 1.0) < 0.01) continue;
    const bool expected = d <= 1e-8;
    SCOPED_TRACE(testing::Message() << "m " << box.m << " a " << box.a << " b " << box.b << " eps "
                                    << box.eps << " distance " << d);
    EXPECT_EQ(corners_shared(box, 1.0, 1.0), expected);
    const double length_unit = log_uniform(1e-3, 1e3), mass_unit = log_uniform(1e-3, 1e3);
    EXPECT_EQ(corners_shared(box, length_unit, mass_unit), expected)
        << "length unit " << length_unit << " mass unit " << mass_unit;
    (expected ? shared : apart) += 1;
    ++checked;
  }
  // Both decisions occur often, so the test reads both sides of the level.
  EXPECT_GE(shared, 200);
  EXPECT_GE(apart, 200);
  EXPECT_GE(checked, 1900);
}

}  // namespace
}  // namespace saltus::mech::detail
