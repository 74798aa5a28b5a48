// Cyclic coordinates along a continuation (`saltus orbit --cyclic ... --continue`): a walker's
// progress, or any coordinate the return map is invariant under the translation of, never closes
// (it drifts by a step per period), so no orbit of the map P is a fixed point. The held map
// replaces P's cyclic components by the values they are held at, P~(x)_k = held_k, and their rows
// of DP by zero: a fixed point of P~ is an orbit of P closed in every other component with the
// cyclic ones at held_k, and DP~ is DP with the cyclic rows cleared, so its eigenvalues are the
// orbit's multipliers with a 0 in place of each cyclic coordinate's trivial 1 (DP's column k is
// the unit vector e_k), and the corrector's matrix DP~ - I stays nonsingular.
#pragma once

#include <vector>

#include "saltus/analysis/return_map.hpp"

namespace saltus::analysis {

// `map` with the components `cyclic` held at held[k]; the drift P(x)_k - x_k is lost, ask the
// unwrapped map for it.
ReturnMap cyclic_held_map(ReturnMap map, const std::vector<int>& cyclic, const Vector& held);

// max_i |DP(i, k) - delta_ik|: 0 when `map`'s value is invariant under the translation of
// component k (checked at the start of a continuation with cyclic components).
double cyclic_column_error(const MapValue& value, int k);

}  // namespace saltus::analysis
