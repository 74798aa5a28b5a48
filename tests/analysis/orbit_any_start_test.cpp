// Orbits from any start (issue 33): a guess off the section run to its first crossing, the
// section watched in every mode, terminal guards that end an attempt, damped Newton, cyclic
// coordinates with their drift, continuation in a parameter that is not a state. Against the
// energising wall's closed form (energising_wall.hpp) and the impact oscillator's
// (impact_oscillator.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>

#include "energising_wall.hpp"
#include "flow_map_differences.hpp"
#include "impact_oscillator.hpp"
#include "saltus/analysis/orbit_continuation.hpp"
#include "saltus/analysis/parameter_return_map.hpp"
#include "saltus/analysis/periodic_orbit.hpp"
#include "saltus/analysis/section_start.hpp"

namespace saltus::analysis {
namespace {

using saltus::testing::EnergisingWall;

// The wall's limit cycle after leaving the wall at s = 0 with speed u (energising_wall.hpp).
struct WallCycle {
  EnergisingWall w;
  double x(double s) const {
    return -(w.u() / w.w_d()) * std::exp(-w.c * s / 2.0) * std::sin(w.w_d() * s);
  }
  double v(double s) const {
    return -(w.u() / w.w_d()) * std::exp(-w.c * s / 2.0) *
           (w.w_d() * std::cos(w.w_d() * s) - w.c / 2.0 * std::sin(w.w_d() * s));
  }
  // Where the cycle crosses x = level rising (after its minimum), by bisection.
  double rising_crossing(double level) const {
    double lo = std::atan2(2.0 * w.w_d(), w.c) / w.w_d(), hi = w.period();
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      (x(mid) < level ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
  }
};

Guard x_level_rising(double level) {
  return make_observer("x_level", Direction::Rising,
                       [level](const auto&, const auto& x, const auto&) { return x[0] - level; });
}

Guard lowest() {
  return make_observer("lowest", Direction::Rising,
                       [](const auto&, const auto& x, const auto&) { return x[1]; });
}

// The wall in two modes: "out" (after the wall, to the turning point v = 0) and "back" (from
// there to the wall), so the section x = level rising is crossed in "back" only.
HybridSystem two_mode_wall(const EnergisingWall& w) {
  HybridSystem sys;
  const double c = w.c, kick = w.k;
  const auto flow = [c](const auto&, const auto& x, auto& xd) {
    xd[0] = x[1];
    xd[1] = -x[0] - c * x[1];
  };
  const ModeId out = sys.add_mode("out", ode_flow(2, flow));
  const ModeId back = sys.add_mode("back", ode_flow(2, flow));
  sys.add_guard(out, make_guard(
                         "turn", Direction::Rising,
                         [](const auto&, const auto& x, const auto&) { return x[1]; },
                         Reset::to_ad(back, [](const auto&, const auto& x, const auto&, auto& xp) {
                           xp[0] = x[0];
                           xp[1] = x[1];
                         })));
  sys.add_guard(
      back,
      make_guard(
          "wall", Direction::Rising, [](const auto&, const auto& x, const auto&) { return x[0]; },
          Reset::to_ad(out, [kick](const auto&, const auto& x, const auto&, auto& xp) {
            xp[0] = x[0];
            xp[1] = -(x[1] + kick);
          })));
  return sys;
}

TEST(OrbitAnyStart, GuessOffTheSectionInAnotherModeFindsTheCycle) {
  const EnergisingWall w;
  const WallCycle cycle{w};
  const HybridSystem sys = two_mode_wall(w);
  const SimulationOptions options = saltus::testing::differentiation_options();
  const double level = -0.5;
  Vector guess(2);
  guess << -1.0, -0.5;  // in "out", where the section is never crossed
  const SectionStart start =
      start_on_section(sys, 0, 0.0, guess, Vector(), x_level_rising(level), 50.0, options);
  ASSERT_TRUE(start.ok) << start.message;
  EXPECT_TRUE(start.moved);
  EXPECT_EQ(sys.mode(start.mode).name, "back");
  EXPECT_NEAR(start.x[0], level, 1e-12);
  const ReturnMap map =
      section_map(sys, start.mode, start.t, x_level_rising(level), 0.5, 50.0, options, {}, start.z);
  const PeriodicOrbit orbit = find_fixed_point(map, start.x);
  ASSERT_TRUE(orbit.converged()) << orbit.message;
  const double s = cycle.rising_crossing(level);
  EXPECT_NEAR(orbit.x[0], level, 1e-9);
  EXPECT_NEAR(orbit.x[1], cycle.v(s), 1e-8) << "closed form v at x = " << level;
  EXPECT_NEAR(orbit.period, w.period(), 1e-8);
  EXPECT_EQ(sys.mode(orbit.mode).name, "back");
  // The section map's multipliers: q (the speed map) and 0 (the flow direction).
  ASSERT_EQ(orbit.multipliers.size(), 2);
  EXPECT_NEAR(orbit.multipliers[0].real(), w.q(), 1e-8);
  EXPECT_NEAR(std::abs(orbit.multipliers[1]), 0.0, 1e-8);
  // Watched only in the starting mode (before issue 33), "out" never returns to the section.
  HybridSystem only_out = sys;
  Guard g = x_level_rising(level);
  g.terminal = true;
  only_out.add_guard(0, g);
  const SimulationResult r = simulate(only_out, 0, 0.0, guess, 50.0, options);
  EXPECT_NE(r.termination(), Termination::TerminalEvent);
}

TEST(OrbitAnyStart, GuessOnTheSectionIsKept) {
  const EnergisingWall w;
  const HybridSystem sys = w.build();
  const SectionStart start = start_on_section(sys, 0, 0.0, w.section_point(), Vector(), lowest(),
                                              50.0, saltus::testing::differentiation_options());
  ASSERT_TRUE(start.ok);
  EXPECT_FALSE(start.moved);
  EXPECT_EQ(start.x, w.section_point());
}

// The wall made terminal: the run from the section stops there, before it returns.
HybridSystem terminal_wall(const EnergisingWall& w) {
  HybridSystem sys;
  const double c = w.c;
  const ModeId m = sys.add_mode("free", ode_flow(2, [c](const auto&, const auto& x, auto& xd) {
                                  xd[0] = x[1];
                                  xd[1] = -x[0] - c * x[1];
                                }));
  sys.add_guard(m, make_guard(
                       "wall", Direction::Rising,
                       [](const auto&, const auto& x, const auto&) { return x[0]; },
                       Reset::to_ad(m,
                                    [](const auto&, const auto& x, const auto&, auto& xp) {
                                      xp[0] = x[0];
                                      xp[1] = -x[1];
                                    }),
                       true));
  return sys;
}

TEST(OrbitAnyStart, TerminalGuardBeforeTheSectionIsNotAReturn) {
  const EnergisingWall w;
  const HybridSystem sys = terminal_wall(w);
  const SimulationOptions options = saltus::testing::differentiation_options();
  const PeriodicOrbit orbit =
      shoot_on_section(sys, 0, 0.0, lowest(), 0.5, 50.0, w.section_point(), options);
  EXPECT_EQ(orbit.status, ShootingStatus::TerminalEvent) << orbit.message;
  EXPECT_FALSE(orbit.converged());
  EXPECT_NE(orbit.message.find("terminal guard 'wall'"), std::string::npos) << orbit.message;
  // Off the section, heading for the wall: the first crossing is never reached.
  Vector guess(2);
  guess << -0.1, 1.0;
  const SectionStart start =
      start_on_section(sys, 0, 0.0, guess, Vector(), lowest(), 50.0, options);
  EXPECT_FALSE(start.ok);
  EXPECT_EQ(start.terminal_guard, "wall") << start.message;
  // The stroboscopic map too: a terminal event before t0 + T is no value of the map.
  const MapValue v = stroboscopic_map(sys, 0, 0.0, 10.0, options)(w.section_point());
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.terminal_guard, "wall") << v.message;
}

TEST(OrbitAnyStart, DampedNewtonConvergesWhereTheFullStepDiverges) {
  // P(x) = x - atan(x - 3): Newton on -atan(x - 3) diverges from |x - 3| > 1.39.
  const ReturnMap map = [](const Vector& x) {
    MapValue v;
    v.status = SensitivityStatus::Ok;
    v.x = Vector::Constant(1, x[0] - std::atan(x[0] - 3.0));
    v.jacobian = Matrix::Constant(1, 1, 1.0 - 1.0 / (1.0 + (x[0] - 3.0) * (x[0] - 3.0)));
    v.return_time = 1.0;
    return v;
  };
  double undamped = 6.0;  // plain Newton, x -= F / F'
  for (int k = 0; k < 4; ++k) {
    undamped += std::atan(undamped - 3.0) * (1.0 + (undamped - 3.0) * (undamped - 3.0));
  }
  EXPECT_GT(std::abs(undamped - 3.0), 100.0);
  ShootingOptions tight;
  tight.tolerance = 1e-12;
  const PeriodicOrbit orbit = find_fixed_point(map, Vector::Constant(1, 6.0), tight);
  ASSERT_TRUE(orbit.converged()) << orbit.message;
  EXPECT_NEAR(orbit.x[0], 3.0, 4e-12);  // |atan(x - 3)| <= 1e-12 (1 + |x|)
  EXPECT_GT(orbit.line_search_halvings, 0);
  // --tol: a loose tolerance stops earlier, with its residual within it.
  ShootingOptions loose;
  loose.tolerance = 1e-3;
  const PeriodicOrbit rough = find_fixed_point(map, Vector::Constant(1, 6.0), loose);
  ASSERT_TRUE(rough.converged());
  EXPECT_LE(rough.residual, 1e-3 * (1.0 + std::abs(rough.x[0])));
  EXPECT_LT(rough.iterations, orbit.iterations);
  // --max-iterations: too few is "not converged" with the last residual.
  ShootingOptions few;
  few.max_iterations = 1;
  EXPECT_EQ(find_fixed_point(map, Vector::Constant(1, 6.0), few).status,
            ShootingStatus::NotConverged);
}

// The wall with a coordinate s that advances at rate a and by L at each wall impact: it drifts
// by a T + L per period (T = pi / w_d), and nothing reads it.
HybridSystem drifting_wall(const EnergisingWall& w, double a, double step) {
  HybridSystem sys;
  const double c = w.c, kick = w.k;
  const ModeId m = sys.add_mode("free", ode_flow(3, [c, a](const auto&, const auto& x, auto& xd) {
                                  xd[0] = x[1];
                                  xd[1] = -x[0] - c * x[1];
                                  xd[2] = a + 0.0 * x[2];
                                }));
  sys.add_guard(
      m,
      make_guard(
          "wall", Direction::Rising, [](const auto&, const auto& x, const auto&) { return x[0]; },
          Reset::to_ad(m, [kick, step](const auto&, const auto& x, const auto&, auto& xp) {
            xp[0] = x[0];
            xp[1] = -(x[1] + kick);
            xp[2] = x[2] + step;
          })));
  return sys;
}

TEST(OrbitAnyStart, CyclicCoordinateDriftsByItsClosedForm) {
  const EnergisingWall w;
  const double a = 0.7, step = 0.25;
  const HybridSystem sys = drifting_wall(w, a, step);
  const SimulationOptions options = saltus::testing::differentiation_options();
  Vector guess(3);
  guess << -1.5, 0.0, 5.0;
  ShootingOptions cyclic;
  cyclic.cyclic = {2};
  const ReturnMap map = section_map(sys, 0, 0.0, lowest(), 0.5, 50.0, options);
  const PeriodicOrbit orbit = find_fixed_point(map, guess, cyclic);
  ASSERT_TRUE(orbit.converged()) << orbit.message;
  EXPECT_NEAR(orbit.x[0], w.section_point()[0], 1e-8);
  EXPECT_EQ(orbit.x[2], 5.0);  // held
  ASSERT_EQ(orbit.drift.size(), 1);
  EXPECT_NEAR(orbit.drift[0], a * w.period() + step, 1e-8);
  EXPECT_LE(orbit.cyclic_column_error[0], 1e-8);
  ASSERT_EQ(orbit.multipliers.size(), 2);  // of (x, v) only: q and 0
  EXPECT_NEAR(orbit.multipliers[0].real(), w.q(), 1e-8);
  // Without --cyclic s cannot close: Newton cannot move it (its row and column of DP - I
  // vanish), so the orbit is not found.
  EXPECT_FALSE(find_fixed_point(map, guess).converged());
  // x named cyclic: the map is not invariant under its translation (its column of DP differs).
  ShootingOptions wrong;
  wrong.cyclic = {0};
  const PeriodicOrbit held = find_fixed_point(map, guess, wrong);
  if (held.converged()) {
    EXPECT_GT(held.cyclic_column_error[0], 1e-3);
  }
}

// The impact oscillator (impact_oscillator.hpp) with e read from `e` at every impact: e is not
// a state, as a model's run-time parameter.
HybridSystem oscillator_reading(std::shared_ptr<double> e, double sigma) {
  const saltus::testing::ImpactOscillator o;
  HybridSystem sys;
  const double a = o.A, om = o.w;
  const ModeId m =
      sys.add_mode("free", ode_flow(2, [a, om](const auto& t, const auto& x, auto& xd) {
                     using std::cos;
                     xd[0] = x[1];
                     xd[1] = -x[0] + a * cos(om * t);
                   }));
  sys.add_guard(m, make_guard(
                       "stop", Direction::Rising,
                       [sigma](const auto&, const auto& x, const auto&) { return x[0] - sigma; },
                       Reset::to_ad(m, [e](const auto&, const auto& x, const auto&, auto& xp) {
                         xp[0] = x[0];
                         xp[1] = -(*e) * x[1];
                       })));
  return sys;
}

TEST(OrbitAnyStart, ContinuationInAParameterLocatesThePeriodDoubling) {
  const double sigma = 0.075;
  auto e = std::make_shared<double>(0.5);
  const HybridSystem sys = oscillator_reading(e, sigma);
  saltus::testing::ImpactOscillator o;
  o.sigma = sigma;
  // Closed form: tr M = -(1 + e^2) at the doubling, located by bisection in e on [0.3, 0.5].
  const auto doubling = [&](double ev) {
    saltus::testing::ImpactOscillator at = o;
    at.e = ev;
    return at.monodromy_trace() + 1.0 + ev * ev;
  };
  double lo = 0.3, hi = 0.5;
  ASSERT_LT(doubling(lo) * doubling(hi), 0.0);
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (doubling(mid) * doubling(lo) > 0.0 ? lo : hi) = mid;
  }
  const double e_pd = 0.5 * (lo + hi);
  const ReturnMap map = parameter_return_map(
      stroboscopic_map(sys, 0, 0.0, o.period(), saltus::testing::differentiation_options()),
      [e](double v) { *e = v; });
  o.e = 0.5;
  Vector guess(3);
  guess << o.closed_form().state_at_zero, 0.5;
  ContinuationOptions c;
  c.parameter = 2;
  c.p_min = 0.3;
  c.p_max = 0.5;
  c.direction = -1.0;
  const Branch b = continue_orbit(map, guess, c);
  ASSERT_TRUE(b.ok) << b.stop_reason;
  ASSERT_GE(b.points.size(), 5u);
  for (const BranchPoint& p : b.points) {
    saltus::testing::ImpactOscillator at = o;
    at.e = p.parameter;
    EXPECT_LE((p.x.head(2) - at.closed_form().state_at_zero).lpNorm<Eigen::Infinity>(), 1e-8)
        << "e = " << p.parameter;
  }
  int doublings = 0;
  for (const BifurcationPoint& p : b.bifurcations) {
    if (p.kind != BifurcationKind::PeriodDoubling) continue;
    ++doublings;
    EXPECT_NEAR(p.parameter, e_pd, 1e-8);
    RecordProperty("e_pd", saltus::testing::measured(p.parameter - e_pd));
  }
  EXPECT_EQ(doublings, 1);
}

}  // namespace
}  // namespace saltus::analysis
