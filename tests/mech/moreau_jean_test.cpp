// The Moreau-Jean stepper alone (mech/moreau_jean.hpp; issue 32 item 3) against closed forms and
// its energy balance.
//
// Closed forms: a ball dropped from y0 onto a floor with Newton's e lands at t1 = sqrt(2 y0 / g)
// with v- = -g t1 and leaves with v+ = -e v-, lands again at t1 (1 + 2e); a block sliding on a
// floor with Coulomb friction decelerates by mu g, x = v0 t - mu g t^2 / 2 until it sticks at
// t_s = v0 / (mu g) at x_s = v0^2 / (2 mu g). Tolerances: the order-one bounds of the scheme,
// |error| <= K h with K stated per quantity (a landing is found within one step, so its time is
// off by at most h and the velocity taken into it by at most g h), and round-off (1e-12 of the
// quantity's scale) where the scheme is exact (the sliding block's velocity, a linear function of
// t, is the theta-method's exact answer).
//
// Energy (header comment of moreau_jean.hpp): a planar rigid body under gravity, one step from
// random states touching random lines with e = 0. theta = 1: T + V never rises beyond round-off;
// theta = 1/2: never without friction, and with friction by at most the stated reversal term
// sum_c max(0, Lambda_T u_T-) / 2.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/mech/moreau_jean.hpp"
#include "saltus/mech/planar_rigid_body.hpp"

