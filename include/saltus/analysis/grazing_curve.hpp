// Two-parameter curve of a grazing bifurcation (issue 46 item 3): the curve in the plane of two
// parameters (p, q) along which a periodic orbit touches a guard tangentially, started from a
// grazing point that orbit_continuation.hpp located on a branch in p.
//
// The grazing has no smooth defining system across it (beyond it the orbit has another event
// sequence, and from the impacting side its evidence, the impact's crossing rate, is not smooth
// in the state), so the curve is not continued by Newton on one: each of its points is located
// again by the one-parameter locator (grazing_point.hpp, inverse interpolation of p in the
// evidence from orbits on the branch's side, nothing evaluated beyond). q is stepped from the
// start towards both ends of [q_min, q_max]; at q_k + dq the grazing's p is predicted linearly
// from the last two points, and the locator is started from two orbits on the branch's side of
// the prediction, at distances 2 d and d, d the distance of the branch's last orbit from the
// grazing but at least 1e-3 (1 + |p|) (doubled, up to three times, when the locator finds no two
// orbits there). A step whose point is not located
// is halved down to min_step; there the side ends (a partial curve, with why). The steps grow by
// 1.5 after each located point up to max_step. Every point is a located grazing, accurate to the
// locator's parameter tolerance.
#pragma once

#include "saltus/analysis/bifurcation_curve.hpp"

namespace saltus::analysis {

// `start`: a grazing point of a branch (kind Grazing, start.x holds both parameters); `approach`:
// the branch's last orbit's p minus start.parameter (its sign says the side, its size the
// distance the orbits are solved at). options' steps are in q's units; `tolerance` is the
// locator's orbit and parameter tolerance.
BifurcationCurve continue_grazing_curve(const ReturnMap& map, const BifurcationPoint& start,
                                        double approach, const CurveOptions& options);

}  // namespace saltus::analysis
