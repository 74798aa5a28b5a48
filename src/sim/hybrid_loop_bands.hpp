// HybridLoop's guard bands (included by hybrid_loop.hpp only; docs/ARCHITECTURE.md
// "Tolerances"): where the firing rule and the locator take a guard's value for zero.
#pragma once

#include "hybrid_loop.hpp"

namespace saltus::detail {

// The band of "on the surface" of every guard of mode m at the current state (GuardStates::
// band; docs/ARCHITECTURE.md "Tolerances"): events.guard_tolerance times the guard's scale
//   sum_i |dp/dx_i| S_i + sum_j |dp/dz_j| S_z,j + |dp/dt| |t|,
// S the run's state scales (state_scales.hpp): in the guard's own units, blind to states it
// does not read (a gap of a block at x = 1e8 keeps its band) and scaled with the model's units.
// Only the first events.band_states states count. A guard without a gradient has the band of
// the whole state (guard_band).
//   Plus the resolution of the clock: an event's left limit lies up to the root bracket
// (RootOptions::ulps of tau) before the crossing, so a guard on the same surface reads up to
// |dp/dt along the flow| x that much (a mode switched at tau = 1e5 leaves the next mode's guard
// 3e-11 on its trigger side at 1 m/s): kClockUlps ulps of tau times the guard's rate, with x'
// from the dense output at the event's left limit (`at_left_limit`) or from the flow (offered
// to the restart that follows, which then does not evaluate it again).
template <ode::DenseStepper S>
void HybridLoop<S>::note_bands(const Mode& m, bool at_left_limit) {
  const Eigen::Index ns = band_state_count(options_.events, nx_);
  const double t = now();
  const double clock = kClockUlps * events::detail::ulp_of(t_);
  bool rates = clock > 0.0;
  if (rates && at_left_limit) {
    stepper_.interpolate_derivative(t_, xdot_.head(nx_));
  } else if (rates) {
    rates = stepper_.evaluator().derivative(t_, x_.head(nx_), xdot_.head(nx_));
    if constexpr (requires { stepper_.offer_derivative(t_, x_, x_); }) {
      if (rates) stepper_.offer_derivative(t_, x_.head(nx_), xdot_.head(nx_));
    }
  }
  for (size_t k = 0; k < m.guards.size(); ++k) {
    const Guard& g = m.guards[k];
    double scale = kNaN, rate = 0.0;
    if (g.gradient) {
      const double dpdt =
          g.gradient(t, x_.head(nx_), z_.head(nz_), dpdx_.head(nx_), dpdz_.head(nz_));
      scale = std::abs(dpdt) * std::abs(t);
      for (Eigen::Index i = 0; i < ns; ++i) scale += std::abs(dpdx_[i]) * scales_.x(int(i));
      for (int j = 0; j < nz_; ++j) scale += std::abs(dpdz_[j]) * scales_.z(j);
      if (rates) rate = std::abs(dpdx_.head(nx_).dot(xdot_.head(nx_)) + dpdt);
    }
    const double band = options_.events.guard_tolerance * scale + clock * rate;
    guards_.band[k] = std::isfinite(band) ? band : this->band();
  }
}

}  // namespace saltus::detail
