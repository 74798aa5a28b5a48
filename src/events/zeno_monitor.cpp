#include "saltus/events/zeno_monitor.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace saltus::events {

std::string ZenoOptions::validate() const {
  std::ostringstream out;
  if (cycles < 2) out << "zeno.cycles = " << cycles << " must be >= 2; ";
  if (max_cycle_length < 1)
    out << "zeno.max_cycle_length = " << max_cycle_length << " must be >= 1; ";
  if ((cycles + 2) * max_cycle_length > ZenoMonitor::kHistory) {
    out << "zeno: (cycles + 2) * max_cycle_length = " << (cycles + 2) * max_cycle_length
        << " exceeds the history of " << ZenoMonitor::kHistory << " events; ";
  }
  if (!(ratio_tolerance > 0.0))
    out << "zeno.ratio_tolerance = " << ratio_tolerance << " must be > 0; ";
  if (!(handover_tolerance > 0.0)) {
    out << "zeno.handover_tolerance = " << handover_tolerance << " must be > 0; ";
  }
  if (!(min_gap >= 0.0)) out << "zeno.min_gap = " << min_gap << " must be >= 0; ";
  if (min_gap_count < 1) out << "zeno.min_gap_count = " << min_gap_count << " must be >= 1; ";
  return out.str();
}

ZenoPrediction ZenoMonitor::notify(double t, ModeId mode, GuardId guard) {
  if (count_ > 0) {
    const double gap = t - time(0);
    small_gaps_ = gap < options_.min_gap * std::max(1.0, std::abs(t)) ? small_gaps_ + 1 : 0;
  }
  history_[count_ & (kHistory - 1)] = Entry{t, mode, guard};
  ++count_;
  if (options_.policy == ZenoOptions::Policy::Off) return {};
  for (int p = 1; p <= options_.max_cycle_length; ++p) {
    const ZenoPrediction z = predict_with_period(p);
    if (z.detected) return z;
  }
  return {};
}

ZenoPrediction ZenoMonitor::predict_with_period(int p) const {
  // Cycle durations D_c = t(c p) - t((c + 1) p), c = 0 the latest; `cycles` of them need
  // cycles p + 1 events whose signature repeats with period p. Three cycles (two ratios) are
  // enough once the next cycle would be too short to measure: waiting for more would only
  // measure round-off (super-elastic walls with alpha = 1000 shrink a cycle by 10^-6).
  const int least_cycles = std::min(3, options_.cycles);
  if (count() < least_cycles * p + 1) return {};
  // Cheapest test first: the latest cycle must be shorter than the one before.
  const double d0 = time(0) - time(p), d1 = time(p) - time(2 * p);
  if (!(d0 > 0.0 && d0 < d1)) return {};
  const int available = std::min(options_.cycles, (count() - 1) / p);
  int cycles = 0;  // cycles whose signature repeats
  for (int c = 0; c < available; ++c) {
    bool repeats = true;
    for (int i = c * p; i < (c + 1) * p && repeats; ++i) {
      const Entry& a = history_[slot(i)];
      const Entry& b = history_[slot(i + p)];
      repeats = a.mode == b.mode && a.guard == b.guard;
    }
    if (!repeats) break;
    ++cycles;
  }
  if (cycles < least_cycles) return {};
  auto duration = [&](int c) { return time(c * p) - time((c + 1) * p); };
  // Round-off of a measured duration: a few ulps of t, relative to the duration.
  const double ulp_t = std::abs(time(0)) * std::numeric_limits<double>::epsilon();
  auto resolution = [&](int c) { return 4.0 * ulp_t / duration(c); };
  // Every ratio r_c = D_c / D_{c+1} must show shrinking cycles; the latest two must agree to
  // ratio_tolerance plus what round-off of the durations allows.
  double r0 = kNaN;
  for (int c = 0; c + 1 < cycles; ++c) {
    const double newer = duration(c), older = duration(c + 1);
    if (!(newer > 0.0) || !(older > 0.0)) return {};
    const double r = newer / older;
    if (!(r < 1.0)) return {};
    if (c == 0) r0 = r;
    if (c == 1) {
      const double slack =
          r0 * (resolution(0) + resolution(1)) + r * (resolution(1) + resolution(2));
      if (std::abs(r - r0) > options_.ratio_tolerance * r0 + slack) return {};
    }
  }
  const double next_cycle = duration(0) * r0;
  const bool next_unresolvable = next_cycle < 4.0 * ulp_t / options_.ratio_tolerance;
  if (cycles < options_.cycles && !next_unresolvable) return {};
  ZenoPrediction z;
  z.detected = true;
  z.period = p;
  z.ratio = r0;
  z.last_cycle = duration(0);
  z.t_inf = time(0) + z.last_cycle * r0 / (1.0 - r0);
  z.handover_due = next_unresolvable || z.t_inf - time(0) <= options_.handover_tolerance *
                                                                 std::max(1.0, std::abs(z.t_inf));
  z.below_resolution = next_unresolvable;
  return z;
}

}  // namespace saltus::events
