// Every saltation matrix and flow-map Jacobian of the analysis layer against central differences
// of the whole hybrid flow map (flow_map_differences.hpp): a ball (AD reset), a ball on a moving
// floor (time-dependent guard and reset), a reset into a mode of another dimension, the rod under
// impact laws (refused without an exact reset derivative; central differences when allowed), a DAE
// mode switch and a Filippov crossing (model files: symbolic reset Jacobians), and a map to a
// terminal Poincare section.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "flow_map_differences.hpp"
#include "saltus/analysis/hybrid_sensitivity.hpp"
#include "saltus/mech/bouncing_rod.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_system.hpp"
#include "saltus/systems/bouncing_ball.hpp"
#include "support/model_files.hpp"
#include "two_walls.hpp"

namespace saltus::analysis {
namespace {

using saltus::testing::differentiation_options;
using saltus::testing::flow_map_by_differences;
using saltus::testing::kDifferenceTolerance;
using saltus::testing::relative_difference;

// The analysis Jacobian of the run against its central differences; returns the analysis result.
FlowMapSensitivity expect_matches_differences(const HybridSystem& sys, ModeId mode,
                                              const Vector& x0, double t_end,
                                              const SimulationOptions& options,
                                              long expected_events,
                                              const std::string& label = "relative_difference",
                                              const SaltationOptions& saltation = {}) {
  const FlowMapSensitivity s =
      flow_map_sensitivity(sys, mode, 0.0, x0, t_end, options, Vector(), saltation);
  EXPECT_TRUE(s.ok()) << s.message;
  if (!s.ok()) return s;
  EXPECT_EQ(static_cast<long>(s.events.size()), expected_events) << s.run.summary.message;
  const Matrix fd = flow_map_by_differences(sys, mode, 0.0, x0, t_end, options);
  const double difference = relative_difference(s.flow_map_jacobian, fd);
  ::testing::Test::RecordProperty(label, saltus::testing::measured(difference));
  EXPECT_LE(difference, kDifferenceTolerance) << "analysis\n"
                                              << s.flow_map_jacobian << "\ndifferences\n"
                                              << fd;
  // The variational arcs follow the run's trajectory to its accuracy.
  EXPECT_LE(s.arc_state_mismatch, 1e-9);
  return s;
}

TEST(FlowMapJacobian, BouncingBallWithDragMatchesDifferences) {
  systems::BouncingBall ball;
  ball.e = 0.7;
  ball.drag = 0.3;
  ball.with_rest_mode = false;
  const HybridSystem sys = ball.build();
  Vector x0(2);
  x0 << 1.0, 0.5;
  const FlowMapSensitivity s =
      expect_matches_differences(sys, ball.flight, x0, 1.5, differentiation_options(), 3);
  // Clark-Bloch Example 1 with drag: det S = e^2 at each impact; the arcs shrink volume by
  // exp(-drag t) (div f = -drag), so det D phi = e^6 exp(-drag t_end).
  for (const EventSensitivity& e : s.events) EXPECT_NEAR(e.hybrid_jacobian, 0.49, 1e-12);
  EXPECT_NEAR(s.volume_factor, std::pow(0.7, 6) * std::exp(-0.3 * 1.5), 1e-9);
}

// A ball over a floor moving as y_f(t) = a sin(w t): guard y_f(t) - x (time-dependent), reset
// v+ = y_f'(t) - e (v- - y_f'(t)) (time-dependent): exercises the P_t and DR_t terms.
HybridSystem ball_on_moving_floor(double a, double w, double e) {
  HybridSystem sys;
  const ModeId fly = sys.add_mode("flight", ode_flow(2, [](const auto&, const auto& x, auto& xd) {
                                    xd[0] = x[1];
                                    xd[1] = -9.81;
                                  }));
  sys.add_guard(
      fly, make_guard(
               "impact", Direction::Rising,
               [a, w](const auto& t, const auto& x, const auto&) {
                 using std::sin;
                 return a * sin(w * t) - x[0];
               },
               Reset::to_ad(fly, [a, w, e](const auto& t, const auto& x, const auto&, auto& xp) {
                 using std::cos;
                 const auto floor_speed = a * w * cos(w * t);
                 xp[0] = x[0];
                 xp[1] = floor_speed - e * (x[1] - floor_speed);
               })));
  return sys;
}

TEST(FlowMapJacobian, OnePassAndTwoPassesAgree) {
  // The ball on a moving floor alone is differentiated in one pass; with an unreachable mode of
  // another dimension added, in two (the run, then every arc). Same events, same matrices.
  const HybridSystem one = ball_on_moving_floor(0.1, 5.0, 0.8);
  HybridSystem two = one;
  two.add_mode("unreached", ode_flow(3, [](const auto&, const auto& x, auto& xd) {
                 xd[0] = 0.0 * x[0];
                 xd[1] = 0.0 * x[1];
                 xd[2] = 0.0 * x[2];
               }));
  const Vector x0 = (Vector(2) << 1.0, 0.0).finished();
  const FlowMapSensitivity a =
      flow_map_sensitivity(one, 0, 0.0, x0, 2.0, differentiation_options());
  const FlowMapSensitivity b =
      flow_map_sensitivity(two, 0, 0.0, x0, 2.0, differentiation_options());
  ASSERT_TRUE(a.ok()) << a.message;
  ASSERT_TRUE(b.ok()) << b.message;
  ASSERT_EQ(a.events.size(), b.events.size());
  ASSERT_GE(a.events.size(), 2u);
  EXPECT_GT(b.arc_state_mismatch, 0.0);  // two passes: the arcs were integrated again
  EXPECT_EQ(a.arc_state_mismatch, 0.0);  // one pass
  for (size_t k = 0; k < a.events.size(); ++k) {
    EXPECT_NEAR(a.events[k].t, b.events[k].t, 1e-10);
    EXPECT_EQ(a.events[k].event, b.events[k].event);
    EXPECT_LE(relative_difference(a.events[k].saltation, b.events[k].saltation), 1e-8);
  }
  EXPECT_LE(relative_difference(a.flow_map_jacobian, b.flow_map_jacobian), 1e-8);
  EXPECT_LE((a.run.x_final - b.run.x_final).lpNorm<Eigen::Infinity>(), 1e-10);
  EXPECT_EQ(a.run.events.size(), b.run.events.size());
  EXPECT_EQ(a.run.x_final.size(), 2);
}

TEST(FlowMapJacobian, TimeDependentGuardAndResetMatchDifferences) {
  const HybridSystem sys = ball_on_moving_floor(0.1, 5.0, 0.8);
  Vector x0(2);
  x0 << 0.6, 0.0;
  expect_matches_differences(sys, 0, x0, 1.2, differentiation_options(), 2);
}

// Flight (x, v) -> on impact a 3-state mode (x, v, s) with s = v-^2 carried along (s' = -s):
// the saltation matrix is 3 by 2 and the flow map Jacobian 3 by 2.
HybridSystem ball_into_larger_mode() {
  HybridSystem sys;
  const ModeId fly = sys.add_mode("flight", ode_flow(2, [](const auto&, const auto& x, auto& xd) {
                                    xd[0] = x[1];
                                    xd[1] = -9.81;
                                  }));
  const ModeId after = sys.add_mode("after", ode_flow(3, [](const auto&, const auto& x, auto& xd) {
                                      xd[0] = x[1];
                                      xd[1] = -9.81 - x[2];
                                      xd[2] = -x[2];
                                    }));
  sys.add_guard(fly, make_guard(
                         "impact", Direction::Rising,
                         [](const auto&, const auto& x, const auto&) { return -x[0]; },
                         Reset::to_ad(after, [](const auto&, const auto& x, const auto&, auto& xp) {
                           xp[0] = x[0];
                           xp[1] = -0.5 * x[1];
                           xp[2] = x[1] * x[1];
                         })));
  return sys;
}

TEST(FlowMapJacobian, ResetIntoModeOfAnotherDimensionMatchesDifferences) {
  const HybridSystem sys = ball_into_larger_mode();
  Vector x0(2);
  x0 << 1.0, 0.0;
  const FlowMapSensitivity s =
      expect_matches_differences(sys, 0, x0, 0.8, differentiation_options(), 1);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s.flow_map_jacobian.rows(), 3);
  EXPECT_EQ(s.flow_map_jacobian.cols(), 2);
  EXPECT_EQ(s.events[0].saltation.rows(), 3);
  EXPECT_TRUE(std::isnan(s.events[0].hybrid_jacobian));  // no determinant across dimensions
}

TEST(FlowMapJacobian, RodUnderImpactLawsMatchesDifferences) {
  using mech::ImpactLawKind;
  for (const ImpactLawKind kind :
       {ImpactLawKind::NewtonFrictionless, ImpactLawKind::Naive, ImpactLawKind::ChatterjeeRuina,
        ImpactLawKind::RouthNewton, ImpactLawKind::RouthPoisson, ImpactLawKind::RouthStronge}) {
    mech::BouncingRodParameters p;
    p.law = mech::ContactImpactLaw{kind, 0.8, 0.0, 0.3};
    const auto rod = mech::bouncing_rod_model(p).compile();
    Vector x0(6);
    x0 << 0.0, 0.2, 0.7, 0.3, -1.0, 2.0;
    SCOPED_TRACE(mech::to_string(kind));
    if (kind == ImpactLawKind::NewtonFrictionless) {
      // Newton's law has an exact derivative (mech/impact_jacobian.cpp): no allowance needed.
      const FlowMapSensitivity s =
          expect_matches_differences(rod.system, rod.free, x0, 0.25, differentiation_options(), 1,
                                     mech::to_string(kind), SaltationOptions{});
      ASSERT_TRUE(s.ok()) << s.message;
      EXPECT_FALSE(s.events[0].numerical_reset_jacobian);
      continue;
    }
    // The frictional laws other than Newton-Coulomb (Routh's processes, the algebraic and naive
    // laws) have no exact derivative: refused by default, naming the guard and why.
    const FlowMapSensitivity refused =
        flow_map_sensitivity(rod.system, rod.free, 0.0, x0, 0.25, differentiation_options());
    EXPECT_EQ(refused.status, SensitivityStatus::NotDifferentiable);
    EXPECT_NE(refused.message.find("no derivative"), std::string::npos) << refused.message;
    EXPECT_NE(refused.message.find("guard '"), std::string::npos) << refused.message;
    EXPECT_EQ(refused.flow_map_jacobian.size(), 0);
    // The documented fallback (central differences of the law's apply), when allowed.
    SaltationOptions allowed;
    allowed.allow_numerical_derivatives = true;
    const FlowMapSensitivity s =
        expect_matches_differences(rod.system, rod.free, x0, 0.25, differentiation_options(), 1,
                                   mech::to_string(kind), allowed);
    ASSERT_TRUE(s.ok());
    EXPECT_TRUE(s.events[0].numerical_reset_jacobian);
  }
}

std::shared_ptr<const model::Model> load(const std::string& file,
                                         const std::vector<std::string>& set = {}) {
  return std::make_shared<const model::Model>(
      model::load_model_file(saltus::testing::models_dir() / file, set));
}

TEST(FlowMapJacobian, ModelFileBallUsesItsSymbolicResetJacobian) {
  // v = -e*v in models/bouncing_ball.toml: DR from the expression graph, det S = e^2.
  const double e = 0.7;
  const auto m =
      load("bouncing_ball.toml", {"e=" + saltus::testing::num(e), "rtol=1e-12", "atol=1e-14"});
  const HybridSystem sys = model::build_hybrid_system(m);
  const FlowMapSensitivity s =
      expect_matches_differences(sys, m->initial_mode, m->initial_state(), 1.0, m->options, 1);
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s.events[0].numerical_reset_jacobian);
  EXPECT_NEAR(s.events[0].hybrid_jacobian, e * e, 1e-12);
}

