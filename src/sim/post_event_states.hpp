// The states right after the latest events, kept for the Zeno hand-over (private to src/sim):
// the limit state at an accumulation point by Aitken's delta-squared on post-event states one
// cycle apart, and the Zeno kind (steady or spasmodic) of the accumulation. A fixed ring of
// ZenoMonitor::kHistory columns; nothing allocates after set-up.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include "saltus/core/types.hpp"
#include "saltus/events/zeno_kind.hpp"
#include "saltus/events/zeno_monitor.hpp"

namespace saltus::detail {

class PostEventStates {
 public:
  explicit PostEventStates(int max_nx) : states_(max_nx, kSlots) {}

  void clear() { count_ = 0; }
  void remember(const ConstVectorRef& x) {
    states_.col(count_ & (kSlots - 1)).head(x.size()) = x;
    sizes_[count_ & (kSlots - 1)] = static_cast<int>(x.size());
    ++count_;
  }

  // The Zeno kind (zeno_kind.hpp) of the latest states (up to options.window); no allocation.
  events::ZenoKindEvidence zeno_kind(const events::ZenoKindOptions& options) const {
    std::array<double, kSlots> norms{}, increments{};
    const int n = std::min({count_, options.window, kSlots});
    for (int k = 0; k < n; ++k) {  // oldest first: entry k is state(n - 1 - k)
      const int i = n - 1 - k;
      norms[k] = state(i).head(size(i)).lpNorm<Eigen::Infinity>();
      const bool comparable = k > 0 && size(i) == size(i + 1);
      increments[k] =
          comparable
              ? (state(i).head(size(i)) - state(i + 1).head(size(i))).lpNorm<Eigen::Infinity>()
              : kNaN;
    }
    return events::classify_zeno_kind(norms.data(), increments.data(), n, options);
  }

  // x_inf from x_now and the states one and two cycles (of `period` events) back: each
  // component whose differences shrink is extrapolated, a0 - d1^2 / (d1 - d2); the others (and
  // all of them while fewer than 2 period + 1 states are known) keep x_now's value.
  void extrapolate_limit(int period, const ConstVectorRef& x_now, VectorRef x_inf) const {
    x_inf = x_now;
    if (count_ < 2 * period + 1) return;
    for (Eigen::Index i = 0; i < x_now.size(); ++i) {
      const double a0 = state(0)[i], a1 = state(period)[i], a2 = state(2 * period)[i];
      const double d1 = a0 - a1, d2 = a1 - a2;
      const double denom = d1 - d2;
      if (denom != 0.0 && std::abs(d1) < std::abs(d2)) x_inf[i] = a0 - d1 * d1 / denom;
    }
  }

 private:
  static constexpr int kSlots = events::ZenoMonitor::kHistory;  // a power of two
  // The state after the i-th latest event (0 = latest).
  Eigen::Block<const Matrix, Eigen::Dynamic, 1, true> state(int i) const {
    return states_.col((count_ - 1 - i) & (kSlots - 1));
  }
  int size(int i) const { return sizes_[(count_ - 1 - i) & (kSlots - 1)]; }

  Matrix states_;
  std::array<int, kSlots> sizes_{};
  int count_ = 0;
};

}  // namespace saltus::detail
