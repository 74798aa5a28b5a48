// Recognises an accumulating event sequence and predicts its accumulation (Zeno) time.
//
// Model (FORMULAS.md 5): near a Zeno point the events repeat a cycle of p (mode, guard) pairs
// and the cycle durations D_c shrink geometrically, D_{c+1} = r D_c with 0 < r < 1. Then the
// remaining time after the last event is the tail of a geometric series,
//   t_inf = t_last + D_last r / (1 - r).
// The monitor looks for the shortest period p <= max_cycle_length whose (mode, guard)
// signature repeats over the last `cycles` cycles (three suffice once the next cycle would be
// below the resolution of t), checks that the ratios of consecutive
// cycle durations agree (|r_0 - r_1| <= ratio_tolerance min(r_0, 1 - r_0), plus round-off of
// the durations), and reports the prediction. The
// caller hands over (or stops) once the predicted remaining time is small (handover_tolerance).
// Exactly geometric sequences (bouncing ball, Clark-Bloch Examples 2, 4, Proposition 8) are
// predicted to round-off; asymptotically geometric ones (Example 6) once the ratio settles.
// Fixed-size history; notify() never allocates.
#pragma once

#include <array>
#include <string>

#include "saltus/core/types.hpp"

namespace saltus::events {

struct ZenoOptions {
  enum class Policy {
    Handover,  // switch to the mode's post-Zeno mode when it has one, else stop with Zeno
    Stop,      // stop with Termination::Zeno and the predicted time
    Off,       // no detection (the event cap and minimum gap still end the run)
  };
  Policy policy = Policy::Handover;
  // Full cycles whose duration ratios must agree before a prediction is trusted (>= 2).
  int cycles = 4;
  // Longest (mode, guard) cycle recognised (1: one guard; 2: two walls alternating).
  int max_cycle_length = 4;
  // Agreement of the last two cycle-duration ratios, relative to min(r, 1 - r).
  double ratio_tolerance = 1e-3;
  // Times t here count from the run's start (the simulator's clock, docs/ARCHITECTURE.md), so
  // these tolerances are relative to the elapsed time, the resolution it has (and a run in other
  // units of time hands over at the same event).
  // Hand over (or stop) once t_inf - t_last <= handover_tolerance * |t_inf|, or once
  // the next cycle would be shorter than 4 ulp(t) / ratio_tolerance (it could not be measured:
  // e = 0.99999 reaches that with t_inf - t_last still ~1e-3). Smaller values resolve more
  // impacts before the hand-over.
  double handover_tolerance = 1e-9;
  // Safeguard without a recognised pattern: events closer than min_gap * |t| this
  // many times in a row end the run (Termination::EventCap).
  double min_gap = 1e-13;
  int min_gap_count = 20;

  std::string validate() const;
};

struct ZenoPrediction {
  bool detected = false;
  double t_inf = kNaN;            // predicted accumulation time
  double ratio = kNaN;            // cycle-duration ratio r
  double last_cycle = kNaN;       // duration of the last cycle
  int period = 0;                 // events per cycle
  bool handover_due = false;      // remaining time below the hand-over tolerance, or the next cycle
                                  // below the resolution of t (below_resolution)
  bool below_resolution = false;  // the next cycle would be shorter than t can resolve
};

class ZenoMonitor {
 public:
  static constexpr int kHistory = 64;  // a power of two: ring indices are a bit mask

  explicit ZenoMonitor(const ZenoOptions& options) : options_(options) {}
  void reset() {
    count_ = 0;
    small_gaps_ = 0;
  }

  // Records an event; returns the current prediction (detected == false when no pattern).
  ZenoPrediction notify(double t, ModeId mode, GuardId guard);
  // Number of consecutive events closer than the minimum gap.
  int small_gaps() const { return small_gaps_; }

  // Index i = 0 is the latest event, 1 the one before, ... (i < count()).
  double time(int i) const { return history_[slot(i)].t; }
  int count() const { return count_ < kHistory ? count_ : kHistory; }

 private:
  struct Entry {
    double t;
    ModeId mode;
    GuardId guard;
  };
  int slot(int i) const { return (count_ - 1 - i) & (kHistory - 1); }
  ZenoPrediction predict_with_period(int p) const;

  ZenoOptions options_;
  std::array<Entry, kHistory> history_{};
  int count_ = 0;
  int small_gaps_ = 0;
};

}  // namespace saltus::events
