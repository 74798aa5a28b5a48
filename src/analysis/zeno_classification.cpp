#include "saltus/analysis/zeno_classification.hpp"

#include <cmath>
#include <sstream>
#include <vector>

namespace saltus::analysis {

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

ZenoClassification classify_zeno(const EventLog& events, const ZenoClassificationOptions& options) {
  ZenoClassification out;
  std::vector<long> resets;  // observations and the Zeno hand-over are not impacts
  for (long i = 0; i < events.size(); ++i) {
    if (!events[i].observation && events[i].guard != kZenoHandoverGuard) resets.push_back(i);
  }
  const auto n = static_cast<long>(resets.size());
  std::ostringstream os;
  os.precision(4);
  if (n < options.window || options.window < 3) {
    os << n << " resets logged, " << options.window << " needed";
    out.evidence = os.str();
    return out;
  }
  const long first = n - options.window;
  bool increasing = true;
  double log_growth = 0.0, log_increments = 0.0;
  double previous_size = kNaN, previous_increment = kNaN;
  for (long k = first; k < n; ++k) {
    const auto x = events.x_after(resets[static_cast<size_t>(k)]);
    const double size = x.lpNorm<Eigen::Infinity>();
    if (k > first) {
      increasing = increasing && size > previous_size;
      log_growth += std::log(size / previous_size);
      const auto before = events.x_after(resets[static_cast<size_t>(k - 1)]);
      const double increment =
          x.size() == before.size() ? (x - before).lpNorm<Eigen::Infinity>() : kNaN;
      if (k > first + 1) log_increments += std::log(increment / previous_increment);
      previous_increment = increment;
    } else {
      out.first_size = size;
    }
    previous_size = size;
  }
  out.last_size = previous_size;
  out.growth = std::exp(log_growth / static_cast<double>(options.window - 1));
  out.increment_ratio = std::exp(log_increments / static_cast<double>(options.window - 2));
  const bool blows_up = increasing && out.growth >= options.growth_per_event;
  out.kind = blows_up ? ZenoKind::Spasmodic : ZenoKind::Steady;
  os << "over the last " << options.window << " resets the post-impact state size went from "
     << out.first_size << " to " << out.last_size << " (x" << out.growth << " per reset"
     << (blows_up ? ", increasing at every reset: escapes every compact set" : ": bounded")
     << "); successive states move by a factor " << out.increment_ratio << " per reset"
     << (out.increment_ratio < 1.0 ? " (converging)" : "");
  out.evidence = os.str();
  return out;
}

}  // namespace saltus::analysis
