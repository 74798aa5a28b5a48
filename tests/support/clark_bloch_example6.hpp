// Clark-Bloch Example 6 (FORMULAS.md 5.7), shared by the oracle and the Zeno-classification
// tests: H = p_x (1 + x^2) + p_y^2 x / 2 on the strip y in [0, 1], p_y -> -p_y at each wall.
// x = tan(t + atan x0) blows up at the accumulation point (elastic spasmodic Zeno).
#pragma once

#include "saltus/core/hybrid_system.hpp"

namespace saltus::testing {

// State (x, y, p_x, p_y); one mode "free" (id 0) with guards "bottom" and "top".
inline HybridSystem elastic_spasmodic_example6() {
  HybridSystem sys;
  const ModeId m = sys.add_mode("free", ode_flow(4, [](const auto&, const auto& s, auto& d) {
                                  d[0] = 1.0 + s[0] * s[0];
                                  d[1] = s[3] * s[0];
                                  d[2] = -(2.0 * s[2] * s[0] + 0.5 * s[3] * s[3]);
                                  d[3] = 0.0;
                                }));
  auto flip = [m] {
    return Reset::to(m, [](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
      xp = x;
      xp[3] = -x[3];
    });
  };
  sys.add_guard(m, make_guard(
                       "bottom", Direction::Rising,
                       [](const auto&, const auto& s, const auto&) { return -s[1]; }, flip()));
  sys.add_guard(m, make_guard(
                       "top", Direction::Rising,
                       [](const auto&, const auto& s, const auto&) { return s[1] - 1.0; }, flip()));
  return sys;
}

// A horizon just before the accumulation time t_zeno (where the state blows up).
inline double just_before(double t_zeno) {
  return t_zeno - 1e-4 * (t_zeno > 1.0 ? t_zeno : 1.0);
}

}  // namespace saltus::testing
