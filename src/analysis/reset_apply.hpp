// A reset's apply run at a given state, outside a simulation (analysis only): the numerical
// reset derivative (reset_jacobian.cpp) and the other order of a corner's two resets
// (hybrid_sensitivity.cpp) use it.
#pragma once

#include <exception>
#include <string>
#include <vector>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::analysis::detail {

// Runs the reset's apply at (t, x, z); x+ (the target's nx entries) into `x_plus`.
struct ApplyProbe {
  const HybridSystem& system;
  const Reset& reset;
  std::vector<int> nx_of_mode;
  Vector buffer, outputs;
  std::string failure;

  ApplyProbe(const HybridSystem& s, const Reset& r)
      : system(s), reset(r), buffer(s.max_nx()), outputs(r.output_names.size()) {
    for (const Mode& m : s.modes()) nx_of_mode.push_back(m.flow.nx);
  }
  bool operator()(double t, ConstVectorRef x, ConstVectorRef z, ModeId target, VectorRef x_plus) {
    Jump jump{reset.target, buffer, outputs, failure, nx_of_mode.data()};
    bool ok = false;
    try {
      ok = reset.apply(t, x, z, jump);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    if (!ok) return false;
    if (jump.target != target) {
      failure = "the reset chose mode '" + system.mode(jump.target).name + "' instead of '" +
                system.mode(target).name + "'";
      return false;
    }
    x_plus = buffer.head(x_plus.size());
    return true;
  }
};

}  // namespace saltus::analysis::detail