TEST(FlowMapJacobian, LiftOffGuardOnTheAlgebraicStateMatchesDifferences) {
  // Resting ball (DAE: contact force lambda = m g - k t) lifts off when lambda reaches 0: the
  // guard -lambda depends on z only, its rate is p_z dz/dt (FlowEvaluator-side g_t), then flight.
  systems::BouncingBall ball;
  ball.lift_rate = 20.0;  // lift-off at m g / k = 0.49
  const HybridSystem sys = ball.build();
  Vector x0(2);
  x0 << 0.3, 0.1;  // the rest mode keeps any state: a clean test of the z-only guard
  const FlowMapSensitivity s = expect_matches_differences(
      sys, ball.rest, x0, 0.6, differentiation_options(Integrator::Radau5), 1);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s.events[0].mode_before, ball.rest);
}

// Parameter sensitivities by appending the parameter to the state with zero rate: here the
// restitution e of a ball, so dx(t)/de is the last column of the flow-map Jacobian.
TEST(FlowMapJacobian, ParameterAsStateGivesItsSensitivity) {
  HybridSystem sys;
  const ModeId fly = sys.add_mode("flight", ode_flow(3, [](const auto&, const auto& x, auto& xd) {
                                    xd[0] = x[1];
                                    xd[1] = -9.81;
                                    xd[2] = 0.0;
                                  }));
  sys.add_guard(fly, make_guard(
                         "impact", Direction::Rising,
                         [](const auto&, const auto& x, const auto&) { return -x[0]; },
                         Reset::to_ad(fly, [](const auto&, const auto& x, const auto&, auto& xp) {
                           xp[0] = x[0];
                           xp[1] = -x[2] * x[1];
                           xp[2] = x[2];
                         })));
  Vector x0(3);
  x0 << 1.0, 0.0, 0.8;
  const FlowMapSensitivity s =
      expect_matches_differences(sys, fly, x0, 0.7, differentiation_options(), 1);
  ASSERT_TRUE(s.ok());
  // After the impact at t1 = sqrt(2/g) with speed u = g t1: v = e u - g (t - t1), so dv/de = u.
  const double t1 = std::sqrt(2.0 / 9.81);
  EXPECT_NEAR(s.flow_map_jacobian(1, 2), 9.81 * t1, 1e-9);
  EXPECT_NEAR(s.flow_map_jacobian(0, 2), 9.81 * t1 * (0.7 - t1), 1e-9);
}

