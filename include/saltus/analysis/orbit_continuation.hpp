// Pseudo-arclength continuation of a periodic orbit (a fixed point of a return map,
// return_map.hpp) in one parameter, with bifurcations detected from the Floquet multipliers and
// grazing from the orbit's own evidence.
//
// The parameter is a component `parameter` of the state with zero derivative in every mode that
// no reset changes (until parameters are run-time data: then DP's column `parameter` is
// d P / d p, from the same arcs and saltation matrices). Unknowns u = (y, p), y = the other
// components; equations F(u) = P(x)_y - y = 0 and the arclength condition
// t . (u - u_k) = h (Keller). Newton with the Jacobian [DP_yy - I, DP_yp; t^T]; the next tangent
// solves [DP_yy - I, DP_yp; t_k^T] t = (0, 1). The step h grows by 1.5 after an easy corrector
// (<= 3 steps) up to max_step and halves after a failed one down to min_step.
//
// Along the branch, between consecutive points:
//  - fold: the tangent's parameter component changes sign (a multiplier crosses +1); located
//    by secant iterations on the arclength;
//  - period doubling: det(M + I) changes sign, M = DP_yy (a real multiplier crosses -1); located
//    by secant iterations on the arclength;
//  - Neimark-Sacker: the number of complex multipliers outside the unit circle changes and
//    |lambda| - 1 of the complex multiplier nearest the circle changes sign (a complex pair
//    crosses it); located by secant iterations on that modulus, the angle arg(lambda) in (0, pi)
//    of the crossing multiplier reported;
//  - grazing: the orbit touches a guard tangentially: its smallest crossing rate or closest
//    approach (return_map.hpp) falls below grazing_tolerance, the number of resets per period
//    changes, or the map reports Grazing; the branch stops there (the map is not smooth beyond)
//    and the point where the evidence is smallest is reported with its value.
#pragma once

#include <string>
#include <vector>

#include "saltus/analysis/periodic_orbit.hpp"
#include "saltus/analysis/sliding_bifurcation.hpp"
#include "saltus/analysis/stroboscopic_phase.hpp"

namespace saltus::analysis {

struct ContinuationOptions {
  int parameter = 0;  // index of the parameter in the state
  double p_min = -kInfinity, p_max = kInfinity;
  double direction = 1.0;  // initial sign of dp
  int max_points = 200;
  double initial_step = 1e-2, min_step = 1e-7, max_step = 5e-2;
  int max_corrector_iterations = 8;
  // The first orbit (parameter fixed) is found as `saltus orbit` finds one: damped Newton
  // (periodic_orbit.hpp, find_fixed_point) with at most this many iterations.
  int first_orbit_iterations = 30;
  double tolerance = 1e-9;          // |F| <= tolerance (1 + |x|)
  double grazing_tolerance = 1e-6;  // crossing rate or closest approach that counts as grazing
  int secant_iterations = 8;        // to locate a fold, period doubling or Neimark-Sacker point
};

struct BranchPoint {
  Vector x;  // the orbit's fixed point, parameter included
  double parameter = kNaN;
  Eigen::VectorXcd multipliers;  // of M = DP_yy, by decreasing modulus
  bool stable = false;           // every |multiplier| < 1
  long resets = 0;               // per period
  double min_crossing_rate = kInfinity, closest_approach = kInfinity;
  double period = kNaN;
  double t0 = kNaN;  // the instant of x: the stroboscopic map's start (NaN for other maps)
};

enum class BifurcationKind { Fold, PeriodDoubling, NeimarkSacker, Grazing };
const char* to_string(BifurcationKind kind);

struct BifurcationPoint {
  BifurcationKind kind;
  double parameter = kNaN;
  int after_point = 0;  // between branch points after_point and after_point + 1
  Vector x;             // the located orbit's fixed point, parameter included
  Eigen::VectorXcd multipliers;
  // det(M + I), the tangent's dp, |lambda| - 1 (Neimark-Sacker) or the grazing evidence there
  double test_value = kNaN;
  double angle = kNaN;    // Neimark-Sacker: arg of the crossing multiplier, in (0, pi)
  double t0 = kNaN;       // the instant of x (BranchPoint::t0)
  ModeId mode = kNoMode;  // the mode at t0 (stroboscopic maps; kNoMode for others)
  std::string message;
  // Grazing: the orbit solved a little past the located point (1e-4, then 1e-3, of 1 + |p|
  // beyond it), on the far side's own event sequence, and how the sequence changed across it
  // (sliding_bifurcation.hpp): the sliding bifurcation's kind, or None with the change stated.
  // Empty when no orbit past it was found or its sequence is the same. A change that the
  // branch's step saw while no evidence vanished (a crossing-sliding met from the sliding side)
  // is located by bisection of the event sequence (the parameter and message say so).
  SlidingKind sliding = SlidingKind::None;
  std::string sequence_change;
};

// How a continuation ended.
enum class BranchStatus {
  NoOrbit,    // nothing continued: bad input, or the first orbit was not found (no points)
  Continued,  // the branch reached an end of [p_min, p_max], max_points or a grazing point
  // The corrector failed at min_step before any of those ends (the map undefined there, or
  // Newton not converging): `points` is a partial branch, `failure` says where and why.
  CorrectorFailed,
};
const char* to_string(BranchStatus status);  // "no orbit", "continued", "corrector failed"

// The step at which the corrector failed (BranchStatus::CorrectorFailed).
struct CorrectorFailure {
  double parameter = kNaN;  // the last converged point's parameter (the failed step's start)
  double step = kNaN;       // the arclength step that failed (<= min_step)
  int iterations = 0;       // Newton iterations of that step
  double residual = kNaN;   // max(|F|, |arclength condition|) at its last iterate; NaN when the
                            // map was undefined there
  std::string message;      // the corrector's message, or the map's status and message
};

struct Branch {
  std::vector<BranchPoint> points;
  std::vector<BifurcationPoint> bifurcations;
  std::string stop_reason;  // why the continuation ended
  bool ok = false;          // the first point converged
  BranchStatus status = BranchStatus::NoOrbit;
  CorrectorFailure failure;  // set when status is CorrectorFailed
  int rephasings = 0;        // times the stroboscopic instant moved (continue_stroboscopic_orbit)
};

// Continues from `guess`, corrected first with the parameter fixed by the damped Newton of
// find_fixed_point (a continuation starts wherever `saltus orbit` converges).
Branch continue_orbit(const ReturnMap& map, const Vector& guess,
                      const ContinuationOptions& options);

// The same for a stroboscopic map from t0 in `mode` (stroboscopic_phase.hpp): whenever a reset of
// the orbit comes within T / (8 (resets + 1)) of the map's instant, the instant moves to the
// middle of the widest gap between its resets (BranchPoint::t0, Branch::rephasings). A fold or
// doubling where a reset sits at the file's instant (the vibrating table's fold) is then found.
Branch continue_stroboscopic_orbit(const StroboscopicFamily& family, double t0, ModeId mode,
                                   const Vector& guess, const ContinuationOptions& options);

// Continues from `start`, a fixed point of `map` (not corrected: its residual must be within
// 100 x the tolerance), with the first predictor along `direction` (a state-sized vector,
// normalised here) and the usual steps after it: for branch switching, where the Newton matrix
// at the start is singular (orbit_branch_switching.hpp).
Branch continue_orbit_along(const ReturnMap& map, const Vector& start, const Vector& direction,
                            const ContinuationOptions& options);

}  // namespace saltus::analysis
