// The corridor: a particle bouncing between walls at x = 0 and x = 1 (x' = v, v' = 0; v -> -v
// at x = 1 moving right and at x = 0 moving left), whose time-1 maps have a closed form (unfold:
// y = x0 + v t mod 2, x = y or 2 - y). Shared by the invariant-density tests.
#pragma once

#include <cmath>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::test {

struct Corridor {
  HybridSystem system;
  ModeId mode = kNoMode;
};

inline Corridor corridor() {
  Corridor c;
  c.mode = c.system.add_mode("flight", ode_flow(2, [](const auto&, const auto& x, auto& xdot) {
                               xdot[0] = x[1];
                               xdot[1] = 0.0 * x[1];
                             }));
  const auto bounce = Reset::to(c.mode, [](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
    xp[0] = x[0];
    xp[1] = -x[1];
  });
  c.system.add_guard(
      c.mode, make_guard(
                  "right", Direction::Rising,
                  [](const auto&, const auto& x, const auto&) { return x[0] - 1.0; }, bounce));
  c.system.add_guard(c.mode,
                     make_guard(
                         "left", Direction::Rising,
                         [](const auto&, const auto& x, const auto&) { return -x[0]; }, bounce));
  return c;
}

// Closed form of the corridor at time t from (x0, v0 > 0).
inline Eigen::Vector2d corridor_at(double x0, double v0, double t) {
  const double y = std::fmod(x0 + v0 * t, 2.0);
  return y < 1.0 ? Eigen::Vector2d(y, v0) : Eigen::Vector2d(2.0 - y, -v0);
}

}  // namespace saltus::test
