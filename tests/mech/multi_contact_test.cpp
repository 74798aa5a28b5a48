// Several rigid contacts closed at once (modes of kind IndexSets, src/mech/index_set_modes.cpp):
// the box sliding on two corners, the rod landing flat and settling, stick with dependent
// tangential directions. Tolerances: Dop853 at rtol 1e-12 (tight_options) locates events to
// ~1e-12 s, so event times are checked to 1e-9 s; forces are exact solves of the mode's linear
// system, checked to 1e-9 relative.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "lagrangian_test_models.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/mech/planar_rigid_body.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::mech {
namespace {

constexpr double kG = 9.81;

// Rectangular box of half-width a, half-height b, mass m (J = m (a^2 + b^2) / 3), q = (x_G, y_G,
// theta); bottom corners at body offsets (-a, -b) "trailing" and (a, -b) "leading" on the floor
// y = 0: g_N = y + r_t sin(theta) + r_n cos(theta), s_T = x + r_t cos(theta) - r_n sin(theta).
LagrangianModel box_model(double m, double a, double b, ContactImpactLaw law) {
  LagrangianModel model("box", 3);
  set_planar_body_dynamics(model, m, m * (a * a + b * b) / 3.0, kG);
  for (const double r_t : {-a, a}) {
    const double r_n = -b;
    add_ground_point_contact(model, r_t < 0 ? "trailing" : "leading", "box", r_t, r_n, law);
  }
  return model;
}

const std::string& mode_name(const LagrangianModel::Compiled& c, ModeId id) {
  return c.system.modes()[static_cast<size_t>(id)].name;
}

// Sliding on both corners with speed v0 > 0: m xddot = -mu (lambda_1 + lambda_2), the normal
// forces balance m g, and the moments about G balance:
//   a (lambda_lead - lambda_trail) = mu b (lambda_lead + lambda_trail)
// so lambda_trail,lead = (m g / 2)(1 -/+ mu b / a) and the box stops at v0 / (mu g) after
// v0^2 / (2 mu g); then both corners stick (W_H^T M^-1 W_H singular: the two w_T are equal) with
// lambda_N = m g / 2 each and no friction.
TEST(MultiContact, BoxSlidingOnTwoCornersStopsAndSticks) {
  const double m = 2.0, a = 0.5, b = 0.25, mu = 0.4, v0 = 2.0;
  const auto model = box_model(m, a, b, {ImpactLawKind::RouthPoisson, 0.0, 0.0, mu});
  const auto c = model.compile();
  Vector x0(6);
  x0 << 0.0, b, 0.0, v0, 0.0, 0.0;
  const ModeId start = c.initial_mode(0.0, x0);
  EXPECT_EQ(mode_name(c, start), "slip+:trailing&slip+:leading");
  const ContactDynamics d0 =
      model.dynamics(c.modes[static_cast<size_t>(start)], 0.0, x0.head(3), x0.tail(3));
  const double trail = 0.5 * m * kG * (1 - mu * b / a), lead = 0.5 * m * kG * (1 + mu * b / a);
  EXPECT_NEAR(d0.lambda_N_each[0], trail, 1e-12 * m * kG);
  EXPECT_NEAR(d0.lambda_N_each[1], lead, 1e-12 * m * kG);
  EXPECT_NEAR(d0.lambda_T_each[0], -mu * trail, 1e-12 * m * kG);
  EXPECT_NEAR(d0.qddot[0], -mu * kG, 1e-12 * kG);
  EXPECT_NEAR(d0.qddot[2], 0.0, 1e-12 * kG / a);

  const double t_stop = v0 / (mu * kG);
  const SimulationResult r =
      simulate(c.system, start, 0.0, x0, 1.5 * t_stop, testing::tight_options());
  ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  ASSERT_EQ(r.events.size(), 1) << mode_name(c, r.final_mode);
  EXPECT_NEAR(r.events[0].t, t_stop, 1e-9);
  EXPECT_EQ(mode_name(c, r.final_mode), "stick:trailing&stick:leading");
  EXPECT_NEAR(r.x_final[0], v0 * v0 / (2 * mu * kG), 1e-9);
  EXPECT_LE(std::abs(r.x_final[1] - b), 1e-9);  // on the floor (drift)
  EXPECT_LE(std::abs(r.x_final[2]), 1e-9);
  EXPECT_LE(r.x_final.tail(3).lpNorm<Eigen::Infinity>(), 1e-9);
  const ContactDynamics d1 = model.dynamics(c.modes[static_cast<size_t>(r.final_mode)], r.t_final,
                                            r.x_final.head(3), r.x_final.tail(3));
  EXPECT_NEAR(d1.lambda_N_each[0], 0.5 * m * kG, 1e-9 * m * kG);
  EXPECT_NEAR(d1.lambda_N_each[1], 0.5 * m * kG, 1e-9 * m * kG);
  EXPECT_LE(std::abs(d1.lambda_T_each[0]) + std::abs(d1.lambda_T_each[1]), 1e-9 * m * kG);
  EXPECT_TRUE(d1.qddot.allFinite());
  std::printf("box on two corners: |t_stop error| = %.2e s, distance error %.2e m, |y - b| %.2e\n",
              std::abs(r.events[0].t - t_stop), std::abs(r.x_final[0] - v0 * v0 / (2 * mu * kG)),
              std::abs(r.x_final[1] - b));
}

// mu b / a > 1: the trailing corner cannot stay closed (its normal force would be negative); the
// LCP over both corners closes only the leading one.
TEST(MultiContact, TrailingCornerLiftsWhenMuBOverAExceedsOne) {
  const double m = 1.0, a = 0.2, b = 0.5, mu = 0.6, v0 = 1.0;
  ASSERT_GT(mu * b / a, 1.0);
  const auto model = box_model(m, a, b, {ImpactLawKind::RouthPoisson, 0.0, 0.0, mu});
  const auto c = model.compile();
  Vector x0(6);
  x0 << 0.0, b, 0.0, v0, 0.0, 0.0;
  EXPECT_EQ(c.initial_mode(0.0, x0), c.slip_positive[1]);
}

// A sliding box pushed nowhere stays on both corners; reversed direction: the leading corner is
// now the one at -a (mirror image of the forces).
TEST(MultiContact, BoxSlidingBackwardsMirrorsTheForces) {
  const double m = 1.0, a = 0.5, b = 0.3, mu = 0.5, v0 = 1.0;
  const auto model = box_model(m, a, b, {ImpactLawKind::RouthPoisson, 0.0, 0.0, mu});
  const auto c = model.compile();
  Vector x0(6);
  x0 << 0.0, b, 0.0, -v0, 0.0, 0.0;
  const ModeId start = c.initial_mode(0.0, x0);
  EXPECT_EQ(mode_name(c, start), "slip-:trailing&slip-:leading");
  const ContactDynamics d =
      model.dynamics(c.modes[static_cast<size_t>(start)], 0.0, x0.head(3), x0.tail(3));
  EXPECT_NEAR(d.lambda_N_each[0], 0.5 * m * kG * (1 + mu * b / a), 1e-12 * m * kG);
  EXPECT_NEAR(d.lambda_N_each[1], 0.5 * m * kG * (1 - mu * b / a), 1e-12 * m * kG);
  EXPECT_NEAR(d.qddot[0], mu * kG, 1e-12 * kG);
}

// At rest on both corners: stick with dependent tangential directions; unique normal forces,
// no NaN, the run stays put.
TEST(MultiContact, BoxAtRestOnTwoCornersStaysWithUniqueNormalForces) {
  const double m = 1.5, a = 0.4, b = 0.2, mu = 0.3;
  const auto model = box_model(m, a, b, {ImpactLawKind::RouthPoisson, 0.0, 0.0, mu});
  const auto c = model.compile();
  Vector x0 = Vector::Zero(6);
  x0[1] = b;
  const ModeId start = c.initial_mode(0.0, x0);
  EXPECT_EQ(mode_name(c, start), "stick:trailing&stick:leading");
  const SimulationResult r = simulate(c.system, start, 0.0, x0, 2.0, testing::tight_options());
  ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  EXPECT_EQ(r.events.size(), 0);
  EXPECT_LE((r.x_final - x0).lpNorm<Eigen::Infinity>(), 1e-12);
  const ContactDynamics d =
      model.dynamics(c.modes[static_cast<size_t>(start)], 0.0, x0.head(3), x0.tail(3));
  EXPECT_NEAR(d.lambda_N_each[0], 0.5 * m * kG, 1e-12 * m * kG);
  EXPECT_NEAR(d.lambda_N_each[1], 0.5 * m * kG, 1e-12 * m * kG);
}

// Rocking block (half-width a, half-height h, alpha = atan(a / h)), released tilted on its left
// corner with e = 0 and friction enough to stick. Each impact of the other corner conserves the
// angular momentum about it (the impulse acts there); with the old corner lifting off:
//   omega+ / omega- = [I_G + m (h^2 - a^2)] / I_O = 1 - (3/2) sin^2(alpha)  (Housner),
// I_G = m (a^2 + h^2) / 3, I_O = 4 I_G. The impact LCP over both corners (one closed, one
// landing) must find that answer; the energy never increases; the impacts accumulate and the
// Zeno hand-over leaves the block flat, both corners sticking.
TEST(MultiContact, RockingBlockFollowsHousnerAndSettlesFlat) {
  const double m = 1.0, a = 0.25, h = 0.5, mu = 1.0, th0 = 0.1;
  const auto model = box_model(m, a, h, {ImpactLawKind::RouthPoisson, 0.0, 0.0, mu});
  const auto c = model.compile();
  Vector x0(6);
  x0 << 0.0, a * std::sin(th0) + h * std::cos(th0), th0, 0.0, 0.0, 0.0;
  const ModeId start = c.initial_mode(0.0, x0);
  EXPECT_EQ(mode_name(c, start), "stick:trailing");
  const double alpha = std::atan(a / h), ratio = 1.0 - 1.5 * std::pow(std::sin(alpha), 2);
  const auto energy = [&](ConstVectorRef x) {
    return model.kinetic_energy(x.head(3), x.tail(3)) + m * kG * x[1];
  };
  // The rocking amplitude falls as omega^2: at the default hand-over tolerance (1e-9 of t) the
  // impacts would be resolved down to angles ~1e-12 rad, the noise level of the event location;
  // 1e-4 hands over while each impact is still well resolved (~25 impacts, omega ~ 1e-4).
  SimulationOptions o = testing::tight_options();
  o.zeno.handover_tolerance = 1e-4;
  const SimulationResult r = simulate(c.system, start, 0.0, x0, 3.0, o);
  EXPECT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  int impacts = 0;
  double worst = 0.0;
  for (long i = 0; i < r.events.size(); ++i) {
    const auto xb = r.events.x_before(i), xa = r.events.x_after(i);
    // Impacts: round-off. The Zeno hand-over's state is an extrapolated limit projected flat, off
    // by the extrapolation error (measured 9.8e-12 J here): 1e-9 as in the stacked-balls scenes.
    const double slack = r.events[i].guard == kZenoHandoverGuard ? 1e-9 : 1e-12;
    EXPECT_LE(energy(xa), energy(xb) + slack * m * kG * h)
        << "event " << i << " gain " << energy(xa) - energy(xb);
    const std::string& guard = r.events[i].guard == kZenoHandoverGuard
                                   ? std::string("zeno")
                                   : c.system.modes()[static_cast<size_t>(r.events[i].mode_before)]
                                         .guards[static_cast<size_t>(r.events[i].guard)]
                                         .name;
    if (std::getenv("SALTUS_SHOW_RUNS")) {
      std::printf("%ld t=%.15f %s -> %s  th=%.3e w=%.3e\n", i, r.events[i].t, guard.c_str(),
                  mode_name(c, r.events[i].mode_after).c_str(), xa[2], xa[5]);
    }
    if (guard.rfind("impact:", 0) != 0 || impacts >= 4) continue;
    ++impacts;
    worst = std::max(worst, std::abs(xa[5] / xb[5] - ratio));
    EXPECT_NEAR(xa[5] / xb[5], ratio, 1e-9) << "impact " << impacts << " at t = " << r.events[i].t;
    EXPECT_LE(std::abs(xb[2]), 1e-9);  // flat at every impact
  }
  EXPECT_EQ(impacts, 4);
  EXPECT_EQ(mode_name(c, r.final_mode), "stick:trailing&stick:leading");
  EXPECT_LE(std::abs(r.x_final[2]), 1e-9);
  EXPECT_LE(r.x_final.tail(3).lpNorm<Eigen::Infinity>(), 1e-9);
  std::printf("rocking block: Housner ratio %.6f, worst error %.2e over %d impacts, %ld events\n",
              ratio, worst, impacts, r.events.size());
}

// Rocking block of issue 11 with restitution (e = 0.5, mu = 0.5, Routh-Newton), released at rest
// tilted by 0.2 rad with its lowest (trailing) corner 0.1 above the floor. The block falls without
// rotating: t1 = sqrt(2 * 0.1 / g). The corner arrives without sliding and mu >= |G_TN / G_TT|, so
// it sticks through the impact: G (P_N, P_T) = (-(1 + e) u_N-, 0) with the Delassus matrix G of
// that corner. The next impact (the same corner) ends a free flight whose gaps are closed forms;
// its time is found here by bisection. Event location at rtol 1e-12 is good to ~1e-12 s: times
// checked to 1e-9 s, the energy after the impact to 1e-9 relative.
TEST(MultiContact, RestitutionRockingBlockFirstImpactsMatchClosedForm) {
  const double m = 1.0, a = 0.25, h = 0.5, e = 0.5, mu = 0.5, th0 = 0.2, drop = 0.1;
  const double inertia = m * (a * a + h * h) / 3.0;
  const auto model = box_model(m, a, h, {ImpactLawKind::RouthNewton, e, 0.0, mu});
  const auto c = model.compile();
  Vector x0(6);
  x0 << 0.0, drop + a * std::sin(th0) + h * std::cos(th0), th0, 0.0, 0.0, 0.0;

  const double t1 = std::sqrt(2.0 * drop / kG), vy = -kG * t1, y1 = x0[1] - drop;
  // trailing corner: w_N = (0, 1, wn), w_T = (1, 0, wt); u_N- = vy, u_T- = 0
  const double wn = -a * std::cos(th0) + h * std::sin(th0);
  const double wt = a * std::sin(th0) + h * std::cos(th0);
  const double gnn = 1.0 / m + wn * wn / inertia, gnt = wn * wt / inertia;
  const double gtt = 1.0 / m + wt * wt / inertia;
  ASSERT_GE(mu, std::abs(gnt / gtt));
  const double du = -(1.0 + e) * vy, det = gnn * gtt - gnt * gnt;
  const double pn = gtt * du / det, pt = -gnt * du / det;
  const double vx1 = pt / m, vy1 = vy + pn / m, w1 = (wn * pn + wt * pt) / inertia;
  const double energy1 = 0.5 * m * (vx1 * vx1 + vy1 * vy1) + 0.5 * inertia * w1 * w1 + m * kG * y1;
  const auto gap = [&](double tau, double s) {  // s = -1 trailing, +1 leading
    const double y = y1 + vy1 * tau - 0.5 * kG * tau * tau, th = th0 + w1 * tau;
    return y + s * a * std::sin(th) - h * std::cos(th);
  };
  double hi = 1e-4;
  while (gap(hi, -1.0) > 0.0 && gap(hi, 1.0) > 0.0) hi += 1e-4;
  ASSERT_LE(gap(hi, -1.0), 0.0) << "the trailing corner lands first";
  ASSERT_GT(gap(hi, 1.0), 0.0);
  double lo = hi - 1e-4;
  for (int i = 0; i < 200; ++i) (gap(0.5 * (lo + hi), -1.0) > 0.0 ? lo : hi) = 0.5 * (lo + hi);
  const double t2 = t1 + 0.5 * (lo + hi);

  // to 0.01 after t2: the leading corner lands ~0.07 later
  const SimulationResult r =
      simulate(c.system, c.initial_mode(0.0, x0), 0.0, x0, t2 + 0.01, testing::tight_options());
  ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  ASSERT_EQ(r.events.size(), 2);
  for (long i = 0; i < 2; ++i) {
    const auto& guards = c.system.modes()[static_cast<size_t>(r.events[i].mode_before)].guards;
    EXPECT_EQ(guards[static_cast<size_t>(r.events[i].guard)].name, "impact:trailing");
  }
  EXPECT_NEAR(r.events[0].t, t1, 1e-9);
  EXPECT_NEAR(r.events[1].t, t2, 1e-9);
  const auto xa = r.events.x_after(0);
  const double got1 = model.kinetic_energy(xa.head(3), xa.tail(3)) + m * kG * xa[1];
  EXPECT_NEAR(got1, energy1, 1e-9 * energy1);
  EXPECT_NEAR(xa[5], w1, 1e-9 * std::abs(w1));
  std::printf("restitution rocking block: t1 error %.1e s, t2 error %.1e s, energy error %.1e J\n",
              std::abs(r.events[0].t - t1), std::abs(r.events[1].t - t2), std::abs(got1 - energy1));
}

// The instants that start a phase of a rocking run: each Zeno hand-over (a corner's bounces
// accumulated) and each impact on the other corner than the previous impact (the block rocks).
std::vector<double> phase_times(const LagrangianModel::Compiled& c, const SimulationResult& r) {
  std::vector<double> times;
  std::string corner;
  for (long i = 0; i < r.events.size(); ++i) {
    const std::string name = testing::guard_name(c, r, i);
    if (name == "zeno-handover") {
      times.push_back(r.events[i].t);
    } else if (name.rfind("impact:", 0) == 0 && name != corner) {
      corner = name;
      times.push_back(r.events[i].t);
    }
  }
  return times;
}

// Impact times after Zeno hand-overs (issue 11): with Newton restitution each corner bounces to
// rest before the block pivots on it; the run hands over at each accumulation point, and every
// later impact depends on where. The phase starts must agree to 1e-9 s between (rtol 1e-10,
// hand-over tolerance 1e-6) and (rtol 1e-12, hand-over 1e-9). Was: the accumulation point came
// from the duration ratio of early bounces (0.5010 here; it converges to 0.5000 as the bounces
// shrink), each hand-over was ~1e-5 s off and later impacts drifted by 1e-4 s; hand-over 1e-8
// ended in step-size underflow. The anchors of the issue, then seeded random e, tilt and drop.
TEST(MultiContact, RestitutionRockingBlockPhasesDoNotDependOnTheHandover) {
  const double m = 1.0, a = 0.25, h = 0.5, mu = 0.5;
  std::srand(11);
  const auto uniform = [](double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(std::rand()) / RAND_MAX;
  };
  for (int k = 0; k < 5; ++k) {
    const double e = k == 0 ? 0.5 : uniform(0.3, 0.7);
    const double th0 = k == 0 ? 0.2 : uniform(0.1, 0.3);
    const double drop = k == 0 ? 0.1 : uniform(0.0, 0.1);
    const auto model = box_model(m, a, h, {ImpactLawKind::RouthNewton, e, 0.0, mu});
    const auto c = model.compile();
    Vector x0(6);
    x0 << 0.0, drop + a * std::sin(th0) + h * std::cos(th0), th0, 0.0, 0.0, 0.0;
    std::vector<double> phases[2];
    for (int run = 0; run < 2; ++run) {
      SimulationOptions o = testing::tight_options();
      o.stepper.rtol = run == 0 ? 1e-10 : 1e-12;
      o.stepper.atol = 1e-2 * o.stepper.rtol;
      o.zeno.handover_tolerance = run == 0 ? 1e-6 : 1e-9;
      const SimulationResult r = simulate(c.system, c.initial_mode(0.0, x0), 0.0, x0, 2.0, o);
      ASSERT_EQ(r.termination(), Termination::EndTimeReached) << k << ": " << r.summary.message;
      EXPECT_GE(r.summary.zeno_handovers, 4) << k;
      phases[run] = phase_times(c, r);
    }
    ASSERT_EQ(phases[0].size(), phases[1].size()) << k;
    double worst = 0.0;
    for (size_t i = 0; i < phases[0].size(); ++i) {
      worst = std::max(worst, std::abs(phases[0][i] - phases[1][i]));
    }
    EXPECT_LE(worst, 1e-9) << "case " << k << " (e = " << e << ")";
    std::printf("rocking block e = %.3f: %zu phases, largest difference %.1e s\n", e,
                phases[0].size(), worst);
  }
}

}  // namespace
}  // namespace saltus::mech