namespace saltus::mech {
namespace {

constexpr double kG = 9.81;

LagrangianModel dropped_ball(double e) {
  LagrangianModel m("ball", 1);
  m.set_mass_matrix([](const auto&, auto& M) { M(0, 0) = 1.0; });
  m.set_forces([](const auto&, const auto&, const auto&, auto& h) { h[0] = -kG; });
  m.add_contact(
      "floor", "ball", [](const auto& q) { return q[0]; },
      ContactImpactLaw{ImpactLawKind::NewtonFrictionless, e, 0.0, 0.0});
  return m;
}

struct Landing {
  double t = kNaN, v_plus = kNaN;
};

// The first two landings of the stepped ball: the step whose index set holds the floor with an
// impulse beyond the step's weight (g h: a resting ball takes that much), at its midpoint.
std::vector<Landing> stepped_landings(double e, double y0, double h, double t_end) {
  const LagrangianModel m = dropped_ball(e);
  const MoreauJeanStepper stepper(m);
  Vector q(1), v(1);
  q << y0;
  v << 0.0;
  std::vector<Landing> out;
  for (double t = 0.0; t < t_end && out.size() < 2; t += h) {
    const MoreauJeanStep s = stepper.step(t, q, v, h);
    EXPECT_TRUE(s.ok()) << s.failure;
    if (s.impulse_N[0] > 2.0 * kG * h) out.push_back({t + 0.5 * h, s.qdot[0]});
    q = s.q;
    v = s.qdot;
  }
  return out;
}

double fitted_order(const std::vector<double>& h, const std::vector<double>& err) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(h.size());
  for (size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(err[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

TEST(MoreauJean, DroppedBallLandingsConvergeAtOrderOne) {
  for (const double e : {0.0, 0.5, 0.8}) {
    SCOPED_TRACE("e = " + std::to_string(e));
    std::vector<double> hs, time_err, speed_err;
    // Heights spread over one step so that the landing's place in a step averages out.
    std::mt19937 rng(3211u);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (double h = 1e-2; h >= 1e-2 / 64.0; h /= 2.0) {
      double te = 0.0, ve = 0.0;
      const int heights = 8;
      for (int k = 0; k < heights; ++k) {
        const double y0 = 1.0 + 0.1 * unit(rng);
        const double t1 = std::sqrt(2.0 * y0 / kG), v_plus = e * kG * t1;
        const std::vector<Landing> l = stepped_landings(e, y0, h, 3.0);
        ASSERT_GE(l.size(), e > 0.0 ? 2u : 1u);
        // Within one step of the exact landing, and the velocity taken into it within g h.
        EXPECT_LE(std::abs(l[0].t - t1), h);
        EXPECT_LE(std::abs(l[0].v_plus - v_plus), 2.0 * kG * h);
        te += std::abs(l[0].t - t1) / heights;
        ve += std::abs(l[0].v_plus - v_plus) / heights;
        if (e > 0.0) {
          const double t2 = t1 * (1.0 + 2.0 * e);
          EXPECT_LE(std::abs(l[1].t - t2), 3.0 * h);
          EXPECT_LE(std::abs(l[1].v_plus - e * v_plus), 4.0 * kG * h);
        }
      }
      hs.push_back(h);
      time_err.push_back(te);
      speed_err.push_back(e > 0.0 ? ve : te);
    }
    const double p_t = fitted_order(hs, time_err);
    std::printf("dropped ball e = %.1f: landing time error order %.2f", e, p_t);
    EXPECT_GT(p_t, 0.7);
    EXPECT_LT(p_t, 1.5);
    if (e > 0.0) {
      const double p_v = fitted_order(hs, speed_err);
      std::printf(", rebound velocity error order %.2f", p_v);
      EXPECT_GT(p_v, 0.7);
      EXPECT_LT(p_v, 1.5);
    }
    std::printf("\n");
  }
}

TEST(MoreauJean, BallRestsOnTheFloorWithoutDrift) {
  // e = 0: the landed ball's gap keeps its value to round-off and its velocity stays zero.
  const LagrangianModel m = dropped_ball(0.0);
  const MoreauJeanStepper stepper(m);
  Vector q(1), v(1);
  q << 0.0;
  v << 0.0;
  for (int k = 0; k < 1000; ++k) {
    const MoreauJeanStep s = stepper.step(1e-3 * k, q, v, 1e-3);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s.state[0], SteppedContact::Closed);
    EXPECT_NEAR(s.impulse_N[0], kG * 1e-3, 1e-15);
    q = s.q;
    v = s.qdot;
  }
  EXPECT_NEAR(q[0], 0.0, 1e-15);
  EXPECT_NEAR(v[0], 0.0, 1e-15);
}

TEST(MoreauJean, SlidingBlockDeceleratesByMuGAndSticksOnTime) {
  for (const double mu : {0.2, 0.5, 1.0}) {
    const double v0 = 2.0, t_s = v0 / (mu * kG), x_s = v0 * v0 / (2.0 * mu * kG);
    const LagrangianModel m =
        point_particle_model(1.0, kG, ContactImpactLaw{ImpactLawKind::NewtonCoulomb, 0.0, 0.0, mu});
    for (const double h : {1e-2, 1e-3, 1e-4}) {
      SCOPED_TRACE("mu = " + std::to_string(mu) + ", h = " + std::to_string(h));
      const MoreauJeanStepper stepper(m);
      Vector q = Vector::Zero(2), v(2);
      v << v0, 0.0;
      double t = 0.0, t_stick = kNaN;
      const int steps = static_cast<int>(std::ceil(1.5 * t_s / h));
      for (int k = 0; k < steps; ++k) {
        const MoreauJeanStep s = stepper.step(t, q, v, h);
        ASSERT_TRUE(s.ok()) << s.failure;
        t += h;
        if (std::isnan(t_stick)) {
          if (std::abs(s.qdot[0]) <= 1e-15 * v0) {
            t_stick = t;
          } else {
            // Sliding: the velocity falls by exactly mu g h a step (the friction impulse is
            // mu times the normal impulse g h), the gap and its rate stay zero; the stepped
            // state is slip+ while the speed is above the step's resolution g h.
            if (s.qdot[0] > kG * h) {
              EXPECT_EQ(s.state[0], SteppedContact::SlipPositive);
            }
            EXPECT_NEAR((v[0] - s.qdot[0]) / h, mu * kG, 1e-9 * mu * kG);
            EXPECT_NEAR(s.qdot[0], v0 - mu * kG * t, 1e-12 * v0);
            EXPECT_NEAR(s.q[0], v0 * t - 0.5 * mu * kG * t * t, 1e-12 * x_s);
          }
        } else {
          EXPECT_EQ(s.state[0], SteppedContact::Stick);
          EXPECT_NEAR(s.qdot[0], 0.0, 1e-15 * v0);
        }
        EXPECT_NEAR(s.q[1], 0.0, 1e-15);
        EXPECT_NEAR(s.qdot[1], 0.0, 1e-15);
        q = s.q;
        v = s.qdot;
      }
      // Sticks in the step that holds t_s, where the block stops within mu g h^2 of x_s.
      EXPECT_GE(t_stick, t_s - 1e-12);
      EXPECT_LE(t_stick, t_s + h + 1e-12);
      EXPECT_NEAR(q[0], x_s, mu * kG * h * h + 1e-12);
    }
  }
}

// A point fixed in a planar body at b (body axes) against the line through p0 with unit normal
// n = (-sin a, cos a) (gap n . (P - p0)), tangent t = (cos a, sin a).
void add_line_contact(LagrangianModel& m, int k, double bx, double by, double a, double c,
                      ContactImpactLaw law) {
  const double nx = -std::sin(a), ny = std::cos(a), tx = std::cos(a), ty = std::sin(a);
  const auto point = [bx, by](const auto& q, int axis) {
    using std::cos;
    using std::sin;
    return axis == 0 ? q[0] + bx * cos(q[2]) - by * sin(q[2])
                     : q[1] + bx * sin(q[2]) + by * cos(q[2]);
  };
  m.add_contact(
      "c" + std::to_string(k), "body",
      [=](const auto& q) { return nx * point(q, 0) + ny * point(q, 1) - c; },
      [=](const auto& q) { return tx * point(q, 0) + ty * point(q, 1); }, law);
}

TEST(MoreauJean, RandomRigidBodyStepsNeverGainEnergyWithoutRestitution) {
  std::mt19937 rng(20261201u);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto in = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng); };
  int cases = 0, active_cases = 0, gains_half = 0, several = 0;
  double worst_over_bound = -kInfinity;
  for (int run = 0; run < 1500; ++run) {
    const double mass = in(0.5, 2.0), J = mass * in(0.01, 0.3);
    const bool frictional = run % 4 != 0;
    LagrangianModel model("body", 3);
    set_planar_body_dynamics(model, mass, J, kG);
    const int contacts = 1 + static_cast<int>(unit(rng) * 4.0);
    Vector q(3), v(3);
    q << in(-1.0, 1.0), in(-0.2, 0.2), in(-M_PI, M_PI);
    v << in(-2.0, 2.0), in(-3.0, 1.0), in(-8.0, 8.0);
    const double h = std::pow(10.0, in(-5.0, -2.0));
    for (int k = 0; k < contacts; ++k) {
      const double bx = in(-0.5, 0.5), by = in(-0.5, 0.5), a = in(-0.6, 0.6);
      const double mu = frictional ? in(0.05, 1.5) : 0.0;
      const ContactImpactLaw law{
          frictional ? ImpactLawKind::NewtonCoulomb : ImpactLawKind::NewtonFrictionless, 0.0, 0.0,
          mu};
      // The line placed so that the point's gap is small: touching, just open or penetrating.
      const double px = q[0] + bx * std::cos(q[2]) - by * std::sin(q[2]);
      const double py = q[1] + bx * std::sin(q[2]) + by * std::cos(q[2]);
      const double gap = in(-2.0, 1.0) * h * 3.0;
      add_line_contact(model, k, bx, by, a, -std::sin(a) * px + std::cos(a) * py - gap, law);
    }
    const auto energy = [&](const Vector& qq, const Vector& vv) {
      return 0.5 * mass * (vv[0] * vv[0] + vv[1] * vv[1]) + 0.5 * J * vv[2] * vv[2] +
             mass * kG * qq[1];
    };
    const double scale = 0.5 * mass * (v[0] * v[0] + v[1] * v[1]) + 0.5 * J * v[2] * v[2] +
                         mass * kG * (std::abs(q[1]) + 1.0);
    for (const double theta : {1.0, 0.5}) {
      MoreauJeanOptions o;
      o.theta = theta;
      const MoreauJeanStepper stepper(model, o);
      const MoreauJeanStep s = stepper.step(0.0, q, v, h);
      ASSERT_TRUE(s.ok()) << "run " << run << ": " << s.failure;
      ++cases;
      if (!s.active.empty() && theta == 1.0) ++active_cases;
      several += s.chosen;
      const double gain = energy(s.q, s.qdot) - energy(q, v);
      const double round_off = 1e-12 * scale;
      if (theta == 1.0 || !frictional) {
        EXPECT_LE(gain, round_off) << "run " << run << ", theta " << theta;
        continue;
      }
      double bound = 0.0;
      for (int c : s.active) bound += 0.5 * std::max(0.0, s.impulse_T[c] * s.rate_T_minus[c]);
      EXPECT_LE(gain, bound + round_off) << "run " << run;
      if (gain > round_off) {
        ++gains_half;
        worst_over_bound = std::max(worst_over_bound, gain / bound);
      }
    }
  }
  std::printf(
      "random rigid-body steps: %d (%d with contacts in the index set), %d took the least-energy "
      "motion among several; theta = 1/2 with friction gained energy in %d",
      cases, active_cases, several, gains_half);
  if (gains_half > 0) std::printf(", at most %.3g of the reversal bound", worst_over_bound);
  std::printf("\n");
  EXPECT_GT(active_cases, 500);
}

TEST(MoreauJean, BadInput) {
  const LagrangianModel m = dropped_ball(0.5);
  MoreauJeanOptions o;
  o.theta = 0.4;
  EXPECT_THROW(MoreauJeanStepper(m, o), Error);
  const MoreauJeanStepper stepper(m);
  Vector q(1), v(1);
  q << 1.0;
  v << 0.0;
  EXPECT_THROW(stepper.step(0.0, q, v, 0.0), Error);
  EXPECT_THROW(stepper.step(0.0, Vector::Zero(2), v, 1e-3), Error);
}

}  // namespace
}  // namespace saltus::mech
