// The harmonically forced linear oscillator x'' + c x' + x = a cos(w t) with the damping c as a
// state of zero derivative (the continuation parameter), shared by the Neimark-Sacker tests.
// Closed forms [derived]: the T-periodic response (T = 2 pi / w) is x = Re(Z e^{i w t}),
// Z = a / (1 - w^2 + i c w), so the stroboscopic fixed point at t = 0 is (Re Z, -w Im Z). The
// monodromy of the time-T map is exp(A T), A = [[0, 1], [-1, -c]]: for |c| < 2 its multipliers
// are exp((-c/2 +- i sqrt(1 - c^2/4)) T), of modulus exp(-c T / 2), on the unit circle at c = 0
// with the angle T (mod 2 pi): a Neimark-Sacker point of the map at c = 0.
#pragma once

#include <cmath>
#include <complex>
#include <numbers>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::testing {

struct ForcedDampedOscillator {
  double a = 1.0, w = 2.5;

  HybridSystem build() const {
    HybridSystem sys;
    const double amplitude = a, om = w;
    sys.add_mode("free", ode_flow(3, [amplitude, om](const auto& t, const auto& x, auto& xd) {
                   using std::cos;
                   xd[0] = x[1];
                   xd[1] = -x[2] * x[1] - x[0] + amplitude * cos(om * t);
                   xd[2] = 0.0 * x[2];
                 }));
    return sys;
  }
  double period() const { return 2.0 * std::numbers::pi / w; }
  // (x, v, c) on the periodic response at t = 0.
  Vector fixed_point(double c) const {
    const std::complex<double> Z = a / std::complex<double>(1.0 - w * w, c * w);
    return (Vector(3) << Z.real(), -w * Z.imag(), c).finished();
  }
  // The multipliers' angle at c = 0 folded into (0, pi): the argument of the one with Im > 0.
  double crossing_angle() const {
    return std::abs(std::arg(std::exp(std::complex<double>(0.0, period()))));
  }
};

}  // namespace saltus::testing
