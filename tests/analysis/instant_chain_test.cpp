// Issue 46 item 1: resets that chain at one instant in the same way at every nearby start are
// the orbit's structure, differentiated as their composite (saltation.hpp, instant_saltation).
//
// The boosted wall: a damped oscillator x'' + c x' + x = 0 in x <= 0 ("free") reaches the wall
// x = 0 and rebounds, v -> -e v, into "boost", whose guard -v - v_min fires when the leftward
// speed is at least v_min. With e v- > v_min the rebound lands beyond that guard, which fires at
// the same instant and adds k: v -> v - k, back to "free". "boost" has its own flow (v' = a), so
// the product of the two events' own saltation matrices is not the derivative; the composite
// v+ = -(e v- + k) at the wall's instant is. Closed form [derived, as energising_wall.hpp]:
// leaving the wall with speed u the oscillator returns after T = pi / w_d with speed q u,
// q = exp(-c pi / (2 w_d)), so the cycle has u = k / (1 - e q) and the multiplier e q.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "flow_map_differences.hpp"
#include "saltus/analysis/periodic_orbit.hpp"
#include "two_walls.hpp"

namespace saltus::analysis {
namespace {

struct BoostedWall {
  double c = 0.3, e = 0.7, k = 1.0, v_min = 0.2, a = 7.0;
  double w_d() const { return std::sqrt(1.0 - c * c / 4.0); }
  double q() const { return std::exp(-c * std::numbers::pi / (2.0 * w_d())); }
  double period() const { return std::numbers::pi / w_d(); }
  double u() const { return k / (1.0 - e * q()); }
  // The cycle's point on the section v = 0 rising (the minimum of x).
  Vector section_point() const {
    const double t = std::atan2(2.0 * w_d(), c) / w_d();
    Vector x(2);
    x << -u() / w_d() * std::exp(-c * t / 2.0) * std::sin(w_d() * t), 0.0;
    return x;
  }
  HybridSystem build() const {
    HybridSystem sys;
    const double damping = c, restitution = e, kick = k, threshold = v_min, accel = a;
    const ModeId free =
        sys.add_mode("free", ode_flow(2, [damping](const auto&, const auto& x, auto& xd) {
                       xd[0] = x[1];
                       xd[1] = -x[0] - damping * x[1];
                     }));
    const ModeId boost =
        sys.add_mode("boost", ode_flow(2, [accel](const auto&, const auto& x, auto& xd) {
                       xd[0] = x[1];
                       xd[1] = accel + 0.0 * x[0];
                     }));
    sys.add_guard(
        free,
        make_guard(
            "wall", Direction::Rising, [](const auto&, const auto& x, const auto&) { return x[0]; },
            Reset::to_ad(boost, [restitution](const auto&, const auto& x, const auto&, auto& xp) {
              xp[0] = x[0];
              xp[1] = -restitution * x[1];
            })));
    sys.add_guard(
        boost,
        make_guard(
            "boost", Direction::Rising,
            [threshold](const auto&, const auto& x, const auto&) { return -x[1] - threshold; },
            Reset::to_ad(free, [kick](const auto&, const auto& x, const auto&, auto& xp) {
              xp[0] = x[0];
              xp[1] = x[1] - kick;
            })));
    return sys;
  }
};

// A wall of random damping, restitution and kick, its boost's acceleration in [a_low, a_high],
// its threshold v_min at `threshold` times the cycle's rebound speed e q u.
BoostedWall random_wall(std::mt19937& rng, double a_low, double a_high, double threshold) {
  std::uniform_real_distribution<double> damping(0.05, 0.6), restitution(0.3, 0.9), kick(0.3, 3.0),
      accel(a_low, a_high);
  BoostedWall w;
  w.c = damping(rng);
  w.e = restitution(rng);
  w.k = kick(rng);
  w.a = accel(rng);
  w.v_min = threshold * w.e * w.q() * w.u();
  return w;
}

Guard lowest_point() {
  return make_observer("lowest", Direction::Rising,
                       [](const auto&, const auto& x, const auto&) { return x[1]; });
}

TEST(InstantChain, FlowMapThroughAChainAgreesWithDifferencesOfWholeRuns) {
  // a = 0: boost's guard has rate 0 in its own mode, so its own saltation matrix is undefined
  // (grazing); the composite is not.
  for (const double a : {7.0, 0.0}) {
    BoostedWall w;
    w.a = a;
    const HybridSystem sys = w.build();
    const SimulationOptions options = saltus::testing::differentiation_options();
    Vector x0(2);
    x0 << -1.3, 0.4;
    const double t_end = 2.6 * w.period();
    const FlowMapSensitivity s = flow_map_sensitivity(sys, 0, 0.0, x0, t_end, options);
    ASSERT_TRUE(s.ok()) << "a = " << a << ": " << s.message;
    // Three wall hits, each a chain of two resets composed into one matrix.
    ASSERT_EQ(s.events.size(), 3u);
    for (const EventSensitivity& e : s.events) {
      EXPECT_EQ(e.last_event, e.event + 1);
      EXPECT_EQ(e.resets, 2);
      EXPECT_EQ(e.mode_after, 0);
    }
    const Matrix reference =
        saltus::testing::flow_map_by_differences(sys, 0, 0.0, x0, t_end, options);
    const double error = saltus::testing::relative_difference(s.flow_map_jacobian, reference);
    EXPECT_LE(error, saltus::testing::kDifferenceTolerance) << s.flow_map_jacobian << "\nvs\n"
                                                            << reference;
    RecordProperty(a == 0.0 ? "flow_map_error_a0" : "flow_map_error",
                   saltus::testing::measured(error));
  }
}

TEST(InstantChain, TheComposedJacobianIsNotTheProductOfTheEventsOwnMatrices) {
  // The guard of the later reset is not crossed by the perturbed start, so its own saltation
  // matrix (with boost's flow and its guard's rate -a) gives another, wrong, matrix.
  const BoostedWall w;
  const HybridSystem sys = w.build();
  const SimulationOptions options = saltus::testing::differentiation_options();
  Vector x0(2);
  x0 << -1.3, 0.4;
  const FlowMapSensitivity s = flow_map_sensitivity(sys, 0, 0.0, x0, 0.6 * w.period(), options);
  ASSERT_TRUE(s.ok()) << s.message;
  ASSERT_EQ(s.events.size(), 1u);
  const EventLog& log = s.run.events;
  const Saltation wall = event_saltation(sys, log, s.events[0].event, false);
  const Saltation boost = event_saltation(sys, log, s.events[0].last_event, false);
  ASSERT_TRUE(wall.status == SensitivityStatus::Ok && boost.status == SensitivityStatus::Ok);
  EXPECT_GT(saltus::testing::relative_difference(boost.matrix * wall.matrix, s.events[0].saltation),
            1e-3);
}

TEST(InstantChain, SeededCyclesOnTheSectionMatchTheirClosedForm) {
  // Newton on the Poincare map of v = 0 through the chained resets: the cycle's point, period
  // and multipliers e q and 0, for random walls (each with e v- > v_min on the cycle).
  std::mt19937 rng(20261130);
  std::uniform_real_distribution<double> offset(0.85, 1.2);
  const SimulationOptions options = saltus::testing::differentiation_options();
  int solved = 0;
  for (int trial = 0; trial < 12; ++trial) {
    // The cycle hits the wall at speed q u: the threshold lies at half its rebound e q u.
    const BoostedWall w = random_wall(rng, -9.0, 9.0, 0.5);
    Vector guess = w.section_point();
    guess[0] *= offset(rng);
    const PeriodicOrbit orbit = shoot_on_section(
        w.build(), 0, 0.0, lowest_point(), 0.25 * w.period(), 3.0 * w.period(), guess, options);
    ASSERT_TRUE(orbit.converged()) << "trial " << trial << ": " << orbit.message;
    EXPECT_LE((orbit.x - w.section_point()).lpNorm<Eigen::Infinity>(), 1e-8 * (1.0 + w.u()));
    EXPECT_NEAR(orbit.period, w.period(), 1e-8);
    EXPECT_EQ(orbit.events_per_period, 2);
    ASSERT_EQ(orbit.multipliers.size(), 2);
    EXPECT_NEAR(orbit.multipliers[0].real(), w.e * w.q(), 1e-8);
    EXPECT_LE(std::abs(orbit.multipliers[1]), 1e-8);
    ++solved;
  }
  EXPECT_EQ(solved, 12);
}

TEST(InstantChain, ALandingOnTheNextGuardIsStillACorner) {
  // With v_min equal to the rebound speed the rebound lands on boost's surface: nearby starts
  // either fire it at once or flow in "boost" for a moment first, so the flow map has a corner
  // there and is not differentiated (both events named). The same start with the threshold
  // well below is differentiated (the first test).
  BoostedWall w;
  w.a = -7.0;  // in "boost" the leftward speed grows: a rebound on the surface crosses it at once
  const SimulationOptions options = saltus::testing::differentiation_options();
  Vector x0(2);
  x0 << -1e-3, 0.5;
  // The rebound speed from a plain run (the threshold is set to it exactly).
  const SimulationResult probe = simulate(w.build(), 0, 0.0, x0, 0.5, options);
  ASSERT_GE(probe.events.size(), 1);
  w.v_min = w.e * probe.events.x_before(0)[1];
  const FlowMapSensitivity s = flow_map_sensitivity(w.build(), 0, 0.0, x0, 0.5, options);
  ASSERT_EQ(s.run.events.size(), 2);
  ASSERT_EQ(s.run.events[1].t, s.run.events[0].t);  // fired at the rebound's instant
  EXPECT_EQ(s.status, SensitivityStatus::NotDifferentiable) << s.message;
  EXPECT_NE(s.message.find("'wall'"), std::string::npos) << s.message;
  EXPECT_NE(s.message.find("'boost'"), std::string::npos) << s.message;
  EXPECT_NE(s.message.find("corner"), std::string::npos) << s.message;
}

TEST(InstantChain, TheLandingCornersTwoSidesAgreeWithOneSidedDifferences) {
  // The start above: a larger v0 rebounds faster than v_min (boost fires at once: the composite),
  // a smaller one slower (a moment in "boost", then its kick: the product of the events' own
  // matrices). Each side against one-sided differences of whole runs in v0 (h = 1e-6: error
  // O(h) from the side's curvature and 1e-12 / h from the runs).
  BoostedWall w;
  w.a = -7.0;
  const SimulationOptions options = saltus::testing::differentiation_options();
  Vector x0(2);
  x0 << -1e-3, 0.5;
  const double t_end = 0.5;
  w.v_min = w.e * simulate(w.build(), 0, 0.0, x0, t_end, options).events.x_before(0)[1];
  const HybridSystem sys = w.build();
  const FlowMapSensitivity s = flow_map_sensitivity(sys, 0, 0.0, x0, t_end, options);
  ASSERT_EQ(s.status, SensitivityStatus::NotDifferentiable);
  ASSERT_EQ(s.corner_sides.size(), 2u) << s.message;
  EXPECT_NE(s.corner_sides[0].sequence.find("at once"), std::string::npos);
  EXPECT_NE(s.corner_sides[1].sequence.find("after a moment in mode 'boost'"), std::string::npos);
  const double h = 1e-6;
  const auto final_state = [&](double dv) {
    Vector x = x0;
    x[1] += dv;
    return simulate(sys, 0, 0.0, x, t_end, options).x_final;
  };
  const Vector at = final_state(0.0);
  const Vector carried = (final_state(h) - at) / h, crossed = (at - final_state(-h)) / h;
  const double error_carried =
      (s.corner_sides[0].jacobian.col(1) - carried).lpNorm<Eigen::Infinity>();
  const double error_crossed =
      (s.corner_sides[1].jacobian.col(1) - crossed).lpNorm<Eigen::Infinity>();
  EXPECT_LE(error_carried, 1e-4 * (1.0 + carried.lpNorm<Eigen::Infinity>()));
  EXPECT_LE(error_crossed, 1e-4 * (1.0 + crossed.lpNorm<Eigen::Infinity>()));
  EXPECT_GT((carried - crossed).lpNorm<Eigen::Infinity>(), 1e-2);  // a true corner
  RecordProperty("side_errors", saltus::testing::measured(error_carried) + ", " +
                                    saltus::testing::measured(error_crossed));
}

TEST(InstantChain, NewtonConvergesOnACornerAndReportsBothSides) {
  // v_min at the cycle's own rebound speed e q u: the cycle lies on the corner. Newton steps
  // with a side's derivative and converges to the closed-form point; the carried side's
  // multiplier is e q, the other side's is the slope of the map computed by plain evaluations
  // to the right of the point (x_min larger: slower rebounds).
  std::mt19937 rng(20261131);
  std::uniform_real_distribution<double> offset(0.8, 1.25);
  const SimulationOptions options = saltus::testing::differentiation_options();
  for (int trial = 0; trial < 8; ++trial) {
    const BoostedWall w = random_wall(rng, -9.0, -1.0, 1.0);
    const HybridSystem sys = w.build();
    const ReturnMap map =
        section_map(sys, 0, 0.0, lowest_point(), 0.25 * w.period(), 3.0 * w.period(), options);
    Vector guess = w.section_point();
    guess[0] *= offset(rng);
    const PeriodicOrbit orbit = find_fixed_point(map, guess);
    ASSERT_TRUE(orbit.converged()) << "trial " << trial << ": " << orbit.message;
    const double scale = 1.0 + w.u();
    EXPECT_LE((orbit.x - w.section_point()).lpNorm<Eigen::Infinity>(), 1e-8 * scale);
    EXPECT_NEAR(orbit.period, w.period(), 1e-8);
    // Within 1e-6 of the guard's scale of the corner: a corner (reset_instants.hpp).
    ASSERT_FALSE(orbit.corner.empty()) << "trial " << trial;
    ASSERT_EQ(orbit.corner_sides.size(), 2u) << orbit.corner;
    EXPECT_NE(orbit.corner.find("'boost'"), std::string::npos) << orbit.corner;
    const double h = 1e-6 * scale;
    Vector right = orbit.x;
    right[0] += h;
    const double slope = (map(right).x[0] - map(orbit.x).x[0]) / h;
    // The side the run took comes first: either, as Newton's last iterate fell.
    const bool carried_first = orbit.corner_sides[0].sequence.find("at once") != std::string::npos;
    const CornerMultipliers& carried = orbit.corner_sides[carried_first ? 0 : 1];
    const CornerMultipliers& crossed = orbit.corner_sides[carried_first ? 1 : 0];
    EXPECT_NE(crossed.sequence.find("after a moment"), std::string::npos) << crossed.sequence;
    EXPECT_NEAR(carried.multipliers[0].real(), w.e * w.q(), 1e-8);
    EXPECT_NEAR(crossed.multipliers[0].real(), slope, 1e-4);
    EXPECT_EQ(orbit.multipliers[0], orbit.corner_sides[0].multipliers[0]);
    EXPECT_GT(std::abs(slope - w.e * w.q()), 1e-2);
  }
}

TEST(InstantChain, TwoWallsCrossedAtOneInstantGiveBothOrders) {
  // A point reaching the corner of the walls x = 0 and y = 0 at t = 1 crosses both at once;
  // its y-acceleration is its x-velocity (v_y' = v_x), so the order matters to first order:
  // the walls hit in either order give two one-sided derivatives (the order fired, and the
  // other computed by applying the resets the other way round), each against one-sided
  // differences of whole runs in x0 (x0 - h: the x-wall first; x0 + h: the y-wall first).
  const HybridSystem sys = saltus::testing::two_walls(1.0);
  const ModeId m = 0;
  const SimulationOptions options = saltus::testing::differentiation_options();
  Vector x0(4);
  x0 << 1.0, 1.5, -1.0, -1.0;  // x = 1 - t, y = 1.5 - t - t^2 / 2: both 0 at t = 1
  const double t_end = 1.5;
  const FlowMapSensitivity s = flow_map_sensitivity(sys, m, 0.0, x0, t_end, options);
  ASSERT_EQ(s.status, SensitivityStatus::NotDifferentiable) << s.message;
  EXPECT_NE(s.message.find("both surfaces were crossed"), std::string::npos) << s.message;
  ASSERT_EQ(s.corner_sides.size(), 2u) << s.message;
  const double h = 1e-6;
  const auto final_state = [&](double dx) {
    Vector x = x0;
    x[0] += dx;
    return simulate(sys, m, 0.0, x, t_end, options).x_final;
  };
  const Vector at = final_state(0.0);
  const Vector x_first = (at - final_state(-h)) / h, y_first = (final_state(h) - at) / h;
  EXPECT_GT((x_first - y_first).lpNorm<Eigen::Infinity>(), 0.1);  // a true corner
  for (const CornerSide& side : s.corner_sides) {
    const bool x_wall_first = side.sequence.rfind("'x-wall'", 0) == 0;
    const Vector& expected = x_wall_first ? x_first : y_first;
    EXPECT_LE((side.jacobian.col(0) - expected).lpNorm<Eigen::Infinity>(), 1e-4)
        << side.sequence << "\n"
        << side.jacobian.col(0).transpose() << "\nvs " << expected.transpose();
  }
  EXPECT_NE(s.corner_sides[0].sequence, s.corner_sides[1].sequence);
}

}  // namespace
}  // namespace saltus::analysis
