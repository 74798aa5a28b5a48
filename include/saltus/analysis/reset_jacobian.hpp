// The derivative of a reset map x+ = R(t, x-, z-) into the target chosen at the event.
//
// Reset::chosen_jacobian when the reset has one (its decisions read from x+), else
// Reset::jacobian (AD for Reset::to_ad, symbolic for model files); the
// identity for identity resets. A reset with neither (Reset::custom: impact laws solved by an LCP
// or a Routh process) has no exact derivative: false + `failure` naming the guard, unless the
// caller allows the documented fallback (`allow_differences`): central differences of
// Reset::apply, step cbrt(eps) max(1, |x_k|), truncation and rounding errors both
// ~ eps^(2/3) ~ 4e-11 relative, flagged `numerical`. A perturbed apply that fails or picks
// another target means the reset is not differentiable there (a switch of the impact law's
// case): false + `failure`.
#pragma once

#include <string>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::analysis {

struct ResetJacobian {
  Matrix d_dx;             // nx+ by nx-
  Matrix d_dz;             // nx+ by nz-
  Vector d_dt;             // nx+
  bool numerical = false;  // by central differences of Reset::apply
};

// Guard `guard` of mode `source` fired at (t, x-, z-) and continued in `target` at x+.
bool reset_jacobian(const HybridSystem& system, ModeId source, GuardId guard, ModeId target,
                    double t, ConstVectorRef x_minus, ConstVectorRef z_minus, ConstVectorRef x_plus,
                    bool allow_differences, ResetJacobian& out, std::string& failure);

}  // namespace saltus::analysis
