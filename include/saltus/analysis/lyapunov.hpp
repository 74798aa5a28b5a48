// Lyapunov exponents of a hybrid run: Benettin's / Shimada-Nagashima's QR method with the
// saltation matrix of every event in the tangent map (Mueller 1995, "Calculation of Lyapunov
// exponents for dynamic systems with discontinuities"; Dellago, Posch and Hoover 1996 for
// billiards).
//
// The run from (t0, x0) is cut into windows [t_k, t_k+1] on the grid t0 + k tau (computed from k:
// no drift), t0 + transient and t_end. Each window is differentiated by flow_map_sensitivity
// (hybrid_sensitivity.hpp: one pass for ODE modes of one dimension, else the run then each arc):
// J_k = Phi S ... S Phi, from the window's start state, which is the previous window's end
// state. Then J_k Q_k = Q_k+1 R_k (Eigen's HouseholderQR, the signs chosen so that diag R > 0) and
// lambda_i = sum_k log R_k,ii / (t_end - t0 - transient) over the windows after the transient
// (the windows before it only turn Q towards the Oseledets directions). A window with more than
// max_events_per_window resets is cut halfway between its K-th and (K+1)-th and differentiated
// again, so that no tangent map multiplies more than K saltation matrices before the next QR.
// Exponents are per unit time of the model; they are returned by decreasing value.
//
// Assumptions and what is reported instead of a number (status and message, exponents empty):
//  - one state dimension: every mode the run visits has the size of x0 (the first window that
//    ends in a mode of another size is status DimensionChanged, naming the mode and t);
//  - differentiable events: a grazing impact, a Zeno point (accumulation or hand-over),
//    simultaneous resets (a corner of the flow map), a reset without a derivative, a failed run
//    or variational integration end the computation with flow_map_sensitivity's status, its
//    message prefixed with the window, the checkpoints up to there kept;
//  - singular events: a reset with |det S| <= singular_event_tolerance (det S is dimensionless:
//    a plastic impact, e = 0; entering a Filippov sliding mode m[h=0;...] of a flow written with
//    sign(), whose saltation maps every perturbation onto the surface, det S = P_x f+ / P_x f- =
//    0) may take a dimension away. In its window the columns of the QR with R_ii <= 1e-12
//    |J_k|_F (with one state: the state) are collapsed directions: exponent -infinity, the
//    column dropped, the others go on in the image (message: the first such reset, its t and
//    det S). A singular reset whose kernel holds no direction still tracked (the flow
//    direction, when a stick-slip cycle sticks again) collapses nothing more.
//    Sliding modes are otherwise modes like any other (the saltation matrices at entering and
//    leaving them are the engine's). Tested: models/relay_sign.toml (1 state) and
//    models/dry_friction_sign.toml (2 states, sticking twice); not tested: the exponents of a
//    motion that slides along a surface for long.
//  - a window without a singular event whose R_ii falls to 64 eps |J_k Q_k|_F has lost that
//    direction to rounding (the window is too long for the contraction, or an impact nearly
//    grazes): status IntegrationFailed, never a number without digits.
// tau must keep exp((lambda_1 - lambda_n) tau) well inside double precision (1e12): a longer
// window mixes directions before they are orthonormalised.
#pragma once

#include <string>
#include <vector>

#include "saltus/analysis/hybrid_sensitivity.hpp"

namespace saltus::analysis {

enum class LyapunovStatus {
  Ok,
  Grazing,            // an event crossed its guard tangentially (no saltation matrix)
  ZenoPoint,          // events accumulate (a Zeno point, or the mode's hand-over at it)
  NotDifferentiable,  // simultaneous resets, or a reset without a derivative
  SimulationFailed,   // the run failed or stopped (terminal event) before t_end
  IntegrationFailed,  // the variational equations failed, or a window's tangent map overflowed
  DimensionChanged,   // the run entered a mode of another state size
};

const char* to_string(LyapunovStatus status);

struct LyapunovOptions {
  double window = 1.0;            // tau > 0: QR every tau of model time
  int max_events_per_window = 8;  // K >= 1: at most K saltation matrices between two QR steps
  double transient = 0.0;         // >= 0: QR from t0, logs summed from t0 + transient on
  // A reset with |det S| at most this takes a dimension away (see above).
  double singular_event_tolerance = 1e-14;
  SaltationOptions saltation;
};

struct LyapunovCheckpoint {
  double t = kNaN;        // the window's end (after the transient)
  ModeId mode = kNoMode;  // mode and state there: where the next window starts
  Vector x;
  Vector estimates;  // running exponents: sums of log R_ii / (t - t0 - transient), decreasing
};

struct LyapunovSpectrum {
  LyapunovStatus status = LyapunovStatus::SimulationFailed;
  std::string message;  // why there are no exponents; with status Ok, the collapses if any
  Vector exponents;     // decreasing; -infinity for collapsed directions; empty unless Ok
  // For each exponent, max - min of its running estimate over the checkpoints of the second half
  // of the averaging time (0 for a collapsed one): the error bar of a convergence plot.
  Vector spread;
  std::vector<LyapunovCheckpoint> checkpoints;  // one per window after the transient
  double t_averaging = kNaN;                    // t0 + transient: where the sums start
  double t_reached = kNaN;                      // the end of the last window differentiated
  long events = 0;                              // resets in the windows after the transient
  long qr_steps = 0;               // windows differentiated (transient and cut ones included)
  long cut_windows = 0;            // windows cut for having more than K events
  double impact_log_volume = 0.0;  // sum of log|det S| over those resets
  int collapsed = 0;               // directions with exponent -infinity
  bool ok() const { return status == LyapunovStatus::Ok; }
};

// The Lyapunov spectrum of the run of `system` from (t0, x0, z0) in `mode` to t_end. Throws
// saltus::Error for bad input (t_end <= t0 + transient, tau <= 0, K < 1, a negative transient,
// x0 not of the mode's size); everything that happens during the run is a status.
LyapunovSpectrum lyapunov_spectrum(const HybridSystem& system, ModeId mode, double t0,
                                   ConstVectorRef x0, double t_end,
                                   const SimulationOptions& options,
                                   const LyapunovOptions& lyapunov = {},
                                   ConstVectorRef z0 = Vector());

}  // namespace saltus::analysis
