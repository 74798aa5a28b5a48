// Coulomb friction on compliant contacts of a LagrangianModel (add_compliant_contact with a
// tangent; lagrangian_model.hpp, "Friction on compliant contacts"), run through compile() and the
// simulator:
//  - a block resting in a linear-spring floor (f_N = m g), pulled by a spring k_s from a driver
//    moving at v_d and started sliding backwards: the slip- phase, the stick phase and three
//    periods of the slip+ phase follow their closed forms (a mass on a spring with constant
//    friction mu m g is a harmonic oscillator about a shifted centre), gdot_T stays zero while
//    sticking, and stick -> slip happens when the spring force reaches mu m g;
//  - a point mass sliding on a Kelvin-Voigt floor at its static penetration decelerates at mu g
//    and sticks at x = v0^2 / (2 mu g), t = v0 / (mu g); landing on it while sliding, it stops
//    where an independent integration of the same equations stops;
//  - a ball bouncing obliquely, with spin and a constant sideways push, on a Hunt-Crossley
//    floor: the total energy (kinetic, potential of gravity and push, the floor's elastic energy
//    k delta^(n+1)/(n+1)) never increases, over 240 seeded random cases, and every run ends with
//    a status;
//  - beside a rigid wall (Newton restitution) the slider bounces and slides back to rest along
//    its closed form; a rigid contact that would close while compliant friction is active, and a
//    rough compliant contact touched while a rigid contact is closed, end the run (reset-failed)
//    with both named; such an initial state is refused;
// (Beside rigid contacts and bad input: compliant_friction_rigid_contacts_test.cpp.)
//
// Tolerances: Dop853 at rtol 1e-12; closed forms to 1e-8 of their scale (the integration error
// of a few hundred steps), event times to 1e-9 s; sticking velocity to 1e-12 (x is linear in q:
// a linear invariant that Runge-Kutta keeps to round-off); energy to 2e-8 of its start (see the
// bounce test).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "lagrangian_test_models.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::mech {
namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;
constexpr double kG = 9.81;

// ---------------------------------------------------------------- driven block (stick-slip)
struct DrivenBlock {
  double m = 1.0, k_s = 10.0, v_d = 0.1, mu = 0.3, k_floor = 1e4;
  double omega() const { return std::sqrt(k_s / m); }
};

// q = (x, y): a block on the floor y >= 0 (linear spring), pulled along x by a spring from a
// driver at x_d = v_d t.
LagrangianModel driven_block(const DrivenBlock& p) {
  LagrangianModel b("driven_block", 2);
  b.set_mass_matrix([p](const auto&, auto& M) {
    M(0, 0) = p.m;
    M(1, 1) = p.m;
  });
  b.set_forces([p](const auto& t, const auto& q, const auto&, auto& h) {
    h[0] = p.k_s * (p.v_d * t - q[0]);
    h[1] = -p.m * kG + 0.0 * q[1];
  });
  b.add_compliant_contact(
      "floor", "block", [](const auto& q) { return q[1]; }, [](const auto& q) { return q[0]; },
      CompliantContactLaw::linear_spring(p.k_floor).with_friction(p.mu));
  return b;
}

