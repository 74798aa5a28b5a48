// Arming state of a guard between steps (DESIGN.md "re-triggering"; simulator.hpp step 4),
// private to src/sim.
#pragma once

#include <algorithm>
#include <vector>

#include "saltus/core/guard.hpp"
#include "saltus/events/event_options.hpp"

namespace saltus::detail {

enum class Arming {
  Armed,                    // monitored for a crossing
  AtZero,                   // within guard_tolerance of zero after a reset: waits to leave the band
  OnTriggerSideAfterReset,  // on its trigger side after its own reset: waits to move away
  Leaving,                  // on the surface and moving away (rate known): armed at the first s < 0
};

// Orientation of a guard: s = sign * p is "rising" for the guard's trigger direction.
inline double oriented(Direction d, double p) {
  return d == Direction::Falling ? -p : p;
}
inline double orientation(Direction d) {
  return d == Direction::Falling ? -1.0 : 1.0;
}
// The band |p| <= band that counts as "on the surface" of a guard without gradient:
// events.guard_tolerance relative to the state's magnitude max(1, |x|_inf) (a guard with a
// gradient has its own band, HybridLoop::note_bands). Only the first events.band_states states
// count when that is set (event_options.hpp).
inline Eigen::Index band_state_count(const events::EventOptions& options, Eigen::Index nx) {
  return options.band_states > 0 ? std::min<Eigen::Index>(options.band_states, nx) : nx;
}
inline double guard_band(const events::EventOptions& options, const ConstVectorRef& x) {
  const Eigen::Index n = band_state_count(options, x.size());
  return options.guard_tolerance * std::max(1.0, n ? x.head(n).lpNorm<Eigen::Infinity>() : 0.0);
}

// The guards of the current mode between steps; owned by the simulator loop, read by the
// event locator, advanced by both.
struct GuardStates {
  explicit GuardStates(int max_guards)
      : arming(max_guards),
        p_start(max_guards),
        leave_sign(max_guards),
        band(max_guards),
        graze_band(max_guards),
        offset(max_guards, 0.0) {}
  std::vector<Arming> arming;
  std::vector<double> p_start;     // guard value at the start of the next step
  std::vector<double> leave_sign;  // Leaving: the orientation in which s departs below zero
  std::vector<double> band;        // "on the surface": |p| <= band, set where guards are examined
  std::vector<double> graze_band;  // a grazing without crossing: max p in [-graze_band, 0)
  // Guard::scale_offset x the guard's scale, set with band: what the engine subtracts from p.
  std::vector<double> offset;
};

}  // namespace saltus::detail
