// The scale of each state component over a run (private to src/sim; docs/ARCHITECTURE.md
// "Tolerances"): the largest |x_i| seen since the run started, at its start, the ends of
// accepted steps and after every reset. Tolerances that compare a quantity computed from the
// state weigh these by the quantity's sensitivity to each component (sum_i |dq/dx_i| S_i), so
// they are in the quantity's own units, scale with the model's units, and ignore components the
// quantity does not read (a block translated to x = 1e8 keeps the bands of its gaps). A
// component never away from 0 has scale 0. Resets read the scales through Jump::state_scales.
// Nothing allocates after construction.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "saltus/core/types.hpp"

namespace saltus::detail {

class StateScales {
 public:
  explicit StateScales(int max_nx) : scale_(static_cast<size_t>(std::max(1, max_nx)), 0.0) {}

  // A new run from x0: nothing of the run before is kept.
  void begin(const ConstVectorRef& x0) {
    std::fill(scale_.begin(), scale_.end(), 0.0);
    note(x0.data(), static_cast<int>(x0.size()));
  }
  // The state at a step end or after a reset (its first n components).
  void note(const double* x, int n) {
    for (int i = 0; i < n; ++i) {
      const double a = std::abs(x[i]);
      if (a > scale_[static_cast<size_t>(i)]) scale_[static_cast<size_t>(i)] = a;  // NaN: kept
    }
  }
  const double* data() const { return scale_.data(); }

 private:
  std::vector<double> scale_;
};

}  // namespace saltus::detail
