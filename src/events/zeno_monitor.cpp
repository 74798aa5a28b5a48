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
    small_gaps_ = gap < options_.min_gap * std::abs(t) ? small_gaps_ + 1 : 0;
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
  // Cycle durations D_c = t(c p + phase) - t((c + 1) p + phase), c = 0 the latest. The latest
  // ratio r0 = D_0 / D_1 must agree with the ratio one event older (phase 1: the same cycles
  // shifted by one event; for p = 1 that is D_1 / D_2), which needs 2 p + 2 events whose
  // signature repeats with period p; and, when `cycles` cycles are available, every older
  // ratio must show shrinking cycles. Fewer than `cycles` cycles are enough once the next cycle
  // would be too short to measure: waiting would only measure round-off (super-elastic walls
  // with alpha = 1000 shrink a cycle by 10^-6).
  if (count() < 2 * p + 2) return {};
  // Cheapest test first: the latest cycle must be shorter than the one before.
  const double d0 = time(0) - time(p), d1 = time(p) - time(2 * p);
  if (!(d0 > 0.0 && d0 < d1)) return {};
  auto repeats = [&](int i) {
    const Entry& a = history_[slot(i)];
    const Entry& b = history_[slot(i + p)];
    return a.mode == b.mode && a.guard == b.guard;
  };
  for (int i = 0; i <= p + 1; ++i) {
    if (!repeats(i)) return {};  // events 0 .. 2p + 1
  }
  // Phase-0 cycles whose signature repeats: D_0 .. D_{available - 1} (events 0 .. available p).
  int available = 2;
  while (available < options_.cycles && (available + 1) * p < count()) {
    bool all = true;
    for (int i = (available - 1) * p; i < available * p && all; ++i) all = repeats(i);
    if (!all) break;
    ++available;
  }
  auto duration = [&](int c, int phase) { return time(c * p + phase) - time((c + 1) * p + phase); };
  // Round-off of a measured duration: a few ulps of t, relative to the duration.
  const double ulp_t = std::abs(time(0)) * std::numeric_limits<double>::epsilon();
  auto resolution = [&](int c, int phase) { return 4.0 * ulp_t / duration(c, phase); };
  auto ratio = [&](int c, int phase) { return duration(c, phase) / duration(c + 1, phase); };
  if (!(duration(1, 1) > 0.0) || !(duration(0, 1) > 0.0)) return {};
  const double r0 = ratio(0, 0), r_shift = ratio(0, 1);
  if (!(r0 < 1.0) || !(r_shift < 1.0)) return {};
  // Agreement relative to min(r, 1 - r): t_inf moves by D dr / (1 - r)^2, so a ratio near 1
  // (e = 0.99999) must be known to a fraction of 1 - r. Round-off of the durations may widen it,
  // but not beyond the tolerance itself (then the ratio is not measurable here).
  const double tolerance = options_.ratio_tolerance * std::min(r0, 1.0 - r0);
  const double slack =
      r0 * (resolution(0, 0) + resolution(1, 0)) + r_shift * (resolution(0, 1) + resolution(1, 1));
  if (slack > tolerance || std::abs(r_shift - r0) > tolerance + slack) return {};
  // The older cycles, as far as `cycles` and the history reach, must shrink too.
  for (int c = 1; c + 1 < available; ++c) {
    if (!(duration(c + 1, 0) > 0.0) || !(ratio(c, 0) < 1.0)) return {};
  }
  const double next_cycle = duration(0, 0) * r0;
  const bool next_unresolvable = next_cycle < 4.0 * ulp_t / options_.ratio_tolerance;
  if (available < options_.cycles && !next_unresolvable) return {};
  ZenoPrediction z;
  z.detected = true;
  z.period = p;
  z.ratio = r0;
  z.last_cycle = duration(0, 0);
  z.t_inf = time(0) + z.last_cycle * r0 / (1.0 - r0);
  z.handover_due =
      next_unresolvable || z.t_inf - time(0) <= options_.handover_tolerance * std::abs(z.t_inf);
  z.below_resolution = next_unresolvable;
  return z;
}

}  // namespace saltus::events
