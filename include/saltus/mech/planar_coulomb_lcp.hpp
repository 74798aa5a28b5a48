// Planar unilateral contact with Coulomb friction written as one LCP (Glocker-Pfeiffer form),
// shared by the contact-force problem and the inelastic impact problem.
//
// Source: [LB] (2.9)-(2.10) and (2.17)-(2.18), which [LB] says "can be transformed into an
// LCP as formulated in [9, 32]" (Glocker; Pfeiffer & Glocker, "Multibody Dynamics with
// Unilateral Contacts", Wiley 1996, Ch. 6); FORMULAS.md sections 10.3-10.4.
//
// Unknowns for contacts c in C (C = I_N for forces, I_S for impacts), of which those in H are
// sticking candidates and the others slide with known direction s_c = sign(gdot_Tc):
//   sliding c  : lambda_Tc = -mu_c s_c lambda_Nc (friction on the cone edge), so the normal
//                force acts along W_Nc + W_Tc (-mu_c s_c)   ([LB] W_N + W_G mu_G);
//   sticking c : the tangential rate is split, gddot_T = a+ - a-, a+, a- >= 0, and the
//                friction reserves k+ = mu lambda_N + lambda_T >= 0, k- = mu lambda_N -
//                lambda_T >= 0 enter as the complementarity pairs a+ perp k+, a- perp k-
//                (a+ > 0: positive sliding starts, lambda_T = -mu lambda_N; a- > 0: negative
//                sliding, lambda_T = +mu lambda_N; both zero: sticking, |lambda_T| <= mu
//                lambda_N).
// LCP w = A z + b, z = (lambda_N [n_C], k+ [n_H], a- [n_H]), w = (gddot_N, a+, k-):
//   [gddot_N]   [G_N - G_NH mu_H   G_NH   0] [lambda_N]   [b_N]
//   [  a+   ] = [G_HN - G_HH mu_H  G_HH   I] [   k+   ] + [b_H]
//   [  k-   ]   [2 mu_H             -I    0] [   a-   ]   [ 0 ]
// with G_N = W_N^T M^-1 W_eff, G_NH = W_N^T M^-1 W_H, G_HN = W_H^T M^-1 W_eff,
// G_HH = W_H^T M^-1 W_H, W_eff = W_N + W_G mu_G, and mu_H (n_H x n_C) holding mu_c in the
// column of c. For forces b = W^T M^-1 h + what; for impacts b = gdot(t-) and "gddot" reads
// gdot(t+) (with Lambda for lambda).
//
// Symbol table ([LB] -> code): W_N, W_T -> contacts.W_N/W_T columns of C; W_G mu_G -> the
// slide terms of w_eff; mu_H -> mu_h; lambda_H -> k+ - mu lambda_N; the map from z to all
// (lambda_N, lambda_T) of C -> force_map.
#pragma once

#include <vector>

#include "saltus/core/types.hpp"
#include "saltus/mech/contact_verdict.hpp"
#include "saltus/mech/planar_contact.hpp"

namespace saltus::mech {

struct PlanarCoulombLcp {
  std::vector<int> contacts;  // C, sorted
  std::vector<int> sticking;  // H, sorted, subset of C
  Matrix matrix;              // A, (n_C + 2 n_H) square
  Vector q;                   // b
  Matrix force_map;           // 2 n_C x size: z -> (lambda_N(C), lambda_T(C))
  Matrix motion_map;          // n x size: z -> M^-1 (W_N lambda_N + W_T lambda_T)
  double delassus_scale = 0;  // max |entry| of the frictionless W_C^T M^-1 W_C (>= tiny)
};

// Builds the LCP above. `m_inv` is M^-1 (n x n); `slide_sign[c]` is +-1 for sliding contacts
// of C (ignored for H); `b_N`, `b_T` are indexed by contact (size n_c), read on C and H.
PlanarCoulombLcp build_planar_coulomb_lcp(const Matrix& m_inv, const PlanarContacts& contacts,
                                          const std::vector<int>& C, const std::vector<int>& H,
                                          const Vector& slide_sign, const Vector& b_N,
                                          const Vector& b_T);

namespace detail {
// M^-1 of a symmetric positive definite n x n mass matrix; throws saltus::Error naming `who`
// when M has the wrong size, a non-finite entry, or is not symmetric positive definite.
Matrix inverse_mass_matrix(const Matrix& mass, Eigen::Index n, const char* who);

// Solves `lcp` (enumeration, or Lemke above options.enumeration.max_size) and turns every
// solution z into a ContactSolution: forces = force_map z, motion = base_motion +
// motion_map z, rates = rate_offset + W^T motion_change (forces: offset = W^T M^-1 h + what
// on all contacts; impact: offset = gdot(t-)). Sliding contacts (in C, not in H) keep their
// direction; the others are classified by the sign of their tangential rate. Then
// finalize_outcome decides the verdict.
ContactOutcome decide_planar_coulomb(ContactProblemKind kind, const Matrix& mass,
                                     const PlanarContacts& contacts, const PlanarCoulombLcp& lcp,
                                     const Vector& slide_sign, const Vector& base_motion,
                                     const Vector& rate_offset_N, const Vector& rate_offset_T,
                                     const ContactIndexSets& sets, double time,
                                     const ContactSolveOptions& options);
}  // namespace detail

}  // namespace saltus::mech
