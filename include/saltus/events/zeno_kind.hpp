// Steady or spasmodic Zeno (Clark-Bloch Def. 12): a Zeno trajectory is spasmodic when its
// post-impact states escape every compact set (Examples 4-6: speeds blow up), steady otherwise
// (the ball, Example 2's wedge, Proposition 8: the states stay bounded).
//
// From a finite run the evidence is the size n_k = max_i |x+_k,i| of the post-impact states over
// the last `window` resets: spasmodic when n_k increases at every reset of the window and grows
// by at least `growth_per_event` per reset on (geometric) average; steady when the states stay
// bounded, with how much the last states still move (the geometric ratio of the increments
// |x+_k - x+_{k-1}|: < 1 says they converge to a Zeno point).
//
// The Zeno monitor's report: the simulator classifies the post-event states it keeps when it
// recognises an accumulation (SimulationSummary::zeno_kind); analysis::classify_zeno does the same
// from an event log. classify_zeno_kind does not allocate (it runs at a hand-over).
#pragma once

#include <string>

#include "saltus/core/types.hpp"

namespace saltus::events {

enum class ZenoKind {
  Steady,        // the post-impact states stay bounded over the window
  Spasmodic,     // they grow at every reset, geometrically: they leave every compact set
  Undetermined,  // fewer than `window` resets known
};

const char* to_string(ZenoKind kind);

struct ZenoKindOptions {
  int window = 6;      // last resets looked at
  int min_window = 4;  // fewer known resets (a hand-over after few impacts): this many suffice
  double growth_per_event = 1.1;  // geometric growth of n_k that counts as blowing up
};

struct ZenoKindEvidence {
  ZenoKind kind = ZenoKind::Undetermined;
  int resets = 0;            // resets looked at (the window, or fewer when undetermined)
  double growth = kNaN;      // geometric mean of n_{k+1} / n_k over the window
  double first_size = kNaN;  // n_k at the start of the window
  double last_size = kNaN;   // n_k at its end
  // Geometric mean ratio of |x+_{k+1} - x+_k| between the first and last resets of the window
  // that moved the state (< 1: converging); NaN when fewer than two moved it.
  double increment_ratio = kNaN;
};

// sizes[k] = n_k and increments[k] = |x+_k - x+_{k-1}|_max (increments[0] unused; NaN when the
// two states have different sizes), oldest first, n entries: the last min(n, window) are used,
// Undetermined when that is below max(3, min_window).
ZenoKindEvidence classify_zeno_kind(const double* sizes, const double* increments, int n,
                                    const ZenoKindOptions& options = {});

// The evidence in words (for reports; allocates).
std::string describe(const ZenoKindEvidence& evidence, const ZenoKindOptions& options = {});

}  // namespace saltus::events
