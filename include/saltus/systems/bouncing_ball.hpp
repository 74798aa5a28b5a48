// The bouncing ball of seeds 000 and 004 as a hybrid system (FORMULAS.md 2.3, 5.1).
//
// Modes: "flight"  x' = v, v' = -g - c v + F(t)/m             (c: linear drag per unit mass)
//                   guard "impact": p = -x rising (x reaches 0 moving down), v+ = -e v-;
//                   reset outputs: impulse m (v+ - v-) and kinetic-energy change
//        "rest"    x' = 0, v' = 0, algebraic contact force lambda: 0 = lambda - (m g - F(t))
//                   guard "lift-off": p = -lambda rising (the floor would have to pull),
//                   back to flight with the state unchanged
// Zeno hand-over: flight -> rest at the accumulation time, x = 0, v = 0 (FORMULAS.md 1.6).
// F(t) = lift_rate t is an upward force that lets the resting ball leave the floor again.
#pragma once

#include <utility>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::systems {

struct BouncingBall {
  double g = 9.81;         // gravity, m/s^2
  double e = 0.8;          // coefficient of restitution, [0, 1]
  double drag = 0.0;       // linear drag coefficient c, 1/s
  double mass = 1.0;       // kg
  double lift_rate = 0.0;  // growth of the upward external force, N/s
  bool with_rest_mode = true;
  // The impact guard with its enclosure (the certified event search); false: sampled only, to
  // measure the search's cost (bench/hybrid_ball_bench.cpp --sampled).
  bool certified = true;

  ModeId flight = kNoMode, rest = kNoMode;

  // v+ = -e v- (Jacobian by AD), with the impulse and the kinetic-energy change as reset outputs.
  static Reset impact_reset(ModeId flight_mode, double e, double m) {
    Reset r = Reset::to_ad(flight_mode, [e](const auto&, const auto& x, const auto&, auto& xp) {
      xp[0] = x[0];
      xp[1] = -e * x[1];
    });
    r.with_outputs({"impulse", "energy_change"}, [m](double, ConstVectorRef xm, ConstVectorRef,
                                                     ConstVectorRef xp, VectorRef out) {
      out[0] = m * (xp[1] - xm[1]);
      out[1] = 0.5 * m * (xp[1] * xp[1] - xm[1] * xm[1]);
    });
    return r;
  }

  HybridSystem build() {
    HybridSystem sys;
    const double g_ = g, e_ = e, c_ = drag, m_ = mass, k_ = lift_rate;
    flight = sys.add_mode("flight", ode_flow(2, [=](const auto& t, const auto& x, auto& xdot) {
                            xdot[0] = x[1];
                            xdot[1] = -g_ - c_ * x[1] + k_ * t / m_;
                          }));
    const ModeId fl = flight;
    Guard impact = make_enclosed_guard(
        "impact", Direction::Rising, [](const auto&, const auto& x, const auto&) { return -x[0]; },
        impact_reset(fl, e_, m_));
    impact.reads_states = {0};  // the height alone: event location interpolates only x
    if (!certified) impact.enclosure = {};
    sys.add_guard(flight, std::move(impact));
    if (with_rest_mode) {
      rest = sys.add_mode("rest", semi_explicit_flow(
                                      2, 1,
                                      [](const auto&, const auto&, const auto&, auto& xdot) {
                                        xdot[0] = 0.0;
                                        xdot[1] = 0.0;
                                      },
                                      [=](const auto& t, const auto&, const auto& z, auto& res) {
                                        res[0] = z[0] - (m_ * g_ - k_ * t);
                                      }));
      sys.add_guard(
          rest, make_guard(
                    "lift-off", Direction::Rising,
                    [](const auto&, const auto&, const auto& z) { return -z[0]; }, Reset::to(fl)));
      const ModeId rs = rest;
      sys.set_zeno_handover(flight, ZenoHandover{rs, [](double, ConstVectorRef, ConstVectorRef,
                                                        VectorRef xp) { xp.setZero(); }});
    }
    return sys;
  }
};

}  // namespace saltus::systems
