// The saltation matrix of one event: the derivative of the hybrid flow across a jump.
//
// A trajectory of mode m- reaches the guard p(t, x, z) = 0 at t* and jumps to x+ = R(t*, x-, z-)
// in mode m+. A perturbation dx of the pre-event state (taken at the nominal t*) shifts the
// crossing by dt* = -(P_x dx) / (P_t + P_x f-), from p(t* + dt*, x- + dx + f- dt*) = 0, and after
// the jump (compared at the same time with the nominal post-event trajectory)
//   dx+ = DR_x (dx + f- dt*) + DR_t dt* - f+ dt*,  so
//   S = DR_x + (f+ - DR_x f- - DR_t) P_x / (P_t + P_x f-)          (nx+ by nx-)
// with f- = phi-(t*, x-), f+ = phi+(t*, x+) the mode's state-space vector fields (FlowEvaluator:
// z solved from the constraints), and for modes with algebraic states z = z(t, x) the total
// derivatives P_x = p_x + p_z dz/dx, P_t = p_t + p_z dz/dt, DR_x = R_x + R_z dz/dx,
// DR_t = R_t + R_z dz/dt, where dz/dx = -g_z^-1 g_x and dz/dt = -g_z^-1 g_t (seed 003 Def. 9 and
// Theorem 14 in coordinates; FORMULAS.md 12.3-12.4). For an identity reset between two modes
// this is Filippov's Id + (f+ - f-) P_x / (P_x f-), det S = P_x f+ / P_x f- (Theorem 14). When
// the run stops at the event (a terminal guard or observer) f+ = 0: S is then the derivative of
// the state at the (state-dependent) stopping time, e.g. a Poincare map's.
//
// DR comes from Reset::jacobian (AD for Reset::to_ad, symbolic for model files) or the identity
// for identity resets, the guard gradient from Guard::gradient; a reset or guard without one is
// NotDifferentiable unless SaltationOptions::allow_numerical_derivatives permits central
// differences (mechanical impact laws, reset_jacobian.hpp).
//
// The hybrid Jacobian (Clark-Bloch Def. 9, coordinate volume) is J = det S when nx+ = nx-.
// A crossing with P_t + P_x f- = 0 (grazing) has no saltation matrix: status Grazing, no NaN.
#pragma once

#include <span>
#include <string>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/sim/event_log.hpp"

namespace saltus::analysis {

enum class SensitivityStatus {
  Ok,                 // every matrix is finite and defined
  Grazing,            // an event crossed its guard tangentially: P_t + P_x f- ~ 0
  ZenoPoint,          // the run reached a Zeno point (accumulation or hand-over)
  NotDifferentiable,  // a reset failed or changed target under a small perturbation
  SimulationFailed,   // the run itself did not reach t_end or a terminal event
  IntegrationFailed,  // the variational equations of an arc could not be integrated
};

const char* to_string(SensitivityStatus status);

struct SaltationOptions {
  // Grazing when |P_t + P_x f-| <= grazing_tolerance (|P_t| + |P_x| |f-|): the relative rate at
  // which the trajectory crosses the guard. Below it S would be dominated by rounding.
  double grazing_tolerance = 1e-9;
  // Derivatives are exact (AD or symbolic) or not at all: a reset without Reset::jacobian or a
  // guard without Guard::gradient gives status NotDifferentiable naming it. true allows the
  // documented fallback, central differences of Reset::apply / Guard::value (relative error
  // ~4e-11), flagged per event (numerical_reset_jacobian): for impact laws solved by an LCP or a
  // Routh process, which have no derivative yet.
  bool allow_numerical_derivatives = false;
};

struct Saltation {
  SensitivityStatus status = SensitivityStatus::Ok;
  std::string message;
  Matrix matrix;                          // S, nx+ by nx- (empty unless status is Ok)
  double hybrid_jacobian = kNaN;          // det S when nx+ = nx-, else NaN
  double crossing_rate = kNaN;            // P_t + P_x f-: dp/dt along the pre-event flow
  bool numerical_reset_jacobian = false;  // DR or P_x by central differences (allowed only)
};

// The saltation matrix of event `i` of `events`, logged by a run of `system`. `run_stops_here`:
// the run ended at this event (f+ = 0, see above). An observation has S = I; a Zeno hand-over
// has none (status ZenoPoint).
Saltation event_saltation(const HybridSystem& system, const EventLog& events, long i,
                          bool run_stops_here, const SaltationOptions& options = {});

// The saltation matrix of resets logged at one instant, `chain` (indices into `events`, in
// order), where each reset after the first was carried across by the one before it: its guard
// already lay beyond its surface at the state that reset left (hybrid_sensitivity.hpp decides
// which). Their instant is the first's at every start near this one, so the jump is the
// composite R = R_K o ... o R_1 and
//   S = DR_x + (f+ - DR_x f- - DR_t) P_x / (P_t + P_x f-),
// DR_x = DR_K,x ... DR_1,x and DR_t = DR_K,t + DR_K,x DR_(K-1),t + ... by the chain rule, with
// the first event's guard, rate and f-, and f+ of the mode the last one enters. (The product of
// the events' own matrices S_K ... S_1 is not this: it takes each later event's instant from its
// own guard, which the perturbed start does not cross.) A chain of one is event_saltation.
Saltation instant_saltation(const HybridSystem& system, const EventLog& events,
                            std::span<const long> chain, bool run_stops_here,
                            const SaltationOptions& options = {});

}  // namespace saltus::analysis