TEST(CompliantFriction, DrivenBlockSlipStickSlipFollowsTheClosedForms) {
  const DrivenBlock p;
  const double w = p.omega(), v0 = 0.5, F_max = p.mu * p.m * kG;
  const LagrangianModel block = driven_block(p);
  const auto c = block.compile();
  Vector x0(4);
  x0 << 0.0, -p.m * kG / p.k_floor, -v0, 0.0;  // static penetration: f_N = m g
  const ModeId start = c.initial_mode(0.0, x0);
  ASSERT_EQ(c.system.mode(start).name, "free|slip-:floor");

  // Closed forms. slip- from (0, 0, -v0): x'' = (k_s (v_d t - x) + mu m g) / m,
  //   x = v_d t + mu g / w^2 + A cos wt + B sin wt, A = -mu g / w^2, B = -(v0 + v_d) / w.
  const double A = -p.mu * kG / (w * w), B = -(v0 + p.v_d) / w;
  auto x_back = [&](double t) {
    return p.v_d * t + p.mu * kG / (w * w) + A * std::cos(w * t) + B * std::sin(w * t);
  };
  auto v_back = [&](double t) { return p.v_d - A * w * std::sin(w * t) + B * w * std::cos(w * t); };
  double lo = 0.0, hi = 0.5 * kPi / w;  // v_back(lo) < 0 < v_back(hi): bisect the stop time
  ASSERT_LT(v_back(lo), 0.0);
  ASSERT_GT(v_back(hi), 0.0);
  for (int i = 0; i < 200 && hi - lo > 1e-16; ++i) {
    const double mid = 0.5 * (lo + hi);
    (v_back(mid) < 0.0 ? lo : hi) = mid;
  }
  const double t_stop = 0.5 * (lo + hi), x_stop = x_back(t_stop);
  // Stick until k_s (v_d t - x_stop) = mu m g; then slip+ from rest at the cone's edge:
  //   x = v_d t - mu g / w^2 - (v_d / w) sin(w (t - t_slip)).
  const double t_slip = x_stop / p.v_d + F_max / (p.k_s * p.v_d);
  ASSERT_LT(std::abs(p.k_s * (p.v_d * t_stop - x_stop)), F_max);  // it does stick
  auto x_forward = [&](double t) {
    return p.v_d * t - p.mu * kG / (w * w) - (p.v_d / w) * std::sin(w * (t - t_slip));
  };
  auto v_forward = [&](double t) { return p.v_d * (1.0 - std::cos(w * (t - t_slip))); };

  // Three periods of the slip: with one coefficient mu the block comes to rest at the cone's edge
  // after each period 2 pi / w (x' = v_d (1 - cos) touches zero) and slides on, so the closed
  // form holds throughout and no stick event may appear there.
  const double t_end = t_slip + 3.0 * 2.0 * kPi / w;
  SimulationOptions o = testing::tight_options();
  for (int i = 0; i <= 8000; ++i) o.output.sample_times.push_back(t_end * i / 8000.0);
  const SimulationResult r = simulate(c.system, start, 0.0, x0, t_end, o);
  ASSERT_EQ(r.summary.termination, Termination::EndTimeReached) << r.summary.message;

  // Events: stick at t_stop, slip+ at t_slip, nothing else.
  ASSERT_EQ(r.events.size(), 2) << r.summary.message;
  EXPECT_EQ(testing::guard_name(c, r, 0), "stick:floor");
  EXPECT_EQ(c.system.mode(r.events[0].mode_after).name, "free|stick:floor");
  EXPECT_NEAR(r.events[0].t, t_stop, 1e-9);
  EXPECT_EQ(testing::guard_name(c, r, 1), "slip+:floor");
  EXPECT_EQ(c.system.mode(r.events[1].mode_after).name, "free|slip+:floor");
  EXPECT_NEAR(r.events[1].t, t_slip, 1e-9);
  // At the transition the spring force equals mu f_N and f_N = m g.
  const Vector x_slip = r.events.x_before(1);
  const double f_N = block.compliant_force(0, x_slip.head(2), x_slip.tail(2));
  EXPECT_NEAR(f_N, p.m * kG, 1e-9 * p.m * kG);
  EXPECT_NEAR(p.k_s * (p.v_d * r.events[1].t - x_slip[0]), p.mu * f_N, 1e-8 * F_max);

  int stuck = 0, sliding = 0;
  double min_forward_speed = kInfinity;
  const double scale = v0 / w;  // amplitude of the motion
  for (long i = 0; i < r.trajectory.size(); ++i) {
    const double t = r.trajectory.t(i);
    const Vector x = r.trajectory.x(i);
    const std::string& mode = c.system.mode(r.trajectory.mode(i)).name;
    if (mode == "free|slip-:floor") {
      EXPECT_NEAR(x[0], x_back(t), 1e-8 * scale) << "t = " << t;
      EXPECT_NEAR(x[2], v_back(t), 1e-8 * v0) << "t = " << t;
    } else if (mode == "free|stick:floor") {
      ++stuck;
      EXPECT_LE(std::abs(x[2]), 1e-12) << "sticking velocity at t = " << t;
      EXPECT_NEAR(x[0], x_stop, 1e-8 * scale);
      EXPECT_LE(std::abs(p.k_s * (p.v_d * t - x[0])), F_max * (1.0 + 1e-9));  // inside the cone
    } else {
      ASSERT_EQ(mode, "free|slip+:floor");
      ++sliding;
      EXPECT_NEAR(x[0], x_forward(t), 1e-8 * scale) << "t = " << t;
      EXPECT_NEAR(x[2], v_forward(t), 1e-8 * v0) << "t = " << t;
      min_forward_speed = std::min(min_forward_speed, x[2]);
    }
    EXPECT_NEAR(x[1], -p.m * kG / p.k_floor, 1e-12);  // the normal load stays m g
  }
  EXPECT_GT(stuck, 1000);
  EXPECT_GT(sliding, 4000);
  EXPECT_LT(min_forward_speed, 1e-3 * p.v_d);  // it did pass the momentary rests

  // Forces reported by dynamics(): the stick force balances the spring.
  LagrangianMode stick{-1, ClosedKind::None, 1u};
  stick.compliant_stick = 1u;
  ASSERT_EQ(c.system.mode(c.find(stick)).name, "free|stick:floor");
  const double t_mid = 0.5 * (t_stop + t_slip);
  Vector q(2), qd(2);
  q << x_stop, -p.m * kG / p.k_floor;
  qd << 0.0, 0.0;
  const ContactDynamics d = block.dynamics(stick, t_mid, q, qd);
  EXPECT_NEAR(d.lambda_T_each[0], -p.k_s * (p.v_d * t_mid - x_stop), 1e-12 * F_max);
  EXPECT_NEAR(d.qddot[0], 0.0, 1e-15);
}