TEST(FlowMapJacobian, ZenoHandoverIsAStatus) {
  systems::BouncingBall ball;  // with the rest mode: flight -> rest at t_inf ~ 4.06
  const HybridSystem sys = ball.build();
  const FlowMapSensitivity s = flow_map_sensitivity(
      sys, ball.flight, 0.0, (Vector(2) << 1.0, 0.0).finished(), 6.0, differentiation_options());
  EXPECT_EQ(s.status, SensitivityStatus::ZenoPoint) << s.message;
  EXPECT_NE(s.message.find("Zeno"), std::string::npos) << s.message;
  EXPECT_EQ(s.flow_map_jacobian.size(), 0);
}

// Issue 34: a point reaching the corner of two walls crosses both at one instant; the flow map
// has a corner there (hit the x-wall first or the y-wall first: different one-sided
// derivatives), and the product of the two saltation matrices was reported as its derivative.
// The sensitivity now says NotDifferentiable, naming the two guards and t; a start off the
// corner stays Ok.
TEST(FlowMapJacobian, SimultaneousResetsAtACornerAreAStatus) {
  const HybridSystem sys = saltus::testing::two_walls();
  const ModeId m = 0;
  SimulationOptions o;
  o.stepper.rtol = 1e-10;
  o.stepper.atol = 1e-12;
  Vector corner(4), beside(4);
  corner << 1.0, 1.0, -1.0, -1.0;
  beside << 1.0, 1.5, -1.0, -1.0;
  const FlowMapSensitivity at_corner = flow_map_sensitivity(sys, m, 0.0, corner, 3.0, o);
  EXPECT_EQ(at_corner.status, SensitivityStatus::NotDifferentiable) << at_corner.message;
  EXPECT_NE(at_corner.message.find("'x-wall'"), std::string::npos) << at_corner.message;
  EXPECT_NE(at_corner.message.find("'y-wall'"), std::string::npos) << at_corner.message;
  EXPECT_NE(at_corner.message.find("t = 1"), std::string::npos) << at_corner.message;
  EXPECT_EQ(at_corner.flow_map_jacobian.size(), 0);
  const FlowMapSensitivity off = flow_map_sensitivity(sys, m, 0.0, beside, 3.0, o);
  ASSERT_TRUE(off.ok()) << off.message;
  EXPECT_EQ(off.events.size(), 2u);
}

