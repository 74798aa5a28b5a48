// The Jacobian of the hybrid flow map x0 -> x(t_end) of a whole run, with no derivative written
// by the user: the product of the arcs' state-transition matrices (arc_transition.hpp) and the
// events' saltation matrices (saltation.hpp) in the order of the run,
//   D phi = Phi_K S_K Phi_{K-1} ... S_1 Phi_0.
// Systems whose modes are all ODEs of one dimension (no algebraic states, no Zeno hand-over) are
// differentiated in one pass: the run integrates (x, Phi) and each reset maps Phi by S
// (src/analysis/one_pass_sensitivity.hpp); the others in two: the run, then each arc again.
// Observations (observer guards) leave it unchanged. A run ending at a terminal event gives the
// derivative of the state at that (state-dependent) time: the map to a Poincare section.
// Differentiability needs transversal crossings. Resets at one instant are differentiated
// together when each after the first was carried across by the reset before it (its guard lay
// beyond its surface, by more than 1e-6 of the guard's scale, at the state that reset left:
// a stick whose force is already out of the cone slips at once, every start nearby alike);
// their composite has one saltation matrix (saltation.hpp, instant_saltation). A reset that met
// its surface at the instant of another (simultaneous crossings, a jump landing on the next
// guard) is a corner: SensitivityStatus::NotDifferentiable naming both events and t, with the
// corner's one-sided derivatives where they are known (FlowMapSensitivity::corner_sides).
//
// The hybrid Jacobian of each event (Clark-Bloch Def. 9) is det S; the phase-volume factor of
// the run is det D phi (= product of the events' det S times exp(integral of div f) on the arcs).
#pragma once

#include <string>
#include <vector>

#include "saltus/analysis/saltation.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::analysis {

struct EventSensitivity {
  long event = 0;  // index in the run's event log
  double t = kNaN;
  ModeId mode_before = kNoMode, mode_after = kNoMode;
  GuardId guard = kZenoHandoverGuard;
  Matrix saltation;               // nx+ by nx-
  double hybrid_jacobian = kNaN;  // det S (NaN when nx+ != nx-)
  double crossing_rate = kNaN;    // P_t + P_x f-: how fast the guard was crossed
  bool numerical_reset_jacobian = false;
  // Resets carried across by this one at its instant are composed with it (instant_saltation):
  // `saltation` then spans events `event` to `last_event` (== event when it stands alone) and
  // mode_after is the last one's.
  long last_event = -1;
  int resets = 1;  // the resets composed (1 when it stands alone)
};

// One side of a corner of the flow map: the derivative of the starts that take `sequence`.
struct CornerSide {
  std::string sequence;  // the events at the corner, in the order this side takes them
  Matrix jacobian;
};

struct FlowMapSensitivity {
  SensitivityStatus status = SensitivityStatus::SimulationFailed;
  std::string message;  // why the Jacobian is missing, naming the event, time and values
  SimulationResult run;
  Matrix flow_map_jacobian;              // dx(t_final)/dx0: nx of the final mode by nx of the first
  std::vector<EventSensitivity> events;  // every reset, in order (observations left out)
  double volume_factor = kNaN;           // det of flow_map_jacobian (when square)
  double impact_volume_factor = 1.0;     // product of the events' hybrid Jacobians
  // Largest |x_arc(t_event) - x_log(t_event)| / (1 + |x|) over the arcs: how far the variational
  // integration's state drifted from the run's (a few tolerances when all is well; 0 in one pass,
  // where the arcs are the run).
  double arc_state_mismatch = 0.0;
  // NotDifferentiable at one corner (reset_instants.hpp): its one-sided derivatives, the side
  // the run took first; both sides where a jump landed on the next guard's surface, the order
  // fired and, where it is defined and ends in the same state, the other order, where two
  // surfaces were crossed at one instant. Empty otherwise. Never the
  // flow map's derivative: each holds only for the starts on its side.
  std::vector<CornerSide> corner_sides;
  bool ok() const { return status == SensitivityStatus::Ok; }
};

// Runs `system` from (t0, x0) in `mode` to t_end (events are recorded whatever `options` says)
// and differentiates the run. z0: guess for the algebraic state (may be empty).
FlowMapSensitivity flow_map_sensitivity(const HybridSystem& system, ModeId mode, double t0,
                                        ConstVectorRef x0, double t_end,
                                        const SimulationOptions& options = {},
                                        ConstVectorRef z0 = Vector(),
                                        const SaltationOptions& saltation = {});

}  // namespace saltus::analysis
