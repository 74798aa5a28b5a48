#include "saltus/analysis/zeno_classification.hpp"

#include <vector>

namespace saltus::analysis {

ZenoClassification classify_zeno(const EventLog& events, const ZenoClassificationOptions& options) {
  std::vector<double> sizes, increments;
  long previous = -1;
  for (long i = 0; i < events.size(); ++i) {
    if (events[i].observation || events[i].guard == kZenoHandoverGuard) continue;
    const auto x = events.x_after(i);
    sizes.push_back(x.lpNorm<Eigen::Infinity>());
    const bool comparable = previous >= 0 && events.x_after(previous).size() == x.size();
    increments.push_back(comparable ? (x - events.x_after(previous)).lpNorm<Eigen::Infinity>()
                                    : kNaN);
    previous = i;
  }
  ZenoClassification out;
  static_cast<events::ZenoKindEvidence&>(out) = events::classify_zeno_kind(
      sizes.data(), increments.data(), static_cast<int>(sizes.size()), options);
  out.evidence = events::describe(out, options);
  return out;
}

}  // namespace saltus::analysis