TEST(FlowMapJacobian, DaeModeSwitchMatchesDifferencesAndClosedForm) {
  // fast (semi-explicit) -> slow (implicit) at x = xs; t_end before the stop at xe.
  const auto m = load("dae_mode_switch.toml");
  const HybridSystem sys = model::build_hybrid_system(m);
  const double a = 2.0, b = 0.5, c = 0.1, xs = 0.4, x0 = 1.0, t_end = 1.2;
  const Vector x0v = Vector::Constant(1, x0);
  const FlowMapSensitivity s =
      expect_matches_differences(sys, m->initial_mode, x0v, t_end, m->options, 1);
  ASSERT_TRUE(s.ok());
  // x(t) = (xs + c/b) exp(-b (t - t1)) - c/b, t1 = ln(x0/xs)/a: dx/dx0 = b (x + c/b) / (a x0).
  const double t1 = std::log(x0 / xs) / a;
  const double x_end = (xs + c / b) * std::exp(-b * (t_end - t1)) - c / b;
  EXPECT_NEAR(s.flow_map_jacobian(0, 0), b * (x_end + c / b) / (a * x0), 1e-8);
  // S = f+ / f- = (b xs + c) / (a xs) for the identity reset across the switch.
  EXPECT_NEAR(s.events[0].saltation(0, 0), (b * xs + c) / (a * xs), 1e-9);
  // Past the stop, x = xe whatever x0: the Jacobian vanishes (S = 0 at the stop).
  const FlowMapSensitivity held =
      flow_map_sensitivity(sys, m->initial_mode, 0.0, x0v, 3.0, m->options);
  ASSERT_TRUE(held.ok()) << held.message;
  EXPECT_NEAR(held.flow_map_jacobian(0, 0), 0.0, 1e-12);
}

