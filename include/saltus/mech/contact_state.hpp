// Whether a rigid contact touches: one rule for every place that asks (issue 44 item 1).
//
// A gap g_N(q) counts as zero when it is within the round-off of its own terms:
//   |g_N| <= kTouchingUlps eps (sum_k |w_k| max(|q_k|, S_k) + |g_N - w^T q|),   w = dg_N/dq,
// the first sum the coordinates' terms (S_k the run's largest |q_k|: the round-off q_k carries),
// the second what the gap adds to them (a radius, a floor's height). The band is a few units in
// the last place of the numbers the gap subtracts, so it grows with the distance from the origin
// only as that round-off does (a Newton's cradle with gaps of 1 um is sequential at x = 0, 1e4
// and 1e6 m; before, a band of 1e-10 of the coordinates made it simultaneous from x = 5e3 m) and
// does not depend on the units. At an impact, another contact also joins when it would reach its
// surface within the time by which the located instant may precede the fired contact's own
// (multi_contact_impact.cpp).
// Used by: the impact set of a simultaneous impact (another contact touching at the impact), the
// initial mode (touching and at rest), the start's penetration check and [initial] project, the
// Painleve check of a start, the motions the contact forces allow at a bridge stop.
//
// Not used where a state is known to be off its surfaces by more than round-off: the limit of
// accumulating impacts (extrapolated: the post-Zeno band, contact_tolerances.hpp) and the stop of
// an event-driven piece before a Moreau-Jean stretch (contacts_within_step, moreau_jean.hpp: the
// contacts the stretch's first step reaches).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "saltus/core/types.hpp"

namespace saltus::mech {

class LagrangianModel;

// Units in the last place of a gap's terms within which the gap is zero. The state itself carries
// a few ulps of round-off per step; 16 leaves room for a symmetric pair of contacts integrated
// from different coordinates (two stacked balls falling: y2 - y1 - 2 r drifts by ulps) and is
// far below any gap a model means (1 um at 1e6 m is 8600 ulps; a tip 1e-13 m above a floor at
// 5 m, 110 ulps of its height, is open as it is above a floor at 0).
inline constexpr double kTouchingUlps = 16.0;

// The band of a gap g with gradient w at q (n entries each); `scale` (n entries or nullptr): the
// run's largest |q_k| so far (Jump::state_scales), which bounds the round-off a coordinate carries
// from where it has been (a ball at y = 1e-13 on landing carries the ulps of y = 1 it fell from).
template <class W, class Q>
double touching_band(const W& w, const Q& q, double g, const double* scale = nullptr) {
  double terms = 0.0, linear = 0.0;
  for (Eigen::Index k = 0; k < w.size(); ++k) {
    const double size = scale ? std::max(std::abs(q[k]), std::abs(scale[k])) : std::abs(q[k]);
    terms += std::abs(w[k]) * size;
    linear += w[k] * q[k];
  }
  terms += std::abs(g - linear);
  return kTouchingUlps * std::numeric_limits<double>::epsilon() * terms;
}

// Whether rigid contact i of `model` touches at q: its gap within its band (or below zero).
bool touches(const LagrangianModel& model, int i, ConstVectorRef q);

}  // namespace saltus::mech
