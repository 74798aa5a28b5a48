// The instants of time events (Guard::period; issue 43), private to src/sim: the loop ends its
// steps there and the event locator fires the guard there, without searching.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::detail {

// The first instant of g's time event after tau (at tau too when `inclusive`), as a time since
// the run's start `origin`, computed from its index k as (period_origin + k period) - origin
// every time, so the loop's time at an instant equals the instant found again from there.
inline double next_instant(const Guard& g, double tau, bool inclusive, double origin) {
  const double since = origin + tau - g.period_origin;
  double k = std::max(0.0, std::floor(since / g.period) - 1.0);
  for (;;) {
    const double instant = (g.period_origin + k * g.period) - origin;
    if (instant > tau || (inclusive && instant == tau)) return instant;
    k += 1.0;
  }
}

// The first instant after tau of any time event of `mode` (infinity: none).
inline double next_instant(const Mode& mode, double tau, double origin) {
  double next = std::numeric_limits<double>::infinity();
  for (const Guard& g : mode.guards) {
    if (g.period > 0.0) next = std::min(next, next_instant(g, tau, false, origin));
  }
  return next;
}

}  // namespace saltus::detail