TEST(FlowMapJacobian, FilippovCrossingMatchesDifferences) {
  const auto m = load("filippov_crossing.toml");
  const HybridSystem sys = model::build_hybrid_system(m);
  expect_matches_differences(sys, m->initial_mode, m->initial_state(), m->t_end, m->options, 1);
}

TEST(FlowMapJacobian, TerminalSectionGivesThePoincareMapDerivative) {
  // Harmonic oscillator x'' = -x from (1, 0) to the section x = 0 (falling, terminal): the hit
  // state is (0, -r) with r = |x0|; along the section d v_hit / d(x0, v0) = -(x0, v0)/r and
  // d x_hit = 0.
  HybridSystem sys;
  const ModeId m = sys.add_mode("spring", ode_flow(2, [](const auto&, const auto& x, auto& xd) {
                                  xd[0] = x[1];
                                  xd[1] = -x[0];
                                }));
  sys.add_guard(m, make_observer(
                       "section", Direction::Falling,
                       [](const auto&, const auto& x, const auto&) { return x[0]; },
                       /*terminal=*/true));
  Vector x0(2);
  x0 << 1.0, 0.3;
  const FlowMapSensitivity s =
      flow_map_sensitivity(sys, m, 0.0, x0, 10.0, differentiation_options());
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_EQ(s.run.termination(), Termination::TerminalEvent);
  const double r = x0.norm();
  Matrix expected(2, 2);
  expected << 0.0, 0.0, -x0[0] / r, -x0[1] / r;
  EXPECT_LE(relative_difference(s.flow_map_jacobian, expected), 1e-9) << s.flow_map_jacobian;
}

