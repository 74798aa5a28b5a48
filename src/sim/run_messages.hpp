// Pieces of the messages that end a run (private to src/sim; DESIGN.md: messages are free
// functions). Built only when a run stops, never on the event path of a run that goes on.
#pragma once

#include <algorithm>
#include <sstream>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/core/hybrid_system.hpp"
#include "saltus/events/zeno_monitor.hpp"
#include "saltus/sim/event_log.hpp"

namespace saltus::detail {

// "[a, b, c]" with all 17 significant digits.
inline std::string vector_text(ConstVectorRef v) {
  std::ostringstream out;
  out.precision(17);
  out << "[";
  for (Eigen::Index i = 0; i < v.size(); ++i) out << (i ? ", " : "") << v[i];
  out << "]";
  return out.str();
}

// "; last events: (t = ..., j = ..., guard) ..." for the latest three events, or "".
inline std::string last_events_text(const EventLog& log, const HybridSystem& system) {
  if (log.empty()) return "";
  std::ostringstream out;
  out.precision(17);
  out << "; last events:";
  for (long i = std::max(0L, log.size() - 3); i < log.size(); ++i) {
    const EventRecord& r = log[i];
    out << " (t = " << r.t << ", j = " << r.j << ", "
        << (r.guard == kZenoHandoverGuard ? std::string("zeno hand-over")
                                          : system.mode(r.mode_before).guards[r.guard].name)
        << ")";
  }
  return out.str();
}

// What the Zeno monitor predicts when a cap ends the run at t, or "" without a prediction.
// z and t count from the run's start `origin` (the loop's clock, hybrid_loop.hpp).
inline std::string prediction_text(const events::ZenoPrediction& z, double t, double origin) {
  if (!z.detected) return "";
  return text("; the events accumulate at t_inf = ", origin + z.t_inf, " (duration ratio ", z.ratio,
              ", remaining ", z.t_inf - t,
              " s): raise events.max_events, or zeno.handover_tolerance to hand over earlier");
}

}  // namespace saltus::detail
