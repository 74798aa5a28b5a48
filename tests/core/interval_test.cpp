// Interval arithmetic and IntervalJet (core/interval.hpp, core/interval_jet.hpp): every value
// and derivative at a point of an interval lies in the enclosure over it (seeded random
// intervals and points, each operation and function), and the special cases that decide the
// certified event search (periodic extrema, poles, jumps).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "saltus/core/autodiff.hpp"
#include "saltus/core/interval_jet.hpp"

namespace saltus {
namespace {

struct UnaryCase {
  std::string name;
  std::function<IntervalJet(const IntervalJet&)> enclose;
  std::function<Dual(const Dual&)> at;
};

// f(t) built from g(t) = c0 + c1 t + c2 t^2 through each function: the enclosure over [a, b] of
// f and f' must hold f and f' (in Dual) at random points of [a, b].
TEST(IntervalJet, EveryFunctionEnclosesItsValuesAndDerivatives) {
  const std::vector<UnaryCase> cases = {
      {"sqrt", [](const IntervalJet& g) { return sqrt(abs(g) + IntervalJet(0.1)); },
       [](const Dual& g) { return Dual(ceres::sqrt(ceres::abs(g) + 0.1)); }},
      {"exp", [](const IntervalJet& g) { return exp(g); },
       [](const Dual& g) { return Dual(ceres::exp(g)); }},
      {"log", [](const IntervalJet& g) { return log(abs(g) + IntervalJet(0.5)); },
       [](const Dual& g) { return Dual(ceres::log(ceres::abs(g) + 0.5)); }},
      {"sin", [](const IntervalJet& g) { return sin(IntervalJet(7.0) * g); },
       [](const Dual& g) { return Dual(ceres::sin(7.0 * g)); }},
      {"cos", [](const IntervalJet& g) { return cos(IntervalJet(7.0) * g); },
       [](const Dual& g) { return Dual(ceres::cos(7.0 * g)); }},
      {"tan", [](const IntervalJet& g) { return tan(IntervalJet(0.3) * g); },
       [](const Dual& g) { return Dual(ceres::tan(0.3 * g)); }},
      {"atan", [](const IntervalJet& g) { return atan(g); },
       [](const Dual& g) { return Dual(ceres::atan(g)); }},
      {"asin", [](const IntervalJet& g) { return asin(tanh(g) * IntervalJet(0.9)); },
       [](const Dual& g) { return Dual(ceres::asin(ceres::tanh(g) * 0.9)); }},
      {"acos", [](const IntervalJet& g) { return acos(tanh(g) * IntervalJet(0.9)); },
       [](const Dual& g) { return Dual(ceres::acos(ceres::tanh(g) * 0.9)); }},
      {"sinh", [](const IntervalJet& g) { return sinh(g); },
       [](const Dual& g) { return Dual(ceres::sinh(g)); }},
      {"cosh", [](const IntervalJet& g) { return cosh(g); },
       [](const Dual& g) { return Dual(ceres::cosh(g)); }},
      {"abs", [](const IntervalJet& g) { return abs(g); },
       [](const Dual& g) { return Dual(ceres::abs(g)); }},
      {"square", [](const IntervalJet& g) { return square(g); },
       [](const Dual& g) { return Dual(g * g); }},
      {"pow3", [](const IntervalJet& g) { return pow(g, 3.0); },
       [](const Dual& g) { return Dual(g * g * g); }},
      {"pow-2", [](const IntervalJet& g) { return pow(g + IntervalJet(5.0), -2.0); },
       [](const Dual& g) { return Dual(1.0 / ((g + 5.0) * (g + 5.0))); }},
      {"pow1.5", [](const IntervalJet& g) { return pow(abs(g) + IntervalJet(0.2), 1.5); },
       [](const Dual& g) { return Dual(ceres::pow(ceres::abs(g) + 0.2, 1.5)); }},
      {"div",
       [](const IntervalJet& g) { return IntervalJet(1.0) / (square(g) + IntervalJet(1.0)); },
       [](const Dual& g) { return Dual(1.0 / (g * g + 1.0)); }},
      {"atan2", [](const IntervalJet& g) { return atan2(g, IntervalJet(1.5) + sin(g)); },
       [](const Dual& g) { return Dual(ceres::atan2(g, 1.5 + ceres::sin(g))); }},
  };
  std::mt19937_64 rng(43);
  std::uniform_real_distribution<double> coef(-3.0, 3.0), width(0.0, 1.0), where(0.0, 1.0);
  int checked = 0;
  for (const UnaryCase& c : cases) {
    for (int trial = 0; trial < 300; ++trial) {
      const double c0 = coef(rng), c1 = coef(rng), c2 = coef(rng);
      const double a = coef(rng), b = a + std::pow(10.0, -6.0 * width(rng)) * width(rng);
      const IntervalJet t = IntervalJet::time(a, b);
      const IntervalJet g = IntervalJet(c0) + IntervalJet(c1) * t + IntervalJet(c2) * square(t);
      const IntervalJet f = c.enclose(g);
      for (int k = 0; k < 5; ++k) {
        const double tp = a + (b - a) * where(rng);
        const Dual td(tp, 1.0);
        const Dual gp = Dual(c0 + c1 * td + c2 * td * td);
        const Dual fp = c.at(gp);
        if (!std::isfinite(fp.value()) || !std::isfinite(fp.derivative())) continue;
        ASSERT_TRUE(f.v.contains(fp.value())) << c.name << " at t = " << tp << ": " << fp.value()
                                              << " not in [" << f.v.lo << ", " << f.v.hi << "]";
        ASSERT_TRUE(f.d.contains(fp.derivative()))
            << c.name << "' at t = " << tp << ": " << fp.derivative() << " not in [" << f.d.lo
            << ", " << f.d.hi << "]";
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 18 * 300 * 4);
}

TEST(Interval, SinAndCosReachTheirExtremaInside) {
  const Interval around_half_pi(1.5, 1.6);
  EXPECT_EQ(sin(around_half_pi).hi, 1.0);
  EXPECT_LT(sin(around_half_pi).lo, std::sin(1.5));
  const Interval around_pi(3.1, 3.2);
  EXPECT_EQ(cos(around_pi).lo, -1.0);
  // Far from the origin (t = 1e6 periods of 2 pi): the extremum is still seen.
  const double k = 1e6;
  const double peak = std::numbers::pi / 2 + 2.0 * std::numbers::pi * k;
  EXPECT_EQ(sin(Interval(peak - 1e-3, peak + 1e-3)).hi, 1.0);
  EXPECT_LT(sin(Interval(peak + 0.1, peak + 0.2)).hi, 1.0);
  EXPECT_EQ(sin(Interval(0.0, 7.0)).lo, -1.0);
}

TEST(Interval, PolesAndDivisionByZeroAreUnbounded) {
  EXPECT_FALSE((Interval(1.0) / Interval(-1.0, 1.0)).is_finite());
  EXPECT_FALSE(tan(Interval(1.5, 1.6)).is_finite());
  EXPECT_TRUE(sqrt(Interval(-2.0, -1.0)).is_nan());
  EXPECT_TRUE(log(Interval(-2.0, -1.0)).is_nan());
  EXPECT_TRUE(sqrt(Interval(-1.0, 4.0)).is_nan());  // NaN somewhere in it
  EXPECT_EQ(sqrt(Interval(0.0, 4.0)).lo, 0.0);
}

TEST(IntervalJet, JumpsHaveNoDerivative) {
  const IntervalJet t = IntervalJet::time(-1.0, 1.0);
  const IntervalJet s = sign(t);
  EXPECT_EQ(s.v.lo, -1.0);
  EXPECT_EQ(s.v.hi, 1.0);
  EXPECT_FALSE(s.d.is_finite());
  const IntervalJet decided = sign(t + IntervalJet(3.0));
  EXPECT_EQ(decided.v.lo, 1.0);
  EXPECT_EQ(decided.d.hi, 0.0);
  const IntervalJet chosen = choose(t, IntervalJet(2.0), IntervalJet(3.0));
  EXPECT_EQ(chosen.v.lo, 2.0);
  EXPECT_EQ(chosen.v.hi, 3.0);
  EXPECT_FALSE(chosen.d.is_finite());
}

TEST(Interval, ArithmeticRoundsOutwards) {
  // 0.1 + 0.2 is not 0.3 in doubles; the enclosure holds both the sum's roundings.
  const Interval s = Interval(0.1) + Interval(0.2);
  EXPECT_LT(s.lo, 0.1 + 0.2);
  EXPECT_GT(s.hi, 0.1 + 0.2);
  EXPECT_LT(s.width(), 1e-15);
  const Interval p = Interval(1.0 / 3.0) * Interval(3.0);
  EXPECT_TRUE(p.contains(1.0));
}

}  // namespace
}  // namespace saltus
