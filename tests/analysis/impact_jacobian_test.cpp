// The exact derivative of rigid impacts (mech/impact_jacobian.cpp, Reset::jacobian of impact:<c>)
// against central differences of the reset's own apply, at seeded random states: the compass
// gait's heel strike (a simultaneous impact of the closed stance foot and the swing foot, then
// the leg swap), the bouncing rod's tip under Newton's law, and under the Newton-Coulomb law
// where the impact sticks (mu = 2) and where it slides (mu = 0.1).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "saltus/model/mechanical_system.hpp"
#include "saltus/model/model_loader.hpp"
#include "support/model_files.hpp"

namespace saltus::analysis {
namespace {

struct Impact {
  model::MechanicalSystem built;
  ModeId mode = kNoMode;
  int guard = -1;
};

Impact impact_of(const std::string& file, const std::vector<std::string>& set,
                 const std::string& mode, const std::string& guard) {
  Impact out{model::build_mechanical_system(std::make_shared<const model::Model>(
                 model::load_model_file(saltus::testing::models_dir() / file, set))),
             kNoMode, -1};
  out.mode = out.built.system.mode_id(mode);
  const auto& guards = out.built.system.mode(out.mode).guards;
  for (size_t g = 0; g < guards.size(); ++g) {
    if (guards[g].name == guard) out.guard = static_cast<int>(g);
  }
  EXPECT_GE(out.guard, 0) << guard;
  return out;
}

// x+ of the reset at (t, x); false when it has none. `target`: the mode it chose.
bool apply(const Impact& imp, double t, const Vector& x, Vector& x_plus, ModeId& target) {
  const HybridSystem& s = imp.built.system;
  const Reset& r = s.mode(imp.mode).guards[static_cast<size_t>(imp.guard)].reset;
  std::vector<int> nx;
  for (const Mode& m : s.modes()) nx.push_back(m.flow.nx);
  Vector buffer(s.max_nx()), outputs(r.output_names.size());
  std::string failure;
  Jump jump{r.target, buffer, outputs, failure, nx.data()};
  if (!r.apply(t, x, Vector(), jump)) return false;
  target = jump.target;
  x_plus = buffer.head(x.size());
  return true;
}

// The exact Jacobian against central differences of apply, entry by entry; the worst error
// relative to 1 + |entry|.
double worst_difference(const Impact& imp, const Vector& x) {
  const Reset& r = imp.built.system.mode(imp.mode).guards[static_cast<size_t>(imp.guard)].reset;
  EXPECT_TRUE(static_cast<bool>(r.jacobian));
  const auto n = x.size();
  Matrix exact(n, n), d_dz(n, 0);
  Vector d_dt(n);
  r.jacobian(0.0, x, Vector(), exact, d_dz, d_dt);
  Vector x0_plus, up, down;
  ModeId nominal = kNoMode, m_up = kNoMode, m_down = kNoMode;
  EXPECT_TRUE(apply(imp, 0.0, x, x0_plus, nominal));
  double worst = 0.0;
  const double root = std::cbrt(std::numeric_limits<double>::epsilon());
  for (Eigen::Index k = 0; k < n; ++k) {
    const double h = root * std::max(1.0, std::abs(x[k]));
    Vector xs = x;
    xs[k] += h;
    EXPECT_TRUE(apply(imp, 0.0, xs, up, m_up));
    xs[k] = x[k] - h;
    EXPECT_TRUE(apply(imp, 0.0, xs, down, m_down));
    EXPECT_EQ(m_up, nominal);
    EXPECT_EQ(m_down, nominal);
    const Vector column = (up - down) / (2.0 * h);
    for (Eigen::Index i = 0; i < n; ++i) {
      worst = std::max(worst, std::abs(column[i] - exact(i, k)) / (1.0 + std::abs(exact(i, k))));
    }
  }
  return worst;
}

TEST(ImpactJacobian, CompassGaitStrikeWithLegSwapMatchesDifferences) {
  const Impact strike = impact_of("compass_gait.toml", {}, "stick:stance", "impact:swing");
  std::mt19937 rng(4747);
  std::uniform_real_distribution<double> angle(0.15, 0.4), rate(-2.0, -0.8), swing(-2.5, 0.5);
  const double l = 1.0;
  for (int draw = 0; draw < 20; ++draw) {
    // On the strike surface th2 = -th1 > 0, the stance foot at rest at the origin.
    const double th1 = -angle(rng), w1 = rate(rng), w2 = swing(rng);
    Vector x(8);
    x << -l * std::sin(th1), l * std::cos(th1), th1, -th1, -l * std::cos(th1) * w1,
        -l * std::sin(th1) * w1, w1, w2;
    const double worst = worst_difference(strike, x);
    EXPECT_LT(worst, 1e-7) << "draw " << draw;
  }
}

TEST(ImpactJacobian, RodTipUnderNewtonAndNewtonCoulombMatchesDifferences) {
  const std::vector<std::vector<std::string>> laws = {
      {"contacts.tip.law=newton"},
      {"contacts.tip.law=newton_coulomb", "mu=2"},     // the impact sticks
      {"contacts.tip.law=newton_coulomb", "mu=0.1"}};  // it slides
  std::mt19937 rng(1234);
  std::uniform_real_distribution<double> angle(0.3, 1.3), speed(-3.0, -0.5), spin(-3.0, 3.0);
  for (const auto& set : laws) {
    SCOPED_TRACE(set.back());
    const Impact tip = impact_of("bouncing_rod.toml", set, "free", "impact:tip");
    for (int draw = 0; draw < 12; ++draw) {
      // (x, y) is the tip (gap y, tangent x): on the table, approaching it.
      Vector x(6);
      x << 0.1, 0.0, angle(rng), spin(rng) * 0.3, speed(rng), spin(rng);
      const double worst = worst_difference(tip, x);
      EXPECT_LT(worst, 1e-7) << "draw " << draw;
    }
  }
}

}  // namespace
}  // namespace saltus::analysis
