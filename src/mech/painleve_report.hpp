// The status that ends a run in a Painleve situation (FORMULAS.md 11.1; [LB] Sec. 1): a rigid
// contact sliding with s has gddot_N = B lambda_N + b, B = w_N^T M^-1 (w_N - mu s w_T). With
// B <= 0 the contact-force problem 0 <= gddot_N _|_ lambda_N >= 0 has no solution (b < 0) or
// two (b > 0), so rigid Coulomb contact cannot say how the motion continues. Internal to
// src/mech.
#pragma once

#include <string>

#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech::detail {

// The message naming model, body, contact, t, what happened, s, B, mu, the critical mu at q
// (B = 0 there: mu_c = mu a / (a - B), a = w_N^T M^-1 w_N), q and qdot, with a hint.
std::string painleve_message(const LagrangianModel& model, int contact, double t, ConstVectorRef q,
                             ConstVectorRef qdot, double s, double B, const char* what);
// Throws saltus::Error with painleve_message().
[[noreturn]] void throw_painleve(const LagrangianModel& model, int contact, double t,
                                 ConstVectorRef q, ConstVectorRef qdot, double s, double B,
                                 const char* what);

}  // namespace saltus::mech::detail
