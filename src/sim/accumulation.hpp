// The events of a run seen as a possible Zeno accumulation (private to src/sim; step 5 of
// docs/ARCHITECTURE.md "When a guard fires"): the Zeno monitor's standing prediction, the
// post-event states for the limit state, and the decision after each event whether the
// accumulation point is reached. What the loop then does (hand over to the post-Zeno mode or
// stop) is HybridLoop::handle_zeno. Independent of the integrator; nothing allocates after
// set-up (tests/sim/accumulation_test.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "post_event_states.hpp"
#include "saltus/events/zeno_monitor.hpp"

namespace saltus::detail {

// A Zeno point reached at this very instant t rather than predicted (a reset mapping the state
// to itself, an excursion below the state's resolution), after a last cycle of `last_cycle`.
inline events::ZenoPrediction accumulation_at_once(double t, double last_cycle) {
  events::ZenoPrediction z;
  z.detected = true;
  z.t_inf = t;
  z.ratio = 0.0;
  z.period = 1;
  z.last_cycle = last_cycle;
  return z;
}

class Accumulation {
 public:
  // What an event means for the accumulation.
  enum class Verdict {
    None,          // go on integrating
    HandoverDue,   // the prediction's hand-over point is reached: handle_zeno(prediction())
    LimitReached,  // gaps below round-off while the prediction holds: the limit is reached
    UnrecognisedAccumulation  // gaps below zeno.min_gap without a recognised pattern: stop
                              // (EventCap)
  };

  Accumulation(const events::ZenoOptions& options, int max_nx)
      : options_(options), monitor_(options), post_event_states_(max_nx) {}

  // A new run, or a new arc after a hand-over: nothing of the events before is kept.
  void reset() {
    monitor_.reset();
    pattern_ = events::ZenoPrediction{};
    pattern_mode_ = kNoMode;
    pattern_guard_ = -1;
    post_event_states_.clear();
    last_guard_ = -1;
    last_mode_ = kNoMode;
    last_t_ = 0.0;
    last_identity_ = false;
  }

  // Guard k of `mode` fired at t and its reset left the state unchanged (`identity`) or not.
  // Stalled when the reset before was an identity reset of the same guard less than
  // zeno.min_gap earlier: the guard keeps crossing within the round-off of a state that no
  // longer moves (a corner at rest on the floor read as departing at 1e-10 m/s, its impact
  // reset finding it separating), and this instant is the accumulation point. Left alone, the
  // events went on to a step-size underflow (random box drops, issue 11).
  bool stalled(double t, ModeId mode, int k, bool identity) const {
    return identity && last_identity_ && follows_own_reset(mode, k) &&
           t - last_t_ <= options_.min_gap * std::abs(t);
  }
  // Records every reset (after stalled() has seen it).
  void note_reset(double t, ModeId mode, int k, bool identity) {
    last_guard_ = k;
    last_mode_ = mode;
    last_t_ = t;
    last_identity_ = identity;
  }

  // The latest reset (since reset()) was guard k's in `mode`, at last_reset_time().
  bool follows_own_reset(ModeId mode, int k) const {
    return last_guard_ == k && last_mode_ == mode;
  }
  double last_reset_time() const { return last_t_; }

  // The Zeno monitor has recognised the events accumulating in `mode`, and the latest cycle
  // still fits that prediction: the time left to t_inf from t is within a factor 2 of the
  // geometric tail D r / (1 - r) of the latest cycle D (a pattern recognised long ago stays
  // valid while the events keep to it, even where round-off hides the ratio from the monitor).
  bool accumulating(double t, ModeId mode) const {
    if (!pattern_.detected || pattern_mode_ != mode ||
        options_.policy == events::ZenoOptions::Policy::Off) {
      return false;
    }
    const int p = pattern_.period;
    if (monitor_.count() <= p) return false;
    const double cycle = monitor_.time(0) - monitor_.time(p);
    const double tail = cycle * pattern_.ratio / (1.0 - pattern_.ratio);
    const double left = pattern_.t_inf - t;
    const double ulp = std::numeric_limits<double>::epsilon() * std::abs(t);
    return left >= -tail && std::abs(left - tail) <= 0.5 * tail + 4 * ulp;
  }

