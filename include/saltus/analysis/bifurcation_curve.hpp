// Two-parameter continuation of a fold or a period doubling of a periodic orbit (issue 46): the
// curve in the plane of two parameters (p, q) along which the orbit keeps a multiplier at +1
// (fold) or -1 (period doubling), started from a point that orbit_continuation.hpp located.
//
// Both parameters are components of the map's state that the map keeps (states of rate 0 that
// no reset changes). Unknowns u = (y, p, q), y = the other components. Equations (Govaerts'
// minimally augmented system):
//   F(u) = P(x)_y - y = 0,
//   g(u) = 0, where (v, g) solves the bordered system [A b; c^T 0] (v; g) = (0; 1) for
//          A = M - s I, M = DP_yy, s = +1 (fold) or -1 (period doubling), and b, c are the left
//          and right singular vectors of A's smallest singular value at the last curve point.
//          g = 0 exactly where A is singular; it is smooth and has a nonzero gradient at a simple
//          zero, unlike det(A), which also vanishes with every other singular direction.
//   t . (u - u_k) = h (Keller's arclength).
// dF/du comes from DP (exact: arcs and saltation matrices); dg/du from central differences of g
// (2 dim(u) map evaluations per Newton step, step 1e-6 max(1, |u_i|)), b and c held fixed. The
// curve's points are solutions of F = 0, g = 0 to `tolerance`, so their accuracy is the map's
// (the differences only steer Newton).
//
// The curve is followed both ways from the start until q reaches an end of [q_min, q_max] (the
// last point is solved with q at that end), max_points, or the corrector fails at min_step (a
// partial curve, with why). A point whose orbit has another number of resets than the start's
// ends that side (the orbit grazes a guard on the curve: the fixed point's map is not smooth
// beyond). A stroboscopic map is re-timed along the curve as orbit_continuation.hpp re-times it.
#pragma once

#include <string>
#include <vector>

#include "saltus/analysis/orbit_continuation.hpp"
#include "saltus/analysis/stroboscopic_phase.hpp"

namespace saltus::analysis {

struct CurveOptions {
  int first = 0;   // p: the branch's parameter (state index)
  int second = 1;  // q: the second parameter (state index)
  double q_min = -kInfinity, q_max = kInfinity;
  int max_points = 400;  // per side
  double initial_step = 1e-2, min_step = 1e-8, max_step = 5e-2;
  int max_corrector_iterations = 10;
  double tolerance = 1e-9;        // |F|, |g| and the arclength condition <= tolerance (1 + |u|)
  std::string second_name = "q";  // q's name in messages
};

struct CurvePoint {
  Vector x;  // the orbit's fixed point, both parameters included
  double p = kNaN, q = kNaN;
  Eigen::VectorXcd multipliers;  // of M = DP_yy, by decreasing modulus
  double test = kNaN;            // g at the point
  double period = kNaN;
  long resets = 0;
  double t0 = kNaN;  // the instant of x (stroboscopic maps)
};

struct BifurcationCurve {
  BifurcationKind kind = BifurcationKind::Fold;
  std::vector<CurvePoint> points;  // ordered along the curve, from its q_min side
  BranchStatus status = BranchStatus::NoOrbit;
  // Why each side ended: [0] the side of decreasing q, [1] increasing q.
  std::string stop_reason[2];
  int rephasings = 0;
  std::string message;  // NoOrbit: why nothing was followed
};

// From `start` (kind Fold or PeriodDoubling; start.x holds both parameters), the curve of that
// bifurcation in (p, q) = (x[options.first], x[options.second]).
BifurcationCurve continue_bifurcation_curve(const ReturnMap& map, const BifurcationPoint& start,
                                            const CurveOptions& options);

// The same for a stroboscopic map (start.t0 and start.mode: its instant), re-timed along the
// curve whenever a reset of the orbit comes near the instant.
BifurcationCurve continue_stroboscopic_bifurcation_curve(const StroboscopicFamily& family,
                                                         const BifurcationPoint& start,
                                                         const CurveOptions& options);

}  // namespace saltus::analysis
