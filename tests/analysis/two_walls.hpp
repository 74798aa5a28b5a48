// A point moving in the plane against the walls x = 0 and y = 0 (both reflect the velocity
// normal to them), shared by the tests of simultaneous crossings: x' = v_x, y' = v_y,
// v_x' = 0, v_y' = coupling v_x. With coupling 0 the axes are independent; with coupling 1 the
// order in which the walls are hit at one instant changes the motion to first order.
#pragma once

#include "saltus/core/hybrid_system.hpp"

namespace saltus::testing {

inline HybridSystem two_walls(double coupling = 0.0) {
  HybridSystem sys;
  const ModeId m =
      sys.add_mode("box", ode_flow(4, [coupling](const auto&, const auto& x, auto& xd) {
                     xd[0] = x[2];
                     xd[1] = x[3];
                     xd[2] = 0.0 * x[2];
                     xd[3] = coupling * x[2];
                   }));
  for (int axis : {0, 1}) {
    sys.add_guard(m, make_guard(
                         axis == 0 ? "x-wall" : "y-wall", Direction::Falling,
                         [axis](const auto&, const auto& x, const auto&) { return x[axis]; },
                         Reset::to_ad(m, [axis](const auto&, const auto& x, const auto&, auto& xp) {
                           for (int i = 0; i < 4; ++i) xp[i] = x[i];
                           xp[2 + axis] = -x[2 + axis];
                         })));
  }
  return sys;
}

}  // namespace saltus::testing
