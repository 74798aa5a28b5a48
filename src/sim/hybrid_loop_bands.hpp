// HybridLoop's guard bands (included by hybrid_loop.hpp only; docs/ARCHITECTURE.md
// "Tolerances"): where the firing rule and the locator take a guard's value for zero.
#pragma once

#include "hybrid_loop.hpp"

namespace saltus::detail {

// The band of "on the surface" of every guard of mode m at the current state (GuardStates::
// band; docs/ARCHITECTURE.md "Tolerances"): events.guard_tolerance times the guard's scale
//   sum_i |dp/dx_i| S_i + sum_j |dp/dz_j| S_z,j + |dp/dt| |t|,
// S the run's state scales (state_scales.hpp), at least the component's atol: in the guard's
// own units, blind to states it does not read (a gap of a block at x = 1e8 keeps its band) and
// scaled with the model's units.
// Only the first events.band_states states count. A guard without a gradient has the band of
// the whole state (guard_band). A guard's offset (Guard::scale_offset) is set here from the same
// scale, and held until the next examination.
// The clock's resolution is not in the band: a guard read past its surface by no more than its
// rate times kClockUlps ulps of tau is taken as on it where that decides (GuardRates::
// clock_margin; computing it here for every guard cost the ball ensemble 3 to 7 %).
// Guard g's scale at the current state (NaN without a gradient); `clock_part`, when given,
// receives its term |dp/dt| |t|.
template <ode::DenseStepper S>
double HybridLoop<S>::guard_scale(const Guard& g, double t, double* clock_part) {
  if (!g.gradient) return kNaN;
  const Eigen::Index ns = band_state_count(options_.events, nx_);
  const double dpdt = g.gradient(t, x_.head(nx_), z_.head(nz_), dpdx_.head(nx_), dpdz_.head(nz_));
  double scale = std::abs(dpdt) * std::abs(t);
  if (clock_part != nullptr) *clock_part = scale;
  // A component never away from 0 in this run (all velocities of a start that sticks) is known
  // to its atol, not to 0: the slip velocity of 1e-30 a stick leaves must lie inside the band
  // of the guard that ends the slip, which a run scale of 1e-30 would make 1e-43 wide.
  const ode::StepperOptions& o = options_.stepper;
  for (Eigen::Index i = 0; i < ns; ++i) {
    const double atol = o.atol_per_component.size() > i ? o.atol_per_component[i] : o.atol;
    scale += std::abs(dpdx_[i]) * std::max(scales_.x(int(i)), atol);
  }
  for (int j = 0; j < nz_; ++j) scale += std::abs(dpdz_[j]) * scales_.z(j);
  return scale;
}

template <ode::DenseStepper S>
void HybridLoop<S>::note_bands(const Mode& m) {
  const double t = now();
  xdot_at_current_ = false;  // called where the guards are examined at a new state
  for (size_t k = 0; k < m.guards.size(); ++k) {
    const Guard& g = m.guards[k];
    double clock_part = 0.0;
    const double scale = guard_scale(g, t, &clock_part);
    const double band = options_.events.guard_tolerance * scale;
    guards_.band[k] = std::isfinite(band) ? band : this->band();
    // A grazing that no crossing follows is reported within the band of the state alone and
    // the clock's own resolution: the band's |dp/dt| |t| would make a run at t0 = 1e6 report
    // approaches 1e-6 away as touching (crossing_search.hpp).
    const double rate_t = std::abs(t) > 0.0 ? clock_part / std::abs(t) : 0.0;
    const double graze = options_.events.guard_tolerance * (scale - clock_part) +
                         kClockUlps * events::detail::ulp_of(t) * rate_t;
    guards_.graze_band[k] =
        std::isfinite(graze) ? std::min(graze, guards_.band[k]) : guards_.band[k];
    guards_.offset[k] =
        g.scale_offset != 0.0 && std::isfinite(scale) ? g.scale_offset * scale : 0.0;
  }
}

// At a step end where a state's scale at least doubled: the offsets grow with it (the bands wait
// for the next examination). A run that starts at q = 0 between two walls set its penetration
// level from a scale of 0, and the safeguard fired with the impact at the first wall. An offset
// only grows, so a rising guard's value only moves away from its trigger side: no crossing is
// made (a guard of another direction keeps its offset until the next examination).
template <ode::DenseStepper S>
void HybridLoop<S>::refresh_offsets(const Mode& m) {
  const double t = now();
  for (size_t k = 0; k < m.guards.size(); ++k) {
    const Guard& g = m.guards[k];
    if (g.scale_offset == 0.0 || g.direction != Direction::Rising) continue;
    const double scale = guard_scale(g, t);
    if (!std::isfinite(scale)) continue;
    const double offset = g.scale_offset * scale;
    guards_.p_start[k] -= offset - guards_.offset[k];
    guards_.offset[k] = offset;
  }
}

}  // namespace saltus::detail
