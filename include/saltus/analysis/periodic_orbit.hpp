// Periodic orbits of a hybrid system by Newton shooting on a return map (return_map.hpp): solve
// P(x) - x = 0 with the Jacobian DP - I, where DP is the flow-map Jacobian of
// hybrid_sensitivity.hpp (arcs and saltation matrices, no derivative written by the user).
//  - stroboscopic (systems forced with period T): P(x) = x(t0 + T; t0, x). At the fixed point DP
//    is the monodromy matrix; its eigenvalues are the Floquet multipliers (|lambda| < 1 for all:
//    asymptotically stable; their product is det DP, the phase-volume factor of one period).
//  - on a Poincare section (autonomous systems, the period unknown): DP is the Poincare map's
//    derivative; its eigenvalues are the nontrivial Floquet multipliers and a 0 in place of the
//    trivial multiplier 1 (the flow direction, projected out by the section).
// A fixed point of P^k (period-k orbits): period = k T.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "saltus/analysis/return_map.hpp"

namespace saltus::analysis {

enum class ShootingStatus {
  Converged,         // |P(x) - x| <= tolerance (1 + |x|)
  NotConverged,      // max_iterations reached; the message gives the last residual
  SingularNewton,    // DP - I is singular (a multiplier at 1: a fold)
  MapFailed,         // P or DP is undefined at an iterate (grazing, failed run); its message
  TerminalEvent,     // a terminal guard stopped the run from an iterate before its return
  LineSearchFailed,  // no step length along the Newton direction lowers the residual
};

const char* to_string(ShootingStatus status);

struct ShootingOptions {
  int max_iterations = 30;
  // Converged when max|P(x) - x| <= tolerance (1 + max|x|); keep it above the run's accuracy
  // (about 100 x rtol) or the residual cannot reach it.
  double tolerance = 1e-9;
  // Newton steps are scaled down so that no component moves by more than this (a step that
  // jumps across a guard changes the event sequence and the map's branch).
  double max_step = kInfinity;
  // Damped Newton: the step is halved (down to min_damping) until the residual's 2-norm falls,
  // |r(x + l s)| <= (1 - 1e-4 l) |r(x)|; an iterate where the map is undefined counts as no fall.
  // A full step that lowers it is taken as it is, so a Newton that converged undamped is unchanged.
  double min_damping = 1.0 / 1024.0;
  // Cyclic coordinates (orbits modulo a translation): left out of the periodicity condition and
  // held at the guess's value; their drift per period, P(x)_k - x_k, is reported. The map must
  // be invariant under their translation (column k of DP = e_k; checked: cyclic_column_error).
  std::vector<int> cyclic;
};

// One side of a fixed point on a corner of the map (MapValue::corner_sides).
struct CornerMultipliers {
  std::string sequence;          // the events at the corner, in this side's order
  Matrix monodromy;              // DP on this side
  Eigen::VectorXcd multipliers;  // its eigenvalues (on the free states), by decreasing modulus
};

struct PeriodicOrbit {
  double period = kNaN;                  // return time of the map at x
  double min_crossing_rate = kInfinity;  // grazing evidence (return_map.hpp)
  double closest_approach = kInfinity;
  ShootingStatus status = ShootingStatus::NotConverged;
  std::string message;
  Vector x;                // the fixed point (state at t0)
  double residual = kNaN;  // max|P(x) - x| at x
  int iterations = 0;
  Matrix monodromy;              // DP at x
  Eigen::VectorXcd multipliers;  // eigenvalues of the monodromy, by decreasing modulus
  // States the map leaves unchanged whatever the start (row k of DP = e_k: rate 0, no reset
  // changes it, e.g. a parameter kept as a state). Newton keeps them fixed, and the multipliers
  // leave out their trivial 1 (DP is block-triangular).
  std::vector<int> constant_states;
  long events_per_period = 0;  // resets in one period
  // Section maps: crossings of the section in its direction inside the period before the one
  // that closes it (MapValue::section_crossings); > 0: a fixed point of a higher return map.
  long section_crossings = 0;
  ModeId mode = kNoMode;  // the mode the orbit returns in
  Vector drift;           // per cyclic coordinate (ShootingOptions::cyclic), at x
  // Per cyclic coordinate k: max_i |DP(i, k) - delta_ik|, 0 when the map is invariant under its
  // translation (otherwise the orbit found depends on the value it was held at).
  Vector cyclic_column_error;
  int line_search_halvings = 0;  // over all iterations (0: undamped Newton)
  // A fixed point on a corner of the map (two resets meet at one instant there and nearby starts
  // part): `corner` names the events; `corner_sides` holds each side's multipliers, and
  // monodromy and multipliers above are the first side's (the side the run took). Newton steps
  // with that side's derivative wherever an iterate lies on a corner (a generalized Jacobian's
  // element: each side's is the derivative of the smooth map that side follows).
  std::string corner;
  std::vector<CornerMultipliers> corner_sides;
  bool converged() const { return status == ShootingStatus::Converged; }
};

// Fixed point of `map`, damped Newton from `guess` (without cyclic states: P(x) = x; with them:
// P(x)_k = x_k for the others).
PeriodicOrbit find_fixed_point(const ReturnMap& map, const Vector& guess,
                               const ShootingOptions& shooting = {});

// Eigenvalues by decreasing modulus.
Eigen::VectorXcd floquet_multipliers(const Matrix& monodromy);

// Fixed point on the section `section` (return_map.hpp: section_map), Newton from `guess`.
PeriodicOrbit shoot_on_section(const HybridSystem& system, ModeId mode, double t0,
                               const Guard& section, double min_time, double horizon,
                               const Vector& guess, const SimulationOptions& options = {},
                               const ShootingOptions& shooting = {});

// Fixed point of the time-`period` map of `mode` from t0, Newton from `guess`.
PeriodicOrbit shoot_stroboscopic(const HybridSystem& system, ModeId mode, double t0, double period,
                                 const Vector& guess, const SimulationOptions& options = {},
                                 const ShootingOptions& shooting = {});

}  // namespace saltus::analysis
