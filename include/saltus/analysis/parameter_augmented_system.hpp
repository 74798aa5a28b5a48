// A hybrid system with its parameters appended to the state: x_a = (x, p), p' = 0 in every mode,
// every reset keeps p. Its flow-map Jacobian's columns for p are d x(t_end) / d p through every
// flow, guard (crossing time) and reset, so the saltation matrices of analysis/saltation.hpp
// carry the parameter terms S_p = DR_p + (f+ - DR_x f-) (-(P_p) / (P_t + P_x f-)) unchanged.
//
// Built from the system at the nominal parameters p0 and at p0 +- h_k e_k for each parameter k
// (for a model file: the file reloaded with the parameter overridden, so a parameter may enter
// the mass matrix, the forces, the contact geometry, an impact law's coefficients, a value
// computed from it; run/rebuilt_parameter_sensitivity.hpp). The derivatives in x are the
// nominal system's own (AD, symbolic, or a reset's allowed central differences); those in p are
// central differences between the systems at p0 + h_k e_k and p0 - h_k e_k with
// h_k = cbrt(eps) max(1, |p0_k|), truncation and rounding both ~eps^(2/3) ~ 4e-11 relative:
// df/dp, the guards' dP/dp, the resets' dR/dp. The callables evaluate the nominal system when the
// parameter states equal p0 and system k+- when they equal p0 +- h_k e_k exactly (the points that
// the central differences of analysis/reset_jacobian.cpp visit, with the same step), and throw
// saltus::Error at any other p.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::analysis {

struct ParameterFamily {
  HybridSystem nominal;             // at p0
  std::vector<std::string> names;   // the parameters, for messages
  Vector values;                    // p0
  Vector steps;                     // h_k = parameter_step(p0_k)
  std::vector<HybridSystem> plus;   // at p0 + h_k e_k
  std::vector<HybridSystem> minus;  // at p0 - h_k e_k
};

// cbrt(eps) max(1, |value|): the central-difference step of reset_jacobian.cpp.
double parameter_step(double value);

// The augmented system. Throws saltus::Error when the systems differ in their modes or guards
// (names, counts, sizes) or a mode is a DAE (not supported: ODE modes only).
HybridSystem parameter_augmented_system(std::shared_ptr<const ParameterFamily> family);

}  // namespace saltus::analysis
