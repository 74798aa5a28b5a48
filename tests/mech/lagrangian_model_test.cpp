// LagrangianModel compiled into a HybridSystem: the bouncing rod of seed 000 (horizontal CoM
// velocity conserved at every impact, plastic case e = 0, persistent contact after Zeno), the
// bouncing ball as a point particle (zeno.bouncing_ball, zeno.jumping_ball,
// zeno.bouncing_ball.unit_gravity oracles), one scene under every impact law, and bad input.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>

#include <cmath>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/mech/bouncing_rod.hpp"
#include "saltus/mech/collision_matrix.hpp"
#include "saltus/mech/planar_rigid_body.hpp"
#include "saltus/sim/simulator.hpp"
#include "support/oracles.hpp"
#include "support/solver_options.hpp"

namespace saltus::mech {
namespace {

using saltus::testing::oracle_cases;
using saltus::testing::oracle_near;
using saltus::testing::oracle_tolerance;

SimulationOptions tight() {
  return saltus::testing::solver_options(1e-12, 1e-14, Integrator::Dop853);
}

const std::string& guard_name(const HybridSystem& sys, const EventRecord& ev) {
  static const std::string zeno = "zeno-handover";
  return ev.guard == kZenoHandoverGuard ? zeno : sys.mode(ev.mode_before).guards[ev.guard].name;
}

TEST(LagrangianModel, RodImpactThroughModelMatchesOracle) {
  for (const auto& c : oracle_cases("rigid.frictionless_impact_map.bouncing_rod")) {
    const auto& p = c["parameters"];
    BouncingRodParameters rp;
    rp.m = p["m"];
    rp.I_c = p["I_c"];
    rp.ell = p["ell"];
    rp.law.e = p["e"];
    const LagrangianModel rod = bouncing_rod_model(rp);
    const Eigen::Vector3d q(0.0, 0.0, double(p["theta_c_deg"]) * M_PI / 180.0);
    const auto qd = p["qdot_minus"].get<std::vector<double>>();
    const auto imp = rod.resolve_impact(0, q, Eigen::Vector3d(qd[0], qd[1], qd[2]));
    const auto tol = oracle_tolerance(c);
    const auto expected = c["expected"]["qdot_plus"].get<std::vector<double>>();
    for (int i = 0; i < 3; ++i) {
      EXPECT_TRUE(
          oracle_near(c["id"].get<std::string>() + " qdot+", imp.qdot_plus[i], expected[i], tol));
    }
    EXPECT_TRUE(oracle_near("impulse", imp.planar.impulse[1], c["expected"]["impulse"], tol));
  }
}

// Seed 000: the horizontal velocity of the centre of mass is unchanged by every impact (and
// by the flight); the rod ends sliding and rotating on its tip after the Zeno point.
TEST(LagrangianModel, BouncingRodConservesHorizontalComVelocity) {
  BouncingRodParameters p;
  p.law.e = 0.6;
  const LagrangianModel rod = bouncing_rod_model(p);
  const auto compiled = rod.compile();
  Vector x0(6);
  x0 << 0.0, 0.3, 0.9, 0.4, 0.0, 0.0;  // tip 0.3 m up, axis 0.9 rad, sliding at 0.4 m/s
  rod.check_configuration(x0.head(3));
  const double vc0 = bouncing_rod_com_horizontal_velocity(p.ell, x0);
  const SimulationResult r = simulate(compiled.system, compiled.free, 0.0, x0, 1.5, tight());
  ASSERT_NE(r.termination(), Termination::NonFiniteState) << r.summary.message;
  int impacts = 0;
  for (long i = 0; i < r.events.size(); ++i) {
    const EventRecord& ev = r.events[i];
    if (guard_name(compiled.system, ev) != "impact:tip") continue;
    ++impacts;
    const Vector before = r.events.x_before(i), after = r.events.x_after(i);
    EXPECT_NEAR(bouncing_rod_com_horizontal_velocity(p.ell, before), vc0, 1e-10) << "impact " << i;
    EXPECT_NEAR(bouncing_rod_com_horizontal_velocity(p.ell, after), vc0, 1e-10) << "impact " << i;
    EXPECT_NEAR(after[4], -p.law.e * before[4], 1e-12 * (1 + std::abs(before[4])));
    // The reset reports the impact law's impulse and energy change with the event.
    const auto out = r.events.outputs(i);
    ASSERT_EQ(out.size(), 3);
    EXPECT_GT(out[1], 0.0) << "normal impulse pushes out of the ground";
    const Vector q = before.head(3);
    const double dT = rod.kinetic_energy(q, after.tail(3)) - rod.kinetic_energy(q, before.tail(3));
    EXPECT_NEAR(out[2], dT, 1e-12 * (1 + std::abs(dT)));
  }
  EXPECT_GE(impacts, 3);
}

// Plastic impact e = 0: only the tip's normal velocity is stopped; the rod keeps sliding and
// rotating on its tip in the closed-contact mode (seed 000, "plastic collision").
TEST(LagrangianModel, BouncingRodPlasticImpactClosesContact) {
  BouncingRodParameters p;
  p.law.e = 0.0;
  const LagrangianModel rod = bouncing_rod_model(p);
  const auto compiled = rod.compile();
  Vector x0(6);
  x0 << 0.0, 0.2, 0.8, 0.3, 0.0, 0.5;
  const SimulationResult r = simulate(compiled.system, compiled.free, 0.0, x0, 0.5, tight());
  ASSERT_GE(r.events.size(), 1) << r.summary.message;
  const EventRecord& first = r.events[0];
  EXPECT_EQ(guard_name(compiled.system, first), "impact:tip");
  EXPECT_EQ(first.mode_after, compiled.closed[0]);
  const Vector after = r.events.x_after(0);
  EXPECT_NEAR(after[4], 0.0, 1e-15);
  EXPECT_GT(std::abs(after[3]) + std::abs(after[5]), 0.1);  // kinetic energy remains
  EXPECT_LT(rod.kinetic_energy(after.head(3), after.tail(3)),
            rod.kinetic_energy(r.events.x_before(0).head(3), r.events.x_before(0).tail(3)));
  // In the closed mode the tip stays on the ground while the normal force is positive.
  const Vector xf = r.x_final;
  if (r.final_mode == compiled.closed[0]) {
    EXPECT_NEAR(xf[1], 0.0, 1e-9);
    EXPECT_NEAR(xf[4], 0.0, 1e-9);
  }
  EXPECT_NEAR(bouncing_rod_com_horizontal_velocity(p.ell, after),
              bouncing_rod_com_horizontal_velocity(p.ell, x0), 1e-12);
}

// The ball of seed 000 as a point particle with frictionless Newton restitution: impact times,
// velocities and t_inf from the oracle file; after the Zeno point it rests with lambda_N = m g.
TEST(LagrangianModel, BouncingBallZenoOracles) {
  for (const auto& c : oracle_cases("zeno.bouncing_ball")) {
    const auto& p = c["parameters"];
    const double g = p["g"], m = 1.0;
    const LagrangianModel ball =
        point_particle_model(m, g, {ImpactLawKind::NewtonFrictionless, p["e"], 0.0, 0.0});
    const auto compiled = ball.compile();
    Vector x0(4);
    x0 << 0.0, p["h0"], 0.0, p["ydot0"];
    const double t_inf = c["expected"]["t_inf"];
    const SimulationResult r =
        simulate(compiled.system, compiled.free, 0.0, x0, t_inf + 1.0, tight());
    ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
    const auto tol = oracle_tolerance(c);
    const auto times = c["expected"]["impact_times"].get<std::vector<double>>();
    const auto v_plus = c["expected"]["post_impact_velocity"].get<std::vector<double>>();
    for (size_t i = 0; i < times.size(); ++i) {
      const long k = static_cast<long>(i);
      EXPECT_TRUE(oracle_near(c["id"].get<std::string>() + " t", r.events[k].t, times[i], tol));
      EXPECT_TRUE(oracle_near("v+", r.events.x_after(k)[3], v_plus[i], tol));
    }
    EXPECT_TRUE(oracle_near("t_inf", r.summary.zeno_time, t_inf, tol));
    EXPECT_EQ(r.final_mode, compiled.closed[0]);
    EXPECT_NEAR(ball.normal_force(0, r.t_final, r.x_final.head(2), r.x_final.tail(2)), m * g, 1e-9);
  }
}

TEST(LagrangianModel, JumpingAndUnitGravityBallOracles) {
  for (const auto& c : oracle_cases("zeno.jumping_ball")) {
    const auto& p = c["parameters"];
    const LagrangianModel ball =
        point_particle_model(1.0, p["g"], {ImpactLawKind::NewtonFrictionless, p["k"], 0.0, 0.0});
    const auto compiled = ball.compile();
    Vector x0(4);
    x0 << 0.0, p["x0"], 0.0, p["v0"];
    const auto times = c["expected"]["impact_times"].get<std::vector<double>>();
    const SimulationResult r =
        simulate(compiled.system, compiled.free, 0.0, x0, times.back() + 1e-6, tight());
    ASSERT_GE(r.events.size(), static_cast<long>(times.size())) << r.summary.message;
    for (size_t i = 0; i < times.size(); ++i) {
      EXPECT_TRUE(oracle_near(c["id"].get<std::string>() + " t", r.events[static_cast<long>(i)].t,
                              times[i], oracle_tolerance(c)));
    }
  }
  for (const auto& c : oracle_cases("zeno.bouncing_ball.unit_gravity")) {
    const auto& p = c["parameters"];
    const LagrangianModel ball = point_particle_model(
        1.0, p["g"], {ImpactLawKind::NewtonFrictionless, p["alpha"], 0.0, 0.0});
    const auto compiled = ball.compile();
    Vector x0(4);
    x0 << 0.0, p["y0"], 0.0, p["ydot0"];  // on the ground, leaving it
    // Past the case's own Zeno time, whatever it is.
    const double horizon = 2.0 * double(c["expected"]["t_zeno"]) + 1.0;
    const SimulationResult r = simulate(compiled.system, compiled.free, 0.0, x0, horizon, tight());
    const auto times = c["expected"]["impact_times"].get<std::vector<double>>();
    ASSERT_GE(r.events.size(), static_cast<long>(times.size())) << r.summary.message;
    for (size_t i = 0; i < times.size(); ++i) {
      EXPECT_TRUE(oracle_near(c["id"].get<std::string>() + " t", r.events[static_cast<long>(i)].t,
                              times[i], oracle_tolerance(c)));
    }
    EXPECT_TRUE(
        oracle_near("t_zeno", r.summary.zeno_time, c["expected"]["t_zeno"], oracle_tolerance(c)));
  }
}

// One scene (a rod-like body dropped on its corner with spin and sliding) under every law: the
// first impact's qdot+ is the law's planar solution applied through M^-1 W.
TEST(LagrangianModel, OneSceneUnderEveryLaw) {
  PlanarRigidBodyParameters p;
  Vector x0(6);
  x0 << 0.0, 1.5, 0.1, 1.5, -1.0, 0.5;
  for (ImpactLawKind kind : all_impact_laws()) {
    p.law = {kind, 0.7, 0.2, 0.4};
    const LagrangianModel body = planar_rigid_body_model(p);
    const auto compiled = body.compile();
    SimulationOptions o = tight();
    o.output.record_events = true;
    const SimulationResult r = simulate(compiled.system, compiled.free, 0.0, x0, 0.5, o);
    ASSERT_GE(r.events.size(), 1) << to_string(kind) << ": " << r.summary.message;
    const Vector xb = r.events.x_before(0), xa = r.events.x_after(0);
    const Vector q = xb.head(3), qd = xb.tail(3);
    EXPECT_NEAR(body.gap(0, q), 0.0, 1e-12);
    const Vector w_N = body.gap_gradient(0, q), w_T = body.tangent_gradient(0, q);
    const Eigen::Matrix2d A = collision_matrix(body.mass_matrix(q), w_T, w_N);
    const auto direct = solve_planar_impact({A, {w_T.dot(qd), w_N.dot(qd)}}, p.law);
    Vector expected = qd;
    if (kind == ImpactLawKind::NewtonFrictionless) {
      expected += body.mass_matrix(q).llt().solve(w_N) * direct.impulse[1];
    } else {
      expected +=
          body.mass_matrix(q).llt().solve(w_T * direct.impulse[0] + w_N * direct.impulse[1]);
    }
    EXPECT_NEAR((xa.tail(3) - expected).norm(), 0.0, 1e-12) << to_string(kind);
  }
}

// ---------------------------------------------------------------- bad input

TEST(LagrangianModelBadInput, InvalidCoefficientsNameBodyContactAndValue) {
  BouncingRodParameters p;
  p.law.e = -0.2;
  try {
    bouncing_rod_model(p).compile();
    ADD_FAILURE();
  } catch (const Error& err) {
    const std::string msg = err.what();
    EXPECT_NE(msg.find("body 'rod'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("contact 'tip'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("e = -0.2"), std::string::npos) << msg;
  }
  p.law = {ImpactLawKind::RouthStronge, 0.5, 0.0, -1.0};
  EXPECT_THROW(bouncing_rod_model(p).compile(), Error);
  p.law = {ImpactLawKind::ChatterjeeRuina, 0.5, 1.5, 0.3};
  EXPECT_THROW(bouncing_rod_model(p).compile(), Error);
  // A frictional law needs a tangential coordinate.
  LagrangianModel m("no_tangent", 1);
  m.set_mass_matrix([](const auto&, auto& M) { M(0, 0) = 1.0; });
  m.set_forces([](const auto&, const auto&, const auto&, auto& h) { h[0] = -1.0; });
  m.add_contact(
      "c", "b", [](const auto& q) { return q[0]; },
      ContactImpactLaw{ImpactLawKind::RouthPoisson, 0.5, 0.0, 0.2});
  EXPECT_THROW(m.compile(), Error);
}

// M(q) = diag(m, m, I cos(theta)) loses definiteness at theta = pi/2: reported during the run.
TEST(LagrangianModelBadInput, MassMatrixNotSpdDuringRun) {
  LagrangianModel m("bad_inertia", 3);
  m.set_mass_matrix([](const auto& q, auto& M) {
    using std::cos;
    M(0, 0) = 1.0;
    M(1, 1) = 1.0;
    M(2, 2) = 0.1 * cos(q[2]);
  });
  m.set_forces([](const auto&, const auto&, const auto&, auto& h) { h[1] = -9.81; });
  m.add_contact(
      "c", "b", [](const auto& q) { return q[1]; }, ContactImpactLaw{});
  const auto compiled = m.compile();
  Vector x0(6);
  x0 << 0.0, 5.0, 1.4, 0.0, 0.0, 2.0;  // theta passes pi/2 at t ~ 0.085
  EXPECT_NO_THROW(m.check_configuration(x0.head(3)));
  // A status naming the model and q, with the run up to the failure kept (issue 9).
  const SimulationResult r = simulate(compiled.system, compiled.free, 0.0, x0, 1.0);
  ASSERT_EQ(r.termination(), Termination::ModelError) << r.summary.message;
  const std::string& msg = r.summary.message;
  EXPECT_NE(msg.find("model 'bad_inertia'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not symmetric positive definite at q"), std::string::npos) << msg;
  // theta = 1.4 + 2 t reaches pi/2 at t = 0.0854: the run ends just before.
  EXPECT_GT(r.t_final, 0.0);
  EXPECT_LT(r.t_final, (std::acos(-1.0) / 2 - 1.4) / 2.0);
}

// g_N = y^2 has a vanishing gradient on the surface: the impact cannot define a normal.
TEST(LagrangianModelBadInput, VanishingGapGradient) {
  LagrangianModel m("flat_gap", 2);
  m.set_mass_matrix([](const auto&, auto& M) {
    M(0, 0) = 1.0;
    M(1, 1) = 1.0;
  });
  m.set_forces([](const auto&, const auto&, const auto&, auto& h) { h[1] = -9.81; });
  m.add_contact(
      "floor", "ball", [](const auto& q) { return q[1] * q[1] * q[1]; }, ContactImpactLaw{});
  try {
    m.check_configuration(Eigen::Vector2d(0.0, 0.0));
    ADD_FAILURE();
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("contact 'floor'"), std::string::npos) << err.what();
    EXPECT_NE(std::string(err.what()).find("gap gradient vanishes"), std::string::npos);
  }
  EXPECT_THROW(m.resolve_impact(0, Eigen::Vector2d(0.0, 0.0), Eigen::Vector2d(0.0, -1.0)), Error);
}

}  // namespace
}  // namespace saltus::mech
