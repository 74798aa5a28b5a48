// The impact oscillator shared by the orbit tests: x'' + x = A cos(w t) below a
// stop at x = sigma, v -> -e v at the stop. Its period-1 orbit (one impact per forcing period
// T = 2 pi / w) in closed form [derived]: with P = A / (1 - w^2), impact phase phi = w tau and
// impact speed V, the free motion from (sigma, -e V) at tau must return to (sigma, V) after T:
//   (sigma - P cos phi) tan(T/2) = P w sin phi - e V                     (position)
//   (1 - e) tan(T/2) (sigma - P cos phi) = (1 + e) P w sin phi            (velocity, with the
//   first)
// The second is R cos(phi - delta) = (1 - e) tan(T/2) sigma, R = P |((1-e) tan(T/2), (1+e) w)|.
#pragma once

#include <cmath>
#include <numbers>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::testing {

struct ImpactOscillator {
  double A = 1.0, w = 2.5, sigma = 0.0, e = 0.8;

  // State (x, v), or (x, v, sigma) with the stop position as a state of zero derivative (the
  // continuation parameter) when `sigma_as_state`.
  HybridSystem build(const Guard* section = nullptr, bool sigma_as_state = false) const {
    if (sigma_as_state) return build_with_sigma_state(section);
    HybridSystem sys;
    const double a = A, om = w, s = sigma, r = e;
    const ModeId m =
        sys.add_mode("free", ode_flow(2, [a, om](const auto& t, const auto& x, auto& xd) {
                       using std::cos;
                       xd[0] = x[1];
                       xd[1] = -x[0] + a * cos(om * t);
                     }));
    sys.add_guard(m, make_guard(
                         "stop", Direction::Rising,
                         [s](const auto&, const auto& x, const auto&) { return x[0] - s; },
                         Reset::to_ad(m, [r](const auto&, const auto& x, const auto&, auto& xp) {
                           xp[0] = x[0];
                           xp[1] = -r * x[1];
                         })));
    if (section) sys.add_guard(m, *section);
    return sys;
  }
  HybridSystem build_with_sigma_state(const Guard* section) const {
    HybridSystem sys;
    const double a = A, om = w, r = e;
    const ModeId m =
        sys.add_mode("free", ode_flow(3, [a, om](const auto& t, const auto& x, auto& xd) {
                       using std::cos;
                       xd[0] = x[1];
                       xd[1] = -x[0] + a * cos(om * t);
                       xd[2] = 0.0 * x[2];
                     }));
    sys.add_guard(m, make_guard(
                         "stop", Direction::Rising,
                         [](const auto&, const auto& x, const auto&) { return x[0] - x[2]; },
                         Reset::to_ad(m, [r](const auto&, const auto& x, const auto&, auto& xp) {
                           xp[0] = x[0];
                           xp[1] = -r * x[1];
                           xp[2] = x[2];
                         })));
    if (section) sys.add_guard(m, *section);
    return sys;
  }
  double period() const { return 2.0 * std::numbers::pi / w; }
  // Grazing of the period-1 orbit: the free response P cos(w t) touches the stop.
  double grazing_sigma() const { return std::abs(A / (1.0 - w * w)); }
  // Trace of the monodromy of the closed-form orbit [derived]: M = R(T - tau) S R(tau) with the
  // rotation R(s) of x'' + x = 0 and S = [[-e, 0], [k, -e]], k = (1 + e)(A cos phi - sigma)/V,
  // so tr M = tr(S R(T)) = -2 e cos T + k sin T; det M = e^2. Period doubling: tr M = -(1 + e^2).
  double monodromy_trace() const {
    const Orbit o = closed_form();
    const double T = period(), k = (1.0 + e) * (A * std::cos(o.phase) - sigma) / o.speed;
    return -2.0 * e * std::cos(T) + k * std::sin(T);
  }

  // The admissible period-1 orbit: impact phase in [0, 2 pi), impact speed V > 0, and the state
  // at t = 0 (the stroboscopic fixed point).
  struct Orbit {
    double phase = kNaN, speed = kNaN;
    Vector state_at_zero;
    double c1 = kNaN, c2 = kNaN, P = kNaN, w = kNaN;
    // The orbit at time t: s = t - tau (mod T) after the last impact, w s + phi = w t (mod 2 pi).
    Vector state_at(double t) const {
      const double T = 2.0 * std::numbers::pi / w;
      const double s = std::fmod(std::fmod(t - phase / w, T) + T, T);
      return (Vector(2) << c1 * std::cos(s) + c2 * std::sin(s) + P * std::cos(w * t),
              -c1 * std::sin(s) + c2 * std::cos(s) - P * w * std::sin(w * t))
          .finished();
    }
  };
  Orbit closed_form() const {
    const double P = A / (1.0 - w * w), t2 = std::tan(period() / 2.0);
    const double a = (1.0 - e) * t2 * P, b = (1.0 + e) * P * w;
    const double delta = std::atan2(b, a), c = (1.0 - e) * t2 * sigma / std::hypot(a, b);
    for (const double sign : {1.0, -1.0}) {
      Orbit o;
      o.phase =
          std::fmod(delta + sign * std::acos(c) + 4.0 * std::numbers::pi, 2.0 * std::numbers::pi);
      const double C = std::cos(o.phase), S = std::sin(o.phase);
      o.speed = (P * w * S - (sigma - P * C) * t2) / e;
      if (!(o.speed > 0.0)) continue;
      // Free motion from the impact: x(s) = c1 cos s + c2 sin s + P cos(w s + phi).
      const double c1 = sigma - P * C, c2 = P * w * S - e * o.speed;
      o.c1 = c1;
      o.c2 = c2;
      o.P = P;
      o.w = w;
      const double s = period() - o.phase / w;  // t = 0 is s = T - tau after the impact
      o.state_at_zero = Vector(2);
      o.state_at_zero << c1 * std::cos(s) + c2 * std::sin(s) + P,
          -c1 * std::sin(s) + c2 * std::cos(s);  // w s + phi = 2 pi at t = 0
      return o;
    }
    return {};
  }
};

}  // namespace saltus::testing
