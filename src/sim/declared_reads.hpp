// The state components the guards of a mode read, when every guard declares them
// (Guard::reads_states), private to src/sim. The event locator then interpolates only these at
// its guard samples and leaves NaN in the others, so a guard reading more than it declared
// yields NaN (a NonFiniteState stop) rather than a stale value. Examined once per mode change;
// buffers are reserved in the constructor, so nothing allocates during a run.
#pragma once

#include <algorithm>
#include <vector>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::detail {

class DeclaredReads {
 public:
  explicit DeclaredReads(int max_nx) {
    reads_.reserve(max_nx);
    unread_.reserve(max_nx);
  }

  // A new run: modes are examined afresh (the system may have been edited between runs).
  void forget() { mode_ = nullptr; }

  // Examines `mode` (nx states) unless it was the last one examined. `usable`: the stepper
  // evaluates single components and the mode has no algebraic states (solved from all of x).
  void note(const Mode& mode, int nx, bool usable) {
    if (&mode == mode_) return;
    mode_ = &mode;
    reads_.clear();
    unread_.clear();
    if (!usable || mode.guards.empty()) return;
    for (const Guard& g : mode.guards) {
      if (g.reads_states.empty()) return;  // this guard may read anything
    }
    for (int c = 0; c < nx; ++c) {
      const bool read = std::any_of(mode.guards.begin(), mode.guards.end(), [c](const Guard& g) {
        return std::find(g.reads_states.begin(), g.reads_states.end(), c) != g.reads_states.end();
      });
      (read ? reads_ : unread_).push_back(c);
    }
  }

  // Every guard of the mode declared its reads: their union, and the other components.
  bool all_declared() const { return !reads_.empty(); }
  const std::vector<int>& reads() const { return reads_; }
  const std::vector<int>& unread() const { return unread_; }

 private:
  const Mode* mode_ = nullptr;
  std::vector<int> reads_, unread_;
};

}  // namespace saltus::detail
