// Steady or spasmodic Zeno (Clark-Bloch Def. 12): a Zeno trajectory is spasmodic when its
// post-impact states escape every compact set (Examples 4-6: speeds blow up), steady otherwise
// (the ball, Example 2's wedge, Proposition 8: the states stay bounded).
//
// From a finite run the evidence is the size n_k = max_i |x+_k,i| of the post-impact states over
// the last `window` resets: spasmodic when n_k increases at every reset of the window and grows
// by at least `growth_per_event` per reset on (geometric) average; steady when the states stay
// bounded, with how much the last states still move (the increments' geometric ratio < 1 says
// they converge to a Zeno point).
#pragma once

#include <string>

#include "saltus/sim/event_log.hpp"

namespace saltus::analysis {

enum class ZenoKind {
  Steady,        // the post-impact states stay bounded over the window
  Spasmodic,     // they grow at every reset, geometrically: they leave every compact set
  Undetermined,  // fewer than `window` resets in the log
};

const char* to_string(ZenoKind kind);

struct ZenoClassificationOptions {
  int window = 6;                 // last resets looked at
  double growth_per_event = 1.1;  // geometric growth of n_k that counts as blowing up
};

struct ZenoClassification {
  ZenoKind kind = ZenoKind::Undetermined;
  std::string evidence;           // the numbers below in words
  double growth = kNaN;           // geometric mean of n_{k+1} / n_k over the window
  double first_size = kNaN;       // n_k at the start of the window
  double last_size = kNaN;        // n_k at its end
  double increment_ratio = kNaN;  // geometric mean ratio of |x+_{k+1} - x+_k| (< 1: converging)
};

ZenoClassification classify_zeno(const EventLog& events, const ZenoClassificationOptions& = {});

}  // namespace saltus::analysis
