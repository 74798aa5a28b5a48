// mech::NonholonomicModel: the Lagrange-d'Alembert flow against the Chaplygin sleigh's closed
// form (FORMULAS.md 13.1) over long times, its constraint forces against Newton's law for the
// centre of mass, the disk's exact circular arcs, and the bad-input errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "json_values.hpp"
#include "saltus/core/error.hpp"
#include "saltus/sim/simulator.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"
#include "support/oracles.hpp"
#include "support/sleigh_closed_form.hpp"

namespace saltus {
namespace {

using saltus::testing::num;

using saltus::testing::SleighClosedForm;

SimulationOptions dop853(double rtol) {
  SimulationOptions o;
  o.integrator = Integrator::Dop853;
  o.stepper.rtol = rtol;
  o.stepper.atol = 1e-3 * rtol;
  return o;
}

// Until tau = 1000 (omega has decayed below 1e-400: the sleigh has turned and runs straight at V
// for hundreds of time units), on the parameters of every free-motion oracle case and two more of
// our own with negative omega and v. Error bound: 10^3 rtol of the scale (V, omega0, turn), which
// the run holds with a margin of ~10 (measured max errors in docs/VALIDATION.md).
TEST(NonholonomicSleigh, FreeMotionFollowsTheClosedFormOverLongTimes) {
  std::vector<SleighClosedForm> cases;
  for (const auto& c : saltus::testing::oracle_cases("nonholonomic.chaplygin_sleigh.free_motion")) {
    const auto& p = c["parameters"];
    cases.push_back(
        {num(p["m"]), num(p["I"]), num(p["a"]), num(p["v0"]), num(p["omega0"]), num(p["theta0"])});
  }
  ASSERT_FALSE(cases.empty());
  cases.push_back({2.0, 0.05, 0.1, -0.3, -1.5, 1.0});
  cases.push_back({0.7, 0.3, 0.5, 0.0, 3.0, -2.0});
  const double rtol = 1e-12;
  for (const SleighClosedForm& cf : cases) {
    const auto model = systems::chaplygin_sleigh({cf.m, cf.I, cf.a, 0.0});
    const Vector x0 = systems::sleigh_state(0.0, 0.0, cf.th0, cf.v0, cf.w0);
    const double t_end = (1000.0 - cf.tau(0.0)) * cf.J() / (cf.a * cf.m * cf.V());
    SimulationOptions o = dop853(rtol);
    for (int i = 1; i <= 400; ++i) o.output.sample_times.push_back(t_end * i / 400.0);
    const auto compiled = model.compile();
    const SimulationResult r =
        simulate(compiled.system, compiled.initial_mode(x0), 0.0, x0, t_end, o);
    ASSERT_TRUE(r.summary.ok()) << r.summary.message;
    const double T0 = model.kinetic_energy(x0.head(3), x0.tail(3));
    const double turn = std::abs(cf.theta(1e9) - cf.th0) + 1.0;
    double err_v = 0.0, err_w = 0.0, err_th = 0.0, err_T = 0.0, err_c = 0.0;
    for (long i = 0; i < r.trajectory.size(); ++i) {
      const double t = r.trajectory.t(i);
      const Vector x = r.trajectory.x(i).head(6);
      err_v = std::max(err_v, std::abs(systems::sleigh_speed(x) - cf.v(t)));
      err_w = std::max(err_w, std::abs(x[5] - cf.omega(t)));
      err_th = std::max(err_th, std::abs(x[2] - cf.theta(t)));
      err_T = std::max(err_T, std::abs(model.kinetic_energy(x.head(3), x.tail(3)) - T0));
      err_c = std::max(err_c, std::abs(model.constraint_values(x.head(3), x.tail(3))[0]));
    }
    const double bound = 1e3 * rtol;
    EXPECT_LT(err_v, bound * cf.V());
    EXPECT_LT(err_w, bound * std::abs(cf.w0));
    EXPECT_LT(err_th, bound * turn);
    EXPECT_LT(err_T, bound * T0);
    EXPECT_LT(err_c, bound * cf.V());
    // The limit speed V and the total turn (FORMULAS.md 13.1).
    const Vector x_end = r.x_final;
    EXPECT_NEAR(systems::sleigh_speed(x_end), cf.V(), bound * cf.V());
    EXPECT_NEAR(x_end[2] - cf.th0,
                std::copysign(1.0, cf.w0) * std::sqrt(cf.J() / cf.m) *
                    (std::numbers::pi / 2.0 - SleighClosedForm::gd(cf.tau(0.0))) / cf.a,
                bound * turn);
    RecordProperty("max_error_v_over_V", std::to_string(err_v / cf.V()));
    std::printf(
        "sleigh closed form: t_end %.3g  |dv|/V %.2e  |dw|/w0 %.2e  |dth| %.2e  |dT|/T %.2e"
        "  |eta qdot|/V %.2e\n",
        t_end, err_v / cf.V(), err_w / std::abs(cf.w0), err_th, err_T / T0, err_c / cf.V());
  }
}

// The blade's lateral force: Newton for the centre of mass gives lambda = m (v omega + a
// omegadot) = m v omega I / (I + m a^2) (FORMULAS.md 13.1); it does no work.
TEST(NonholonomicSleigh, ConstraintForceIsTheBladeForce) {
  const systems::ChaplyginSleigh s{1.3, 0.07, 0.25, 0.3};
  const auto model = systems::chaplygin_sleigh(s);
  for (double th : {-2.0, 0.3, 1.7}) {
    for (double v : {-0.8, 0.6}) {
      for (double w : {-1.1, 2.4}) {
        const Vector x = systems::sleigh_state(0.4, -0.2, th, v, w);
        const mech::NonholonomicDynamics d = model.dynamics(0.0, x.head(3), x.tail(3));
        const double expected = s.m * v * w * s.I / (s.I + s.m * s.a * s.a);
        EXPECT_NEAR(d.lambda[0], expected, 1e-14 * (1.0 + std::abs(expected)));
        EXPECT_NEAR(d.constraint_force.dot(x.tail(3)), 0.0, 1e-14 * (1.0 + std::abs(expected)));
        // Reduced equations: vdot = a omega^2, omegadot = -m a v omega / (I + m a^2).
        const double vdot = d.qddot[0] * std::cos(th) + d.qddot[1] * std::sin(th) +
                            w * (-x[3] * std::sin(th) + x[4] * std::cos(th));
        EXPECT_NEAR(vdot, s.a * w * w, 1e-14 * (1.0 + w * w));
        EXPECT_NEAR(d.qddot[2], -s.m * s.a * v * w / (s.I + s.m * s.a * s.a), 1e-13);
      }
    }
  }
}

// The free disk: thetadot, phidot constant, the contact point on a circle of radius
// R thetadot / phidot (FORMULAS.md 13.3); the rolling constraint forces keep it there.
TEST(NonholonomicDisk, FreeMotionIsACircularArc) {
  const systems::VerticalDisk disk{1.0, 0.2, 0.02, 0.01};
  const auto model = systems::vertical_disk(disk);
  const double thd = 4.0, phd = 0.7, ph0 = 0.3, t_end = 50.0;
  const Vector x0 = systems::vertical_disk_state(disk, 0.0, 0.0, 0.0, ph0, thd, phd);
  const double rtol = 1e-12;
  SimulationOptions o = dop853(rtol);
  for (int i = 1; i <= 100; ++i) o.output.sample_times.push_back(t_end * i / 100.0);
  const auto compiled = model.compile();
  const SimulationResult r =
      simulate(compiled.system, compiled.initial_mode(x0), 0.0, x0, t_end, o);
  ASSERT_TRUE(r.summary.ok()) << r.summary.message;
  const double rho = disk.R * thd / phd;
  for (long i = 0; i < r.trajectory.size(); ++i) {
    const double t = r.trajectory.t(i);
    const Vector x = r.trajectory.x(i).head(8);
    const double ph = ph0 + phd * t;
    EXPECT_NEAR(x[0], rho * (std::sin(ph) - std::sin(ph0)), 1e3 * rtol * rho);
    EXPECT_NEAR(x[1], -rho * (std::cos(ph) - std::cos(ph0)), 1e3 * rtol * rho);
    EXPECT_NEAR(x[6], thd, 1e3 * rtol * thd);
    EXPECT_NEAR(x[7], phd, 1e3 * rtol * phd);
  }
}

// Without constraint rows the model is a holonomic billiard (Theorem 3): a free particle in the
// ellipse from the centre meets the wall at t = 1 / sqrt(vx^2/A^2 + vy^2/B^2) and leaves with
// the normal velocity component reversed; every later impact keeps |qdot| and stays on the wall.
TEST(NonholonomicModel, WithoutConstraintsAParticleBilliardInAnEllipse) {
  const double A = 2.0, B = 1.0, vx = 0.8, vy = 0.45;
  mech::NonholonomicModel particle("particle", 2);
  particle.set_mass_matrix([](const auto&, auto& M) {
    M(0, 0) = 1.0;
    M(1, 1) = 1.0;
  });
  particle.add_wall("ellipse", [=](const auto& q) {
    return 1.0 - q[0] * q[0] / (A * A) - q[1] * q[1] / (B * B);
  });
  const auto compiled = particle.compile();
  Vector x0(4);
  x0 << 0.0, 0.0, vx, vy;
  const double rtol = 1e-12;
  const SimulationResult r =
      simulate(compiled.system, compiled.initial_mode(x0), 0.0, x0, 20.0, dop853(rtol));
  ASSERT_TRUE(r.summary.ok()) << r.summary.message;
  ASSERT_GE(r.events.size(), 3);
  const double t1 = 1.0 / std::sqrt(vx * vx / (A * A) + vy * vy / (B * B));
  EXPECT_NEAR(r.events[0].t, t1, 1e3 * rtol * t1);
  const Eigen::Vector2d p(vx * t1, vy * t1), n(p[0] / (A * A), p[1] / (B * B));
  const Eigen::Vector2d v(vx, vy), reflected = v - 2.0 * v.dot(n) / n.squaredNorm() * n;
  EXPECT_LT((r.events.x_after(0).tail(2) - reflected).norm(), 1e3 * rtol);
  for (long i = 0; i < r.events.size(); ++i) {
    EXPECT_NEAR(r.events.x_after(i).tail(2).norm(), v.norm(), 1e3 * rtol * v.norm());
    EXPECT_NEAR(particle.wall_value(0, r.events.x_before(i).head(2)), 0.0, 1e3 * rtol);
    EXPECT_EQ(r.events.outputs(i).size(), 3);  // epsilon, D, T+ - T-
  }
}

void expect_error(const std::function<void()>& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one containing: " << part;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(NonholonomicBadInput, ErrorsNameTheConstraintOrWallAndTheValue) {
  const systems::EllipticTable table{2.0, 1.0};
  const auto sleigh = systems::chaplygin_sleigh({1.0, 0.1, 0.3, 0.3}, table);
  const auto compiled = sleigh.compile();
  // Initial velocity across the blade: eta qdot = 1.
  Vector x = systems::sleigh_state(0.0, 0.0, 0.0, 1.0, 0.5);
  x[4] = 1.0;
  expect_error([&] { compiled.initial_mode(x); },
               "model 'chaplygin_sleigh', constraint 'blade': the initial velocity violates it: "
               "eta qdot = 1");
  // Start outside: the front end at x = 2.1.
  expect_error([&] { compiled.initial_mode(systems::sleigh_state(1.8, 0.0, 0.0, 1.0, 0.0)); },
               "model 'chaplygin_sleigh', wall 'front': the start is outside it: h = -0.1025");
  // A second blade row parallel to the first.
  auto doubled = systems::chaplygin_sleigh({1.0, 0.1, 0.3, 0.3}, table);
  doubled.add_constraint("blade_again", [](const auto& q, auto& row) {
    using std::cos, std::sin;
    row[0] = -2.0 * sin(q[2]);
    row[1] = 2.0 * cos(q[2]);
  });
  expect_error([&] { doubled.compile().initial_mode(systems::sleigh_state(0, 0, 0, 1, 0)); },
               "model 'chaplygin_sleigh', constraint 'blade_again': depends on the constraints "
               "before it");
  // The ball's Euler chart at theta = 0: M (hence every reduced metric) is singular.
  const systems::RollingBall ball{0.4, 1.0};
  const auto balls = systems::rolling_ball(ball, table).compile();
  expect_error(
      [&] { balls.initial_mode(systems::rolling_ball_state(ball, 0, 0, 0, 0, 0, 1, 0, 0)); },
      "mass matrix is not symmetric positive definite");
  // Restitution outside [0, 1].
  expect_error(
      [&] {
        systems::chaplygin_sleigh({1.0, 0.1, 0.3, 0.3}, table, 1.5).compile();
      },
      "model 'chaplygin_sleigh', wall 'front': restitution e = 1.5 is outside [0, 1]");
  // More constraint rows than the coordinates allow.
  auto crowded = systems::chaplygin_sleigh({1.0, 0.1, 0.3, 0.3});
  crowded.add_constraint("spin", [](const auto&, auto& row) { row[2] = 1.0; });
  expect_error(
      [&] { crowded.add_constraint("third", [](const auto&, auto& row) { row[0] = 1.0; }); },
      "constraint 'third': would be constraint number 3 of 3 coordinates");
}

}  // namespace
}  // namespace saltus
