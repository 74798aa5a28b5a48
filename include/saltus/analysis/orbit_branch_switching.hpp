// Branch switching at a period doubling of a continued orbit (orbit_continuation.hpp).
//
// At a period doubling of the map P a real multiplier of M = DP_yy is -1 with eigenvector v.
// The doubled map P2 = P o P then has the multiplier +1 along v, and its fixed points split
// there: the period-1 branch continues through, and the period-2 branch (x1 -> x2 -> x1 under P)
// leaves it along v with the parameter held to first order (a pitchfork of P2 with the symmetry
// x1 <-> x2). The period-2 branch is started from the period-doubling point with the predictor
// along +v or -v (the two sides are the orbit's two points, x1 and x2 = P(x1)) and continued as
// a branch of fixed points of P2 (continue_orbit_along).
#pragma once

#include "saltus/analysis/orbit_continuation.hpp"

namespace saltus::analysis {

// P2(x) = P(P(x)), DP2 = DP(P(x)) DP(x); return times and resets added, grazing evidence the
// smaller of the two; a failure of either half is the result (its message prefixed with the
// half).
ReturnMap doubled_map(ReturnMap map);

// The eigenvector of M = DP_yy at `x` for the real multiplier nearest -1, as a state-sized
// vector with 0 in the parameter's place (unit length); empty when P is undefined at x (then
// `message` says why) or M has no real multiplier.
Vector period_doubling_direction(const ReturnMap& map, const Vector& x, int parameter,
                                 std::string& message);

// The period-2 branch born at the period doubling `pd` (kind PeriodDoubling) of a branch of
// `map`, continued on doubled_map(map) from pd.x along `side` (+1 or -1) times the critical
// eigenvector. Its first point is pd.x itself (a fixed point of both maps).
Branch switch_at_period_doubling(const ReturnMap& map, const BifurcationPoint& pd,
                                 const ContinuationOptions& options, double side = 1.0);

}  // namespace saltus::analysis
