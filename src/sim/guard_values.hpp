// The values of a mode's guards in doubles as event location reads them (private to src/sim):
// through each guard's DirectGuardValue (core/guard.hpp) where it has one, found once per mode
// (std::function::target costs an indirect call), else through Guard::value; all of them at once
// through the mode's DirectGuardSet where it has one.
#pragma once

#include <cmath>
#include <vector>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::detail {

class GuardValues {
 public:
  explicit GuardValues(int max_guards) { direct_.reserve(static_cast<size_t>(max_guards)); }

  // A new run: modes are examined afresh (the system may have been edited between runs).
  void forget() { mode_ = nullptr; }
  // The guards read t = t0 + tau where the caller passes tau (the loop's clock, hybrid_loop.hpp).
  void set_time_origin(double t0) { origin_ = t0; }

  // Looks up the guards of `mode` unless it was the last one looked up.
  void note(const Mode& mode) {
    if (&mode == mode_) return;
    mode_ = &mode;
    set_ = mode.guard_set ? &*mode.guard_set : nullptr;
    count_ = static_cast<int>(mode.guards.size());
    direct_.clear();
    offsets_used_ = false;
    for (const Guard& g : mode.guards) {
      direct_.push_back(g.value.target<DirectGuardValue>());
      offsets_used_ = offsets_used_ || g.scale_offset != 0.0;
    }
  }
  // The engine's offsets of the noted mode's guards (GuardStates::offset), subtracted from every
  // value where a guard of the mode has one.
  void use_offsets(const double* offsets) { offsets_ = offsets; }

  // Every guard of the noted mode at (t, x, z) into values, in declaration order (one call of
  // the mode's guard set where it has one); returns the first guard whose value is not finite,
  // else -1. Guards one by one stop there, as a single loop (a second pass over the values costs
  // a mode of one guard, the ball's, ~2 % of its instructions).
  int all(double tau, const double* x, int nx, const double* z, int nz, double* values) const {
    const double t = origin_ + tau;
    if (set_) {
      set_->call(t, x, z, values);
      for (int k = 0; k < count_; ++k) {
        if (!std::isfinite(values[k])) return k;
        if (offsets_used_) values[k] -= offsets_[k];
      }
      return -1;
    }
    for (int k = 0; k < count_; ++k) {
      values[k] = at(mode_->guards[static_cast<size_t>(k)], t, x, nx, z, nz);
      if (!std::isfinite(values[k])) return k;
    }
    return -1;
  }

  // p(t0 + tau, x, z) of `g`, a guard of the noted mode; x and z hold nx and nz doubles.
  double operator()(const Guard& g, double tau, const double* x, int nx, const double* z,
                    int nz) const {
    return at(g, origin_ + tau, x, nx, z, nz);
  }

 private:
  double at(const Guard& g, double t, const double* x, int nx, const double* z, int nz) const {
    const size_t k = static_cast<size_t>(&g - mode_->guards.data());
    const double offset = offsets_used_ ? offsets_[k] : 0.0;
    if (const DirectGuardValue* d = direct_[k]) {
      return d->call(t, x, nx, z, nz) - offset;
    }
    return g.value(t, Eigen::Map<const Vector>(x, nx), Eigen::Map<const Vector>(z, nz)) - offset;
  }

  double origin_ = 0.0;
  const Mode* mode_ = nullptr;
  const DirectGuardSet* set_ = nullptr;  // the noted mode's, if it has one
  int count_ = 0;                        // its guards
  std::vector<const DirectGuardValue*> direct_;
  bool offsets_used_ = false;        // a guard of the noted mode has Guard::scale_offset
  const double* offsets_ = nullptr;  // GuardStates::offset
};

}  // namespace saltus::detail