// ---------------------------------------------------------------- sliding to rest
TEST(CompliantFriction, MassSlidingOnKelvinVoigtFloorStopsAtTheClosedFormDistance) {
  const double m = 2.0, k = 5e4, cdamp = 50.0, mu = 0.4;
  for (const double v0 : {0.3, 1.0, 2.5}) {
    LagrangianModel p("slider", 2);
    p.set_mass_matrix([m](const auto&, auto& M) {
      M(0, 0) = m;
      M(1, 1) = m;
    });
    p.set_forces([m](const auto&, const auto& q, const auto&, auto& h) {
      h[0] = 0.0 * q[0];
      h[1] = -m * kG + 0.0 * q[1];
    });
    p.add_compliant_contact(
        "floor", "slider", [](const auto& q) { return q[1]; }, [](const auto& q) { return q[0]; },
        CompliantContactLaw::kelvin_voigt(k, cdamp, ReleaseCondition::GapReturnsToZero)
            .with_friction(mu));
    const auto c = p.compile();
    Vector x0(4);
    x0 << 0.0, -m * kG / k, v0, 0.0;  // the normal oscillation has settled: f_N = m g
    const ModeId start = c.initial_mode(0.0, x0);
    ASSERT_EQ(c.system.mode(start).name, "free|slip+:floor");
    const double t_rest = v0 / (mu * kG), x_rest = v0 * v0 / (2.0 * mu * kG);
    const SimulationResult r =
        simulate(c.system, start, 0.0, x0, 1.5 * t_rest, testing::tight_options());
    ASSERT_EQ(r.summary.termination, Termination::EndTimeReached) << r.summary.message;
    ASSERT_EQ(r.events.size(), 1) << "v0 = " << v0;
    EXPECT_EQ(testing::guard_name(c, r, 0), "stick:floor");
    EXPECT_EQ(c.system.mode(r.final_mode).name, "free|stick:floor");
    EXPECT_NEAR(r.events[0].t, t_rest, 1e-10 * t_rest) << "v0 = " << v0;
    EXPECT_NEAR(r.events.x_after(0)[0], x_rest, 1e-10 * x_rest) << "v0 = " << v0;
    EXPECT_NEAR(r.x_final[0], x_rest, 1e-10 * x_rest);
    EXPECT_LE(std::abs(r.x_final[2]), 1e-12);
  }
}

