// The stroboscopic instant of a forced system's orbit, moved along the orbit (issue 46). The
// time-T map from t0 has a corner where a reset of the orbit sits at t0 (the start lies on the
// guard's surface): the vibrating table's impact drifts onto t = 0 as its period-1 orbit nears
// its fold, and a continuation at the file's instant stopped there. The same orbit taken at
// another instant t1 (its fixed point x(t1; t0, x*)) has the same multipliers and period, and
// its map is smooth while no reset sits at t1: a continuation re-times its map to the middle of
// the widest gap between the orbit's resets whenever one comes near the instant
// (orbit_continuation.hpp, continue_stroboscopic_orbit).
#pragma once

#include <functional>

#include "saltus/analysis/return_map.hpp"

namespace saltus::analysis {

struct StroboscopicFamily {
  double period = kNaN;
  // The time-T map from t0, starting in `mode`.
  std::function<ReturnMap(double t0, ModeId mode)> map_at;
  // x -> x(t1; t0, x) from `mode`, with its Jacobian and the mode at t1 (transit_map).
  std::function<MapValue(const Vector& x, double t0, double t1, ModeId mode)> transit;
};

// Both from `system`, as stroboscopic_map and transit_map build them.
StroboscopicFamily stroboscopic_family(const HybridSystem& system, double period,
                                       const SimulationOptions& options = {},
                                       const SaltationOptions& saltation = {},
                                       const Vector& algebraic_guess = Vector());

// The distance in time from the instants t0 and t0 + T to the nearest reset of `value` (a map
// evaluated from t0); infinity when there is none.
double reset_margin(const MapValue& value, double t0, double period);

// The instant in (t0, t0 + T) in the middle of the widest gap between the resets of `value`
// (t0 + T / 2 when there is none).
double quietest_instant(const MapValue& value, double t0, double period);

// Where a continuation re-times the map from t0 (orbit_continuation.hpp, bifurcation_curve.hpp):
// quietest_instant when a reset of `value` lies within T / (8 (resets + 1)) of t0 or t0 + T,
// NaN when every reset keeps clear of them.
double retiming_instant(const MapValue& value, double t0, double period);

}  // namespace saltus::analysis
