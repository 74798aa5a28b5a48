#include "saltus/events/zeno_kind.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace saltus::events {

const char* to_string(ZenoKind kind) {
  switch (kind) {
    case ZenoKind::Steady:
      return "steady";
    case ZenoKind::Spasmodic:
      return "spasmodic";
    case ZenoKind::Undetermined:
      return "undetermined";
  }
  return "unknown";
}

ZenoKindEvidence classify_zeno_kind(const double* sizes, const double* increments, int n,
                                    const ZenoKindOptions& options) {
  ZenoKindEvidence out;
  const int window = std::min(n, options.window);
  out.resets = window;
  if (window < std::max(3, options.min_window)) return out;
  const int first = n - window;
  bool increasing = true;
  double log_growth = 0.0;
  for (int k = first + 1; k < n; ++k) {
    increasing = increasing && sizes[k] > sizes[k - 1];
    log_growth += std::log(sizes[k] / sizes[k - 1]);
  }
  // The increments' ratio over the resets that moved the state: an identity reset (a contact
  // of a simultaneous impact whose own guard fires after the impact resolved it) has increment
  // 0, and 0 / 0 gave "a factor -nan per reset". The mean of log(d_last / d_first) over the
  // resets between the first and last moving ones.
  int first_moving = -1, last_moving = -1;
  for (int k = first + 1; k < n; ++k) {
    if (!(increments[k] > 0.0) || !std::isfinite(increments[k])) continue;
    if (first_moving < 0) first_moving = k;
    last_moving = k;
  }
  if (last_moving > first_moving) {
    out.increment_ratio = std::exp(std::log(increments[last_moving] / increments[first_moving]) /
                                   static_cast<double>(last_moving - first_moving));
  }
  out.first_size = sizes[first];
  out.last_size = sizes[n - 1];
  out.growth = std::exp(log_growth / static_cast<double>(window - 1));
  const bool blows_up = increasing && out.growth >= options.growth_per_event;
  out.kind = blows_up ? ZenoKind::Spasmodic : ZenoKind::Steady;
  return out;
}

std::string describe(const ZenoKindEvidence& e, const ZenoKindOptions& options) {
  std::ostringstream os;
  os.precision(4);
  if (e.kind == ZenoKind::Undetermined) {
    os << "undetermined: " << e.resets << " resets known, " << std::max(3, options.min_window)
       << " needed";
    return os.str();
  }
  const bool blows_up = e.kind == ZenoKind::Spasmodic;
  os << to_string(e.kind) << ": over the last " << e.resets
     << " resets the post-impact state size went from " << e.first_size << " to " << e.last_size
     << " (x" << e.growth << " per reset"
     << (blows_up ? ", increasing at every reset: escapes every compact set" : ": bounded") << ")";
  if (std::isnan(e.increment_ratio)) {
    os << "; successive states did not move at two resets of the window";
  } else {
    os << "; successive states move by a factor " << e.increment_ratio << " per reset"
       << (e.increment_ratio < 1.0 ? " (converging)" : "");
  }
  return os.str();
}

}  // namespace saltus::events