// The same slider landing at the surface (y = 0, y' = 0) while sliding at v0: the normal
// oscillation (lightly damped, never releasing) modulates the friction force, and the stop time
// and place equal an independent integration (classical RK4, fixed step h = 2e-6 s, linear
// interpolation of the zero of x') of y'' = f/m - g, x'' = -mu max(f, 0) / m,
// f = k (-y) + c (-y').
TEST(CompliantFriction, LandingSliderStopsWhereAnIndependentIntegrationStops) {
  const double m = 2.0, k = 5e4, cdamp = 50.0, mu = 0.4, v0 = 1.0;
  // Independent integration of (x, y, x', y') in slip+ until x' = 0.
  auto rate = [&](const Eigen::Vector4d& s) {
    const double f = k * (-s[1]) + cdamp * (-s[3]);
    return Eigen::Vector4d(s[2], s[3], -mu * std::max(f, 0.0) / m, f / m - kG);
  };
  Eigen::Vector4d s(0.0, 0.0, v0, 0.0);
  const double h = 2e-6;
  double t = 0.0, t_ref = kNaN, x_ref = kNaN;
  while (std::isnan(t_ref)) {
    const Eigen::Vector4d k1 = rate(s), k2 = rate(s + 0.5 * h * k1), k3 = rate(s + 0.5 * h * k2),
                          k4 = rate(s + h * k3);
    const Eigen::Vector4d next = s + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    ASSERT_LT(next[1], 0.0) << "the reference left the floor at t = " << t;
    if (next[2] <= 0.0) {
      const double a = s[2] / (s[2] - next[2]);
      t_ref = t + a * h;
      x_ref = s[0] + a * (next[0] - s[0]);
    }
    s = next;
    t += h;
  }
  LagrangianModel p("lander", 2);
  p.set_mass_matrix([m](const auto&, auto& M) {
    M(0, 0) = m;
    M(1, 1) = m;
  });
  p.set_forces([m](const auto&, const auto& q, const auto&, auto& h_out) {
    h_out[0] = 0.0 * q[0];
    h_out[1] = -m * kG + 0.0 * q[1];
  });
  p.add_compliant_contact(
      "floor", "lander", [](const auto& q) { return q[1]; }, [](const auto& q) { return q[0]; },
      CompliantContactLaw::kelvin_voigt(k, cdamp, ReleaseCondition::GapReturnsToZero)
          .with_friction(mu));
  const auto c = p.compile();
  Vector x0(4);
  x0 << 0.0, -1e-12, v0, 0.0;  // just inside: the contact starts active, sliding
  const ModeId start = c.initial_mode(0.0, x0);
  ASSERT_EQ(c.system.mode(start).name, "free|slip+:floor");
  const SimulationResult r =
      simulate(c.system, start, 0.0, x0, 1.2 * t_ref, testing::tight_options());
  ASSERT_EQ(r.summary.termination, Termination::EndTimeReached) << r.summary.message;
  ASSERT_EQ(r.events.size(), 1) << r.summary.message;
  EXPECT_EQ(testing::guard_name(c, r, 0), "stick:floor");
  // The reference's own error: RK4 at h = 2e-6 (~h^4) and the chord through its last step
  // (~h^2 x'''/8 ~ 1e-9 s); the difference from v0 / (mu g) shows the oscillation mattered.
  EXPECT_NEAR(r.events[0].t, t_ref, 1e-8);
  EXPECT_NEAR(r.events.x_after(0)[0], x_ref, 1e-8 * x_ref);
  EXPECT_GT(std::abs(r.events[0].t - v0 / (mu * kG)), 1e-6);
  std::printf("landing slider: stops at t = %.12f (reference %.12f), x = %.12f (%.12f)\n",
              r.events[0].t, t_ref, r.events.x_after(0)[0], x_ref);
}

// ---------------------------------------------------------------- oblique bounces
struct Ball {
  double m, r, I, k, c, mu, push;
};

// q = (x, y, theta): a disc of radius r above the floor y = r (Hunt-Crossley, n = 3/2), pushed
// along x by a constant force `push` (so sticking needs a friction force, and the stick ends at
// the cone's edge as the normal force fades); the contact point slides at x' + r theta'.
LagrangianModel ball_on_floor(const Ball& b) {
  LagrangianModel l("oblique_ball", 3);
  l.set_mass_matrix([b](const auto&, auto& M) {
    M(0, 0) = b.m;
    M(1, 1) = b.m;
    M(2, 2) = b.I;
  });
  l.set_forces([b](const auto&, const auto& q, const auto&, auto& h) {
    h[0] = b.push + 0.0 * q[0];
    h[1] = -b.m * kG + 0.0 * q[1];
    h[2] = 0.0 * q[2];
  });
  l.add_compliant_contact(
      "floor", "ball", [b](const auto& q) { return q[1] - b.r; },
      [b](const auto& q) { return q[0] + b.r * q[2]; },
      CompliantContactLaw::hunt_crossley(b.k, b.c).with_friction(b.mu));
  return l;
}

