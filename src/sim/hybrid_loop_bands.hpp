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
// the whole state (guard_band). A guard's offset (Guard::scale_offset) is set here from the same
// scale, and held until the next examination.
// The clock's resolution is not in the band: a guard read past its surface by no more than its
// rate times kClockUlps ulps of tau is taken as on it where that decides (GuardRates::
// clock_margin; computing it here for every guard cost the ball ensemble 3 to 7 %).
template <ode::DenseStepper S>
void HybridLoop<S>::note_bands(const Mode& m) {
  const Eigen::Index ns = band_state_count(options_.events, nx_);
  const double t = now();
  xdot_at_current_ = false;  // called where the guards are examined at a new state
  for (size_t k = 0; k < m.guards.size(); ++k) {
    const Guard& g = m.guards[k];
    double scale = kNaN;
    if (g.gradient) {
      const double dpdt =
          g.gradient(t, x_.head(nx_), z_.head(nz_), dpdx_.head(nx_), dpdz_.head(nz_));
      scale = std::abs(dpdt) * std::abs(t);
      for (Eigen::Index i = 0; i < ns; ++i) scale += std::abs(dpdx_[i]) * scales_.x(int(i));
      for (int j = 0; j < nz_; ++j) scale += std::abs(dpdz_[j]) * scales_.z(j);
    }
    const double band = options_.events.guard_tolerance * scale;
    guards_.band[k] = std::isfinite(band) ? band : this->band();
    guards_.offset[k] =
        g.scale_offset != 0.0 && std::isfinite(scale) ? g.scale_offset * scale : 0.0;
  }
}

}  // namespace saltus::detail
