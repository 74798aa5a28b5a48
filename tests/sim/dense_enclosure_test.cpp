// DenseEnclosure (src/sim/dense_enclosure.hpp), the certified search's view of a step's dense
// output: over random pieces of each step of a nonlinear oscillator, with every integrator,
// the enclosure holds interpolate()'s values and interpolate_derivative()'s at points of the
// piece (to their own round-off), and it is tight (a point piece's width near the values' ulps).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "saltus/ode/dop853.hpp"
#include "saltus/ode/dopri5.hpp"
#include "saltus/ode/radau5.hpp"
#include "sim/dense_enclosure.hpp"

namespace saltus::detail {
namespace {

template <class S>
class DenseEnclosureTest : public ::testing::Test {};
using Steppers = ::testing::Types<ode::Dopri5, ode::Dop853, ode::Radau5>;
TYPED_TEST_SUITE(DenseEnclosureTest, Steppers);

TYPED_TEST(DenseEnclosureTest, HoldsTheDenseOutputOverEveryPiece) {
  const Flow flow = ode_flow(2, [](const auto&, const auto& x, auto& xdot) {
    using std::sin;
    xdot[0] = x[1];
    xdot[1] = -sin(x[0]) - 0.1 * x[1] * x[1] * x[1];
  });
  ode::StepperOptions o;
  o.rtol = 1e-7;
  o.atol = 1e-10;
  TypeParam s(o, 2, 0);
  s.set_flow(flow);
  // Started at t = 1e3 with x near 1e2 in one component: round-off of large values counts.
  ASSERT_EQ(s.restart(1e3, (Vector(2) << 100.5, 0.3).finished(), Vector(), false),
            ode::StepStatus::Accepted);
  DenseEnclosure<TypeParam> dense(2);
  std::mt19937 rng(43);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Vector x(2), xdot(2);
  long checked = 0;
  double widest_point = 0.0;
  for (int step = 0; step < 30; ++step) {
    ASSERT_EQ(s.step(1e4), ode::StepStatus::Accepted);
    dense.new_step(s);
    const ode::StepSpan span = s.interval();
    const double h = span.length();
    for (int piece = 0; piece < 20; ++piece) {
      double a = span.t0 + unit(rng) * h, b = span.t0 + unit(rng) * h;
      if (piece == 0) a = span.t0, b = span.t1;  // the whole step
      if (piece == 1) b = a;                     // a point
      if (a > b) std::swap(a, b);
      for (int i = 0; i < 2; ++i) {
        const IntervalJet e = dense.component(i, a, b);
        if (a == b) widest_point = std::max(widest_point, e.v.width() / (1.0 + std::abs(e.v.lo)));
        for (int k = 0; k < 10; ++k) {
          const double t = k == 0 ? a : k == 1 ? b : a + unit(rng) * (b - a);
          s.interpolate(t, x);
          s.interpolate_derivative(t, xdot);
          const double round_off = 1e-14 * (1.0 + std::abs(x[i]));
          EXPECT_LE(e.v.lo, x[i] + round_off) << "step " << step << " t " << t;
          EXPECT_GE(e.v.hi, x[i] - round_off) << "step " << step << " t " << t;
          const double rate_round_off = round_off / h;
          EXPECT_LE(e.d.lo, xdot[i] + rate_round_off) << "step " << step << " t " << t;
          EXPECT_GE(e.d.hi, xdot[i] - rate_round_off) << "step " << step << " t " << t;
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 30L * 20 * 2 * 10);
  EXPECT_LT(widest_point, 1e-13);  // a point's enclosure is a few ulps of the values
}

}  // namespace
}  // namespace saltus::detail