double ball_energy(const Ball& b, const Vector& x) {
  const double delta = std::max(0.0, b.r - x[1]);
  return 0.5 * b.m * (x[3] * x[3] + x[4] * x[4]) + 0.5 * b.I * x[5] * x[5] + b.m * kG * x[1] -
         b.push * x[0] + b.k * std::pow(delta, 2.5) / 2.5;
}

TEST(CompliantFriction, ObliqueBouncesOnHuntCrossleyFloorNeverGainEnergy) {
  std::mt19937_64 rng(20261125);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int touches = 0, sticks = 0, slips = 0;
  for (int run = 0; run < 240; ++run) {
    Ball b;
    b.m = 0.1 + 1.9 * u(rng);
    b.r = 0.05 + 0.1 * u(rng);
    b.I = (0.2 + 0.4 * u(rng)) * b.m * b.r * b.r;
    b.k = b.m * std::pow(10.0, 5.0 + 2.0 * u(rng));
    b.c = 2.0 * u(rng);
    b.mu = run % 10 == 0 ? 0.0 : 1.2 * u(rng);
    b.push = (u(rng) - 0.5) * 0.4 * b.m * kG;
    const double angle = (5.0 + 80.0 * u(rng)) * kPi / 180.0, speed = 0.5 + 2.5 * u(rng);
    const double spin = (u(rng) - 0.5) * 100.0;
    Vector x0(6);
    x0 << 0.0, b.r + 0.01, 0.0, speed * std::sin(angle), -speed * std::cos(angle), spin;
    const LagrangianModel ball = ball_on_floor(b);
    const auto c = ball.compile();
    SimulationOptions o = testing::tight_options();
    o.output.record_steps = true;
    const SimulationResult r = simulate(c.system, c.initial_mode(0.0, x0), 0.0, x0, 0.4, o);
    const std::string label = "run " + std::to_string(run) + ": m " + std::to_string(b.m) + " k " +
                              std::to_string(b.k) + " c " + std::to_string(b.c) + " mu " +
                              std::to_string(b.mu) + " angle " + std::to_string(angle) + " spin " +
                              std::to_string(spin);
    ASSERT_NE(r.summary.termination, Termination::NotRun) << label;
    EXPECT_EQ(r.summary.termination, Termination::EndTimeReached)
        << label << ": " << r.summary.message;
    const double E0 = ball_energy(b, x0);
    // Integration error: the Hunt-Crossley force delta^(3/2) is not smooth at release, where the
    // last step of a contact crosses the kink; at rtol 1e-12 that costs up to 1.04e-8 E0 with
    // friction (6.3e-11 E0 without) over 18000 cases of this distribution (6 seeds), 3.7e-9 E0
    // for this seed.
    const double tol = 2e-8 * E0;
    double E_prev = E0;
    for (long i = 0; i < r.trajectory.size(); ++i) {
      const double E = ball_energy(b, r.trajectory.x(i));
      EXPECT_LE(E, E_prev + tol) << label << " at t = " << r.trajectory.t(i);
      E_prev = std::min(E_prev, E);
    }
    // Over every contact: energy at release <= energy at touch.
    double E_touch = kNaN;
    for (long i = 0; i < r.events.size(); ++i) {
      const std::string g = testing::guard_name(c, r, i);
      const std::string after = c.system.mode(r.events[i].mode_after).name;
      if (g == "touch:floor") {
        ++touches;
        E_touch = ball_energy(b, r.events.x_before(i));
      } else if (g == "release:floor") {
        EXPECT_LE(ball_energy(b, r.events.x_after(i)), E_touch + tol) << label;
      }
      if (after == "free|stick:floor") ++sticks;
      if ((g == "slip+:floor" || g == "slip-:floor") && after != "free|stick:floor") ++slips;
    }
  }
  EXPECT_GT(touches, 240);
  EXPECT_GT(sticks, 20);  // the cases do exercise sticking and slipping
  EXPECT_GT(slips, 20);
  std::printf("oblique bounces: %d touches, %d entries into stick, %d stick -> slip\n", touches,
              sticks, slips);
}

}  // namespace
}  // namespace saltus::mech
