// The values of a mode's guards in doubles as event location reads them (private to src/sim):
// through each guard's DirectGuardValue (core/guard.hpp) where it has one, found once per mode
// (std::function::target costs an indirect call), else through Guard::value.
#pragma once

#include <vector>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::detail {

class GuardValues {
 public:
  explicit GuardValues(int max_guards) { direct_.reserve(static_cast<size_t>(max_guards)); }

  // A new run: modes are examined afresh (the system may have been edited between runs).
  void forget() { mode_ = nullptr; }

  // Looks up the guards of `mode` unless it was the last one looked up.
  void note(const Mode& mode) {
    if (&mode == mode_) return;
    mode_ = &mode;
    direct_.clear();
    for (const Guard& g : mode.guards) direct_.push_back(g.value.target<DirectGuardValue>());
  }

  // p(t, x, z) of `g`, a guard of the noted mode; x and z hold nx and nz doubles.
  double operator()(const Guard& g, double t, const double* x, int nx, const double* z,
                    int nz) const {
    if (const DirectGuardValue* d = direct_[static_cast<size_t>(&g - mode_->guards.data())]) {
      return d->fast(d->context.get(), t, x, z);
    }
    return g.value(t, Eigen::Map<const Vector>(x, nx), Eigen::Map<const Vector>(z, nz));
  }

 private:
  const Mode* mode_ = nullptr;
  std::vector<const DirectGuardValue*> direct_;
};

}  // namespace saltus::detail
