// The energising wall shared by the section-shooting tests: a damped oscillator
// x'' + c x' + x = 0 in x <= 0 against a wall at x = 0 that returns it with an added speed,
// v -> -(v + k). Closed form [derived]: leaving the wall with speed u, x = -(u/w_d) e^{-c t/2}
// sin(w_d t), w_d = sqrt(1 - c^2/4), returns after T = pi / w_d with speed u q, q = e^{-c pi /
// (2 w_d)}; the limit cycle has u = k / (1 - q). Its nontrivial Floquet multiplier is q (the speed
// map u -> q u + k; also det S e^{-c T} = (u / (q u)) q^2 = q), the trivial one is 1. The
// section v = 0 rising is the minimum of x, at t_m = atan2(2 w_d, c) / w_d after the wall.
#pragma once

#include <cmath>
#include <numbers>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::testing {

struct EnergisingWall {
  double c = 0.3, k = 1.0;
  double w_d() const { return std::sqrt(1.0 - c * c / 4.0); }
  double q() const { return std::exp(-c * std::numbers::pi / (2.0 * w_d())); }
  double period() const { return std::numbers::pi / w_d(); }
  double u() const { return k / (1.0 - q()); }
  // The limit cycle's point on the section: the minimum of x.
  Vector section_point() const {
    const double t = std::atan2(2.0 * w_d(), c) / w_d();
    Vector x(2);
    x << -u() / w_d() * std::exp(-c * t / 2.0) * std::sin(w_d() * t), 0.0;
    return x;
  }
  // The wall x = 0 crossed rising: v+ = -(v- + k).
  void add_wall(HybridSystem& sys, ModeId m) const {
    const double kick = k;
    sys.add_guard(m, make_guard(
                         "wall", Direction::Rising,
                         [](const auto&, const auto& x, const auto&) { return x[0]; },
                         Reset::to_ad(m, [kick](const auto&, const auto& x, const auto&, auto& xp) {
                           xp[0] = x[0];
                           xp[1] = -(x[1] + kick);
                         })));
  }
  HybridSystem build() const {
    HybridSystem sys;
    const double damping = c;
    const ModeId m =
        sys.add_mode("free", ode_flow(2, [damping](const auto&, const auto& x, auto& xd) {
                       xd[0] = x[1];
                       xd[1] = -x[0] - damping * x[1];
                     }));
    add_wall(sys, m);
    return sys;
  }
  // The same with the acceleration as an algebraic state: x' = v, v' = z, 0 = z + x + c v (z
  // jumps with v at the wall and is solved again there).
  HybridSystem build_dae() const {
    HybridSystem sys;
    const double damping = c;
    const ModeId m =
        sys.add_mode("free", semi_explicit_flow(
                                 2, 1,
                                 [](const auto&, const auto& x, const auto& z, auto& xd) {
                                   xd[0] = x[1];
                                   xd[1] = z[0];
                                 },
                                 [damping](const auto&, const auto& x, const auto& z, auto& res) {
                                   res[0] = z[0] + x[0] + damping * x[1];
                                 }));
    add_wall(sys, m);
    return sys;
  }
};

}  // namespace saltus::testing