TEST(FlowMapJacobian, GrazingIsAStatusNotANaN) {
  // A guard x = 0.5 touched at the apex of x'' = -1 (x = 0.5, v = 0): P_x f- = 0.
  HybridSystem sys;
  const ModeId m = sys.add_mode("flight", ode_flow(2, [](const auto&, const auto& x, auto& xd) {
                                  xd[0] = x[1];
                                  xd[1] = -1.0;
                                }));
  sys.add_guard(m, make_guard(
                       "ceiling", Direction::Rising,
                       [](const auto&, const auto& x, const auto&) { return x[0] - 0.5; },
                       Reset::to_ad(m, [](const auto&, const auto& x, const auto&, auto& xp) {
                         xp[0] = x[0];
                         xp[1] = -x[1];
                       })));
  EventLog log;
  EventRecord r;
  r.t = 1.0;
  r.j = 1;
  r.mode_before = r.mode_after = m;
  r.guard = 0;
  const Vector apex = (Vector(2) << 0.5, 0.0).finished();
  log.add(r, apex, Vector(), apex, Vector());
  const Saltation s = event_saltation(sys, log, 0, false);
  EXPECT_EQ(s.status, SensitivityStatus::Grazing);
  EXPECT_NE(s.message.find("grazing"), std::string::npos) << s.message;
  EXPECT_EQ(s.matrix.size(), 0);
  EXPECT_EQ(s.crossing_rate, 0.0);
  // Slightly off the apex the crossing is transversal again and S is finite.
  log.clear();
  const Vector near = (Vector(2) << 0.5, 1e-3).finished();
  log.add(r, near, Vector(), near, Vector());
  const Saltation ok = event_saltation(sys, log, 0, false);
  ASSERT_EQ(ok.status, SensitivityStatus::Ok) << ok.message;
  EXPECT_TRUE(ok.matrix.allFinite());
}

TEST(FlowMapJacobian, GuardWithoutGradientIsNotDifferentiatedByDefault) {
  // The ball's floor as a hand-written guard with a value only: refused, naming the guard; with
  // central differences allowed, det S = e^2 (v -> -e v at x = 0 under x'' = -g).
  const double e = 0.7;
  HybridSystem sys;
  const ModeId m = sys.add_mode("flight", ode_flow(2, [](const auto&, const auto& x, auto& xd) {
                                  xd[0] = x[1];
                                  xd[1] = -9.81;
                                }));
  Guard floor;
  floor.name = "floor";
  floor.direction = Direction::Rising;
  floor.value = [](double, ConstVectorRef x, ConstVectorRef) { return -x[0]; };
  floor.reset = Reset::to_ad(m, [e](const auto&, const auto& x, const auto&, auto& xp) {
    xp[0] = x[0];
    xp[1] = -e * x[1];
  });
  sys.add_guard(m, floor);
  const Vector x0 = (Vector(2) << 1.0, 0.0).finished();
  const FlowMapSensitivity refused =
      flow_map_sensitivity(sys, m, 0.0, x0, 0.6, differentiation_options());
  EXPECT_EQ(refused.status, SensitivityStatus::NotDifferentiable);
  EXPECT_NE(refused.message.find("guard 'floor'"), std::string::npos) << refused.message;
  EXPECT_NE(refused.message.find("no gradient"), std::string::npos) << refused.message;
  EXPECT_EQ(refused.flow_map_jacobian.size(), 0);
  SaltationOptions allowed;
  allowed.allow_numerical_derivatives = true;
  const FlowMapSensitivity s =
      flow_map_sensitivity(sys, m, 0.0, x0, 0.6, differentiation_options(), Vector(), allowed);
  ASSERT_TRUE(s.ok()) << s.message;
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_TRUE(s.events[0].numerical_reset_jacobian);
  EXPECT_NEAR(s.events[0].hybrid_jacobian, e * e, 1e-8);
}

}  // namespace
}  // namespace saltus::analysis
