// Return maps of a hybrid system, x -> P(x), with their Jacobian DP (no derivative written by the
// user: arcs and saltation matrices, hybrid_sensitivity.hpp) and what the orbit did on the way:
//  - stroboscopic: P(x) = x(t0 + T; t0, x), for systems forced with period T;
//  - section: P(x) = the state where the flow from (t0, x) first crosses the section guard (in its
//    direction) after at least `min_time`, for autonomous systems (the period is the unknown
//    return time). The section is added to every mode of a copy of the system as a terminal
//    observer (a mechanical model changes mode at each contact), so DP is the Poincare map's
//    derivative (saltation with f+ = 0 at the stop); a return in another mode than the start's
//    is a failure naming both.
// A terminal event other than the section (a model's terminal guard) ends an evaluation with a
// failure naming it (MapValue::terminal_guard), never as the map's value.
// Grazing evidence along the orbit: the smallest crossing rate |P_t + P_x f-| of its resets (the
// impact speed of an impact oscillator: -> 0 when an impact becomes tangential) and the closest
// approach of each guard between events, -p at the guard's local extrema towards firing (exact:
// observers on dp/dt = P_t + P_x f; ODE modes). An orbit that touches a guard tangentially has
// one of them -> 0 (grazing bifurcation).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "saltus/analysis/hybrid_sensitivity.hpp"

namespace saltus::analysis {

struct MapValue {
  SensitivityStatus status = SensitivityStatus::SimulationFailed;
  std::string message;  // why P or DP is undefined (event, time, value)
  Vector x;             // P(x)
  Matrix jacobian;      // DP (empty unless ok)
  double return_time = kNaN;
  long resets = 0;                    // resets between x and P(x)
  std::vector<double> reset_times;    // their instants (absolute t), in order
  std::vector<std::string> sequence;  // the guard of each reset, in order (a layer's kind)
  // Section maps: crossings of the section in its direction before the return (during
  // min_time, after the start): 0 when P is the first return.
  long section_crossings = 0;
  double min_crossing_rate = kInfinity;  // over those resets
  double closest_approach = kInfinity;   // min over the guards' extrema on the arcs of -p
  ModeId mode = kNoMode;                 // the mode the run ended in
  std::string terminal_guard;            // a terminal guard that stopped the run before its end
  // NotDifferentiable at a corner of the map (FlowMapSensitivity::corner_sides): x above is P(x)
  // and these are DP on each side, the side the run took first (Newton steps with it).
  std::vector<CornerSide> corner_sides;
  bool ok() const { return status == SensitivityStatus::Ok; }
  bool at_corner() const { return !ok() && !corner_sides.empty(); }
};

using ReturnMap = std::function<MapValue(const Vector& x)>;

// Modes with algebraic states z (index-1 DAE modes): the map acts on the differential states x
// only. Each evaluation makes z consistent with x at its start (0 = g(t0, x, z), Newton from
// `algebraic_guess`, zeros when empty), the engine re-initialises z after every reset, and DP is
// the derivative of x alone (the arcs' reduced Jacobian f_x - f_z g_z^-1 g_x, arc_transition.hpp),
// so its eigenvalues are the multipliers of the differential part. Closest approaches are
// observed in ODE modes only (the crossing rates in every mode).
//
// The map keeps a copy of `system` (with the observers it adds).
ReturnMap stroboscopic_map(const HybridSystem& system, ModeId mode, double t0, double period,
                           const SimulationOptions& options = {},
                           const SaltationOptions& saltation = {},
                           const Vector& algebraic_guess = Vector());

// x -> x(t1; t0, x) from `mode` at t0, whichever mode the run is in at t1 (MapValue::mode):
// moves a stroboscopic fixed point to another instant of its orbit (stroboscopic_phase.hpp).
ReturnMap transit_map(const HybridSystem& system, ModeId mode, double t0, double t1,
                      const SimulationOptions& options = {}, const SaltationOptions& saltation = {},
                      const Vector& algebraic_guess = Vector());

// Adds `section` to every mode of `system` as a terminal observer (its reset dropped).
void add_terminal_section(HybridSystem& system, Guard section);

// `section`: a guard whose value is the section (its reset is ignored); `horizon`: the longest
// return time tried (a section not crossed by then is a failure naming it). Throws saltus::Error
// unless 0 < min_time < horizon (a start on the section would otherwise return at once);
// section_start.hpp's first_return gives a min_time from the start's own return.
ReturnMap section_map(const HybridSystem& system, ModeId mode, double t0, Guard section,
                      double min_time, double horizon, const SimulationOptions& options = {},
                      const SaltationOptions& saltation = {},
                      const Vector& algebraic_guess = Vector());

}  // namespace saltus::analysis