  // While accumulating(t, mode): the predicted duration of the next cycle, D r (0 otherwise).
  double next_cycle(double t, ModeId mode) const {
    if (!accumulating(t, mode)) return 0.0;
    return (monitor_.time(0) - monitor_.time(pattern_.period)) * pattern_.ratio;
  }

  // Guard k of mode `from` reset the state to x_after at t; `mode_now` is the mode after it.
  // The standing prediction is kept while the events keep to it (accumulating()) and a new one
  // agrees with it to within round-off: for exactly geometric events the one recognised early,
  // on long cycles, is the most accurate (with r near 1 later ratios carry the round-off of
  // short cycles). A new prediction that moves t_inf by more than round-off replaces it: the
  // ratio of an asymptotically geometric sequence (a rocking block's corner bouncing to rest
  // while the block turns) converges with the cycle, and an early t_inf is off by ~D dr.
  Verdict on_event(double t, ModeId from, int k, ModeId mode_now, const ConstVectorRef& x_after) {
    const events::ZenoPrediction z = monitor_.notify(t, from, k);
    post_event_states_.remember(x_after);
    if (z.detected && (!accumulating(t, mode_now) || moves_t_inf(z, t))) {
      pattern_ = z;
      pattern_mode_ = from;
      pattern_guard_ = k;
    }
    if (z.detected && z.handover_due && options_.policy != events::ZenoOptions::Policy::Off) {
      return Verdict::HandoverDue;
    }
    if (monitor_.small_gaps() >= options_.min_gap_count) {
      // Gaps this small measure round-off, not a ratio; the pattern recognised earlier still
      // predicts them: the accumulation point is reached.
      return accumulating(t, mode_now) ? Verdict::LimitReached : Verdict::UnrecognisedAccumulation;
    }
    return Verdict::None;
  }

  const events::ZenoPrediction& prediction() const { return pattern_; }
  ModeId prediction_mode() const { return pattern_mode_; }
  int prediction_guard() const { return pattern_guard_; }
  int small_gaps() const { return monitor_.small_gaps(); }

  // Steady or spasmodic (Clark-Bloch Def. 12) from the post-event states remembered so far.
  events::ZenoKindEvidence zeno_kind() const {
    return post_event_states_.zeno_kind(events::ZenoKindOptions{});
  }

  // The limit state of the accumulation from x_now (Aitken on states one cycle apart).
  void limit_state(int period, const ConstVectorRef& x_now, VectorRef x_inf) const {
    post_event_states_.extrapolate_limit(period, x_now, x_inf);
  }

 private:
  // Whether z's t_inf differs from the standing prediction's by more than the round-off of a
  // geometric tail, D r / (1 - r) with each duration D known to ~2 ulp(t): ~4 ulp(t) r / (1 - r)^2.
  bool moves_t_inf(const events::ZenoPrediction& z, double t) const {
    const double ulp = std::numeric_limits<double>::epsilon() * std::abs(t);
    const double round_off = 4.0 * ulp * z.ratio / ((1.0 - z.ratio) * (1.0 - z.ratio));
    return std::abs(z.t_inf - pattern_.t_inf) > 16.0 * round_off;
  }

  const events::ZenoOptions& options_;
  events::ZenoMonitor monitor_;
  PostEventStates post_event_states_;
  events::ZenoPrediction pattern_;  // the monitor's verdict after the latest event
  ModeId pattern_mode_ = kNoMode;
  int pattern_guard_ = -1;
  int last_guard_ = -1;  // the latest reset (note_reset): guard, mode, time, state unchanged
  ModeId last_mode_ = kNoMode;
  double last_t_ = 0.0;
  bool last_identity_ = false;
};

}  // namespace saltus::detail
