// Closed contacts with Coulomb stick-slip ([LB] (2.9)-(2.10) for one contact) through
// LagrangianModel::compile() and the simulator: a block on an incline against its closed forms
// (stop time v0/(g (mu cos a - sin a)), stop position, sticking when tan a < mu, sliding on when
// tan a > mu, slip reversal uphill, slip onset under a growing push), lift-off from a cylinder
// at cos theta = (v0^2/(g R) + 2)/3 (what_N from the gap's curvature), and the Painleve rod
// (FORMULAS.md 11; painleve.rod.contact_lcp oracles) ending the run with a clear error.
//
// Tolerances: Dop853 at rtol 1e-12; the block's motion is polynomial in t, so the located event
// times are exact to the root finder's bracket (a few ulps): compared at rel 1e-11.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "lagrangian_test_models.hpp"
#include "saltus/core/error.hpp"
#include "saltus/sim/simulator.hpp"
#include "support/oracles.hpp"

namespace saltus::mech {
namespace {

using saltus::testing::oracle_cases;
using saltus::testing::oracle_near;
using saltus::testing::oracle_tolerance;
using testing::incline_block_model;
using testing::incline_state;
using testing::painleve_rod_model;
using testing::tight_options;

constexpr double kPi = 3.141592653589793238462643383279502884;
constexpr double kG = 9.81;

const std::string& guard_of(const HybridSystem& sys, const EventRecord& ev) {
  static const std::string zeno = "zeno-handover";
  return ev.guard == kZenoHandoverGuard ? zeno : sys.mode(ev.mode_before).guards[ev.guard].name;
}

// Tangential coordinate and speed of the block's state.
double along_slope(double a, const Vector& x) {
  return std::cos(a) * x[0] + std::sin(a) * x[1];
}
double speed_along_slope(double a, const Vector& x) {
  return std::cos(a) * x[2] + std::sin(a) * x[3];
}

ContactImpactLaw friction(double mu) {
  return {ImpactLawKind::RouthPoisson, 0.0, 0.0, mu};
}

// tan a < mu, sliding downhill: stops at t* = v0/(g (mu cos a - sin a)) after
// v0^2/(2 g (mu cos a - sin a)) and stays stuck; forces m g cos a, m g sin a.
TEST(ClosedContactFriction, BlockSlidingDownStopsAtAnalyticTimeAndSticks) {
  const double a = 20.0 * kPi / 180.0, mu = 0.5, m = 2.0, v0 = 2.0;
  const LagrangianModel block = incline_block_model(m, kG, a, friction(mu));
  const auto c = block.compile();
  const Vector x0 = incline_state(a, 0.0, -v0);
  ASSERT_EQ(c.initial_mode(0.0, x0), c.slip_negative[0]);
  EXPECT_EQ(c.system.mode(c.slip_negative[0]).name, "slip-:base");
  // While sliding: lambda_N = m g cos a, lambda_T = +mu lambda_N (friction points uphill).
  const ContactDynamics d =
      block.dynamics(c.modes[c.slip_negative[0]], 0.0, x0.head(2), x0.tail(2));
  EXPECT_NEAR(d.lambda_N, m * kG * std::cos(a), 1e-12);
  EXPECT_NEAR(d.lambda_T, mu * m * kG * std::cos(a), 1e-12);

  const double decel = kG * (mu * std::cos(a) - std::sin(a));
  const double t_stop = v0 / decel, s_stop = -v0 * v0 / (2.0 * decel);
  const SimulationResult r =
      simulate(c.system, c.slip_negative[0], 0.0, x0, 3.0 * t_stop, tight_options());
  ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  ASSERT_EQ(r.events.size(), 1) << r.summary.message;
  EXPECT_EQ(guard_of(c.system, r.events[0]), "stick:base");
  EXPECT_EQ(r.events[0].mode_after, c.stick[0]);
  EXPECT_NEAR(r.events[0].t, t_stop, 1e-11 * t_stop);
  EXPECT_NEAR(along_slope(a, r.events.x_after(0)), s_stop, 1e-11 * std::abs(s_stop));
  // Stuck: position kept, no drift off the incline, stick forces inside the cone.
  EXPECT_EQ(r.final_mode, c.stick[0]);
  EXPECT_NEAR(along_slope(a, r.x_final), s_stop, 1e-11 * std::abs(s_stop));
  EXPECT_NEAR(speed_along_slope(a, r.x_final), 0.0, 1e-12);
  EXPECT_NEAR(block.gap(0, r.x_final.head(2)), 0.0, 1e-12);
  const ContactDynamics st =
      block.dynamics(c.modes[c.stick[0]], r.t_final, r.x_final.head(2), r.x_final.tail(2));
  EXPECT_NEAR(st.lambda_N, m * kG * std::cos(a), 1e-10);
  EXPECT_NEAR(st.lambda_T, m * kG * std::sin(a), 1e-10);
  EXPECT_NEAR(st.qddot.norm(), 0.0, 1e-12);
}

// tan a > mu: no stop; s_T(t) = -v0 t - g (sin a - mu cos a) t^2 / 2. Released at rest it slips
// downhill at once (initial_mode: stick forces outside the cone, s = -sign(lambda_T)).
TEST(ClosedContactFriction, BlockKeepsSlidingWhenTanAExceedsMu) {
  const double a = 30.0 * kPi / 180.0, mu = 0.3, m = 1.0, v0 = 1.0, T = 2.0;
  const LagrangianModel block = incline_block_model(m, kG, a, friction(mu));
  const auto c = block.compile();
  const Vector x0 = incline_state(a, 0.0, -v0);
  const SimulationResult r =
      simulate(c.system, c.initial_mode(0.0, x0), 0.0, x0, T, tight_options());
  ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  EXPECT_EQ(r.events.size(), 0);
  EXPECT_EQ(r.final_mode, c.slip_negative[0]);
  const double acc = kG * (std::sin(a) - mu * std::cos(a));
  EXPECT_NEAR(along_slope(a, r.x_final), -v0 * T - 0.5 * acc * T * T, 1e-11 * (v0 * T));
  EXPECT_NEAR(speed_along_slope(a, r.x_final), -v0 - acc * T, 1e-11);
  EXPECT_EQ(c.initial_mode(0.0, incline_state(a, 0.0, 0.0)), c.slip_negative[0]);
  // With tan a < mu the block released at rest sticks.
  const auto held = incline_block_model(m, kG, a, friction(0.7)).compile();
  EXPECT_EQ(held.initial_mode(0.0, incline_state(a, 0.0, 0.0)), held.stick[0]);
}

// Sliding uphill with tan a > mu: stops at t1 = v0/(g (sin a + mu cos a)), the stick forces lie
// outside the cone, and the slip reverses: s_T = s1 - g (sin a - mu cos a) (t - t1)^2 / 2.
TEST(ClosedContactFriction, BlockSlidingUpReversesWhenTanAExceedsMu) {
  const double a = 30.0 * kPi / 180.0, mu = 0.3, m = 1.0, v0 = 2.0;
  const LagrangianModel block = incline_block_model(m, kG, a, friction(mu));
  const auto c = block.compile();
  const Vector x0 = incline_state(a, 0.0, v0);
  ASSERT_EQ(c.initial_mode(0.0, x0), c.slip_positive[0]);
  const double up = kG * (std::sin(a) + mu * std::cos(a));
  const double down = kG * (std::sin(a) - mu * std::cos(a));
  const double t1 = v0 / up, s1 = v0 * v0 / (2.0 * up), T = 3.0 * t1;
  const SimulationResult r = simulate(c.system, c.slip_positive[0], 0.0, x0, T, tight_options());
  ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  ASSERT_EQ(r.events.size(), 1);
  EXPECT_EQ(guard_of(c.system, r.events[0]), "stick:base");
  EXPECT_EQ(r.events[0].mode_after, c.slip_negative[0]);  // reversal, not stick
  EXPECT_NEAR(r.events[0].t, t1, 1e-11 * t1);
  EXPECT_NEAR(along_slope(a, r.events.x_after(0)), s1, 1e-11 * s1);
  EXPECT_EQ(r.final_mode, c.slip_negative[0]);
  EXPECT_NEAR(along_slope(a, r.x_final), s1 - 0.5 * down * (T - t1) * (T - t1), 1e-10 * s1);
}

// Sliding uphill with tan a < mu: stops at v0/(g (sin a + mu cos a)) and sticks.
TEST(ClosedContactFriction, BlockSlidingUpSticksWhenTanABelowMu) {
  const double a = 20.0 * kPi / 180.0, mu = 0.5, m = 1.0, v0 = 2.0;
  const auto c = incline_block_model(m, kG, a, friction(mu)).compile();
  const double t1 = v0 / (kG * (std::sin(a) + mu * std::cos(a)));
  const SimulationResult r =
      simulate(c.system, c.slip_positive[0], 0.0, incline_state(a, 0.0, v0), 2.0, tight_options());
  ASSERT_EQ(r.events.size(), 1) << r.summary.message;
  EXPECT_EQ(r.events[0].mode_after, c.stick[0]);
  EXPECT_NEAR(r.events[0].t, t1, 1e-11 * t1);
  EXPECT_EQ(r.final_mode, c.stick[0]);
}

// Stick -> slip: a block held on the incline (tan a < mu) pushed uphill by F(t) = k t slips when
// F - m g sin a reaches mu m g cos a, at t_s = m g (sin a + mu cos a)/k; then
// s_T = k (t - t_s)^3 / (6 m) (the acceleration starts from zero).
TEST(ClosedContactFriction, GrowingPushStartsSlipAtTheConeEdge) {
  const double a = 20.0 * kPi / 180.0, mu = 0.5, m = 1.5, k = 10.0;
  LagrangianModel block = incline_block_model(m, kG, a, friction(mu));
  const double ca = std::cos(a), sa = std::sin(a);
  block.set_forces([m, k, ca, sa](const auto& t, const auto&, const auto&, auto& h) {
    h[0] = k * t * ca;
    h[1] = k * t * sa - m * kG;
  });
  const auto c = block.compile();
  const Vector x0 = incline_state(a, 0.0, 0.0);
  ASSERT_EQ(c.initial_mode(0.0, x0), c.stick[0]);
  const double t_s = m * kG * (sa + mu * ca) / k, T = t_s + 0.5;
  const SimulationResult r = simulate(c.system, c.stick[0], 0.0, x0, T, tight_options());
  ASSERT_EQ(r.events.size(), 1) << r.summary.message;
  EXPECT_EQ(guard_of(c.system, r.events[0]), "slip+:base");
  EXPECT_EQ(r.events[0].mode_after, c.slip_positive[0]);
  EXPECT_NEAR(r.events[0].t, t_s, 1e-11 * t_s);
  EXPECT_EQ(r.final_mode, c.slip_positive[0]);
  const double dt = T - t_s;
  EXPECT_NEAR(along_slope(a, r.x_final), k * dt * dt * dt / (6.0 * m), 1e-10);
}

// A particle sliding without friction over a cylinder of radius R (gap sqrt(x^2+y^2) - R, whose
// curvature enters through what_N) leaves it at cos theta = (v0^2/(g R) + 2)/3.
TEST(ClosedContactFriction, ParticleLeavesCylinderAtAnalyticAngle) {
  const double R = 1.0, v0 = 1.2, m = 0.5;
  LagrangianModel p("cylinder", 2);
  p.set_mass_matrix([m](const auto&, auto& M) {
    M(0, 0) = m;
    M(1, 1) = m;
  });
  p.set_forces([m](const auto&, const auto&, const auto&, auto& h) { h[1] = -m * kG; });
  p.add_contact(
      "surface", "particle",
      [R](const auto& q) {
        using std::sqrt;
        return sqrt(q[0] * q[0] + q[1] * q[1]) - R;
      },
      ContactImpactLaw{ImpactLawKind::NewtonFrictionless, 0.5, 0.0, 0.0});
  const auto c = p.compile();
  Vector x0(4);
  x0 << 0.0, R, v0, 0.0;
  ASSERT_EQ(c.initial_mode(0.0, x0), c.closed[0]);
  EXPECT_NEAR(p.normal_force(0, 0.0, x0.head(2), x0.tail(2)), m * (kG - v0 * v0 / R), 1e-12);
  const SimulationResult r = simulate(c.system, c.closed[0], 0.0, x0, 1.0, tight_options());
  ASSERT_GE(r.events.size(), 1) << r.summary.message;
  EXPECT_EQ(guard_of(c.system, r.events[0]), "lift-off:surface");
  const Vector xl = r.events.x_before(0);
  const double cos_theta = xl[1] / std::hypot(xl[0], xl[1]);
  EXPECT_NEAR(cos_theta, (v0 * v0 / (kG * R) + 2.0) / 3.0, 1e-10);
  EXPECT_NEAR(std::hypot(xl[0], xl[1]), R, 1e-11);
}

// ---------------------------------------------------------------- Painleve

// Rod state with the tip on the ground, v_n = 0, tip sliding with v_t = s, angular rate omega.
Vector painleve_rod_state(double l, double theta, double omega, double v_t) {
  Vector x(6);
  x << 0.0, l * std::sin(theta), theta, v_t - l * std::sin(theta) * omega,
      l * std::cos(theta) * omega, omega;
  return x;
}

// B and b of FORMULAS.md 11.1 from the model's kinematics (AD gradients, jets) against the
// painleve.rod.contact_lcp oracle: B by sliding_coefficient, b = -lambda_N B from the slip mode.
TEST(Painleve, SlidingCoefficientMatchesOracle) {
  const auto cases = oracle_cases("painleve.rod.contact_lcp");
  ASSERT_FALSE(cases.empty());
  for (const auto& oc : cases) {
    const auto& p = oc["parameters"];
    const std::string id = oc["id"];
    const double m = p["m"], l = p["l"], J = p["J"], g = p["g"], mu = p["mu"],
                 s = p["slip_direction_s"];
    const double theta = double(p["theta_deg"]) * kPi / 180.0, omega = p["thetadot"];
    const LagrangianModel rod = painleve_rod_model(m, l, J, g, friction(mu));
    const Vector x = painleve_rod_state(l, theta, omega, s);
    const auto tol = oracle_tolerance(oc);
    const double B = rod.sliding_coefficient(0, x.head(3), x.tail(3), s);
    EXPECT_TRUE(oracle_near(id + " B", B, oc["expected"]["B"], tol));
    const LagrangianMode slip{0, s > 0 ? ClosedKind::SlipPositive : ClosedKind::SlipNegative, 0};
    const ContactDynamics d = rod.dynamics(slip, 0.0, x.head(3), x.tail(3));
    EXPECT_NEAR(d.B, B, 1e-15);
    EXPECT_TRUE(oracle_near(id + " b", -d.lambda_N * B, oc["expected"]["b"], {1e-12, 1e-12}));
    const auto sols = oc["expected"]["lambda_N_solutions"].get<std::vector<double>>();
    if (B > 0.0 && !sols.empty() && sols[0] > 0.0) {
      EXPECT_TRUE(oracle_near(id + " lambda_N", d.lambda_N, sols[0], tol));
    }
  }
}

// The number after `key` in `text` (NaN if absent).
double number_after(const std::string& text, const std::string& key) {
  const size_t at = text.find(key);
  if (at == std::string::npos) return kNaN;
  return std::stod(text.substr(at + key.size()));
}

const auto& paradox_case() {
  static const auto c = saltus::testing::oracle_case("painleve_rod_lcp_th63.43_om0_s-1_mu1.5");
  return c;
}

// Starting to slide where B = -0.2 < 0 (th = 63.43 deg, s = -1, mu = 1.5): initial_mode throws
// the Painleve error; a run started in the slip mode anyway is refused by the "painleve:tip"
// guard (initial state on its trigger side, p = -B + 1e-9 a = 0.2 + 1.6e-9: the guard fires at
// B = 1e-9 a, a = w_N^T M^-1 w_N = 1/m + l^2 cos^2 th / J, so that a dynamic jam is reached).
TEST(Painleve, StartingToSlideInAParadoxIsRefused) {
  const auto& p = paradox_case()["parameters"];
  const double l = p["l"], mu = p["mu"], B = paradox_case()["expected"]["B"];
  const double theta = double(p["theta_deg"]) * kPi / 180.0;
  const LagrangianModel rod = painleve_rod_model(p["m"], l, p["J"], p["g"], friction(mu));
  const auto c = rod.compile();
  const Vector x0 = painleve_rod_state(l, theta, 0.0, -1.0);
  try {
    c.initial_mode(0.0, x0);
    ADD_FAILURE() << "no Painleve error";
  } catch (const Error& err) {
    const std::string msg = err.what();
    EXPECT_NE(msg.find("model 'painleve_rod', body 'rod', contact 'tip'"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("Painleve situation at t = 0"), std::string::npos) << msg;
    EXPECT_NEAR(number_after(msg, "(w_N - mu s w_T) = "), B, 1e-12) << msg;
    EXPECT_NEAR(number_after(msg, "critical mu at this configuration "), 4.0 / 3.0, 1e-9) << msg;
  }
  const SimulationResult r = simulate(c.system, c.slip_negative[0], 0.0, x0, 1.0, tight_options());
  EXPECT_EQ(r.termination(), Termination::InvalidInput);
  EXPECT_NE(r.summary.message.find("guard 'painleve:tip'"), std::string::npos) << r.summary.message;
  const double a =
      1.0 / double(p["m"]) + l * l * std::cos(theta) * std::cos(theta) / double(p["J"]);
  EXPECT_NEAR(number_after(r.summary.message, "(p = "), -B + 1e-9 * a, 1e-12) << r.summary.message;
}

// A plastic impact (Chatterjee-Ruina, e = 0, e_t = -1: the frictionless plastic impulse) leaves
// the rod sliding with s = -1 at theta = 63.43 deg where B = -0.2: the run ends with the
// Painleve error naming contact, time and B, instead of a silent continuation.
TEST(Painleve, PlasticImpactIntoAParadoxEndsTheRunWithAStatus) {
  const auto& p = paradox_case()["parameters"];
  const double l = p["l"], theta = double(p["theta_deg"]) * kPi / 180.0;
  const LagrangianModel rod = painleve_rod_model(p["m"], l, p["J"], p["g"],
                                                 {ImpactLawKind::ChatterjeeRuina, 0.0, -1.0, 1.5});
  const auto c = rod.compile();
  Vector x0(6);
  x0 << 0.0, l * std::sin(theta) + 0.05, theta, -3.0, -1.0, 0.0;  // tip 5 cm up, sliding in -x
  const double t_hit = (-1.0 + std::sqrt(1.0 + 2.0 * kG * 0.05)) / kG;
  // A status, not an exception: the run keeps what it computed (issue 9).
  const SimulationResult r = simulate(c.system, c.free, 0.0, x0, 1.0, tight_options());
  ASSERT_EQ(r.termination(), Termination::ResetFailed) << r.summary.message;
  const std::string& msg = r.summary.message;
  EXPECT_NE(msg.find("contact 'tip'"), std::string::npos) << msg;
  EXPECT_NEAR(number_after(msg, "Painleve situation at t = "), t_hit, 1e-10) << msg;
  EXPECT_NEAR(r.t_final, t_hit, 1e-10);
  EXPECT_NE(msg.find("sliding with s = -1"), std::string::npos) << msg;
  EXPECT_NEAR(number_after(msg, "(w_N - mu s w_T) = "), double(paradox_case()["expected"]["B"]),
              1e-12)
      << msg;
  ASSERT_EQ(r.x_final.size(), 6);  // the state where the run stopped
  EXPECT_TRUE(r.x_final.allFinite());
}

}  // namespace
}  // namespace saltus::mech
