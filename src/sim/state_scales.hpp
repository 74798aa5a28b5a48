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
  StateScales(int max_nx, int max_nz)
      : scale_(static_cast<size_t>(std::max(1, max_nx)), 0.0),
        at_refresh_(scale_.size(), 0.0),
        z_scale_(static_cast<size_t>(std::max(1, max_nz)), 0.0) {}

  // A new run from x0: nothing of the run before is kept.
  void begin(const ConstVectorRef& x0) {
    std::fill(scale_.begin(), scale_.end(), 0.0);
    std::fill(at_refresh_.begin(), at_refresh_.end(), 0.0);
    std::fill(z_scale_.begin(), z_scale_.end(), 0.0);
    note(x0.data(), static_cast<int>(x0.size()));
  }
  // The state at a step end or after a reset (its first n components). True when a component's
  // scale grew beyond twice what it was when this last answered true (from 0 included): levels
  // set from the scales (Guard::scale_offset) are then set again. Against the last refresh, not
  // the last step: a scale growing 1.9x per step (x'' = x from 1e-4) doubles every few steps.
  bool note(const double* x, int n) {
    note_into(scale_, x, n);
    bool doubled = false;
    for (int i = 0; i < n && !doubled; ++i) {
      doubled = scale_[static_cast<size_t>(i)] > 2.0 * at_refresh_[static_cast<size_t>(i)];
    }
    if (doubled) std::copy(scale_.begin(), scale_.begin() + n, at_refresh_.begin());
    return doubled;
  }
  // The algebraic state there.
  void note_algebraic(const double* z, int n) { note_into(z_scale_, z, n); }
  const double* data() const { return scale_.data(); }
  double x(int i) const { return scale_[static_cast<size_t>(i)]; }
  double z(int j) const { return z_scale_[static_cast<size_t>(j)]; }

 private:
  static void note_into(std::vector<double>& scale, const double* v, int n) {
    for (int i = 0; i < n; ++i) {
      const double a = std::abs(v[i]);
      double& s = scale[static_cast<size_t>(i)];
      if (a > s) s = a;  // NaN: kept
    }
  }
  std::vector<double> scale_;
  std::vector<double> at_refresh_;  // scale_ when note() last answered true
  std::vector<double> z_scale_;
};

}  // namespace saltus::detail
