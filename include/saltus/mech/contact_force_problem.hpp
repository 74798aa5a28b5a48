// Contact forces on the closed contacts of a planar system with Coulomb friction:
// the coupled normal-tangential problem for stick-slip and detachment transitions.
//
// Source: [LB] Sec. 2, eqs. (2.5)-(2.11) (contact laws, LCP (2.9)-(2.10)); FORMULAS.md
// section 10.3 (combined problem, W_G mu_G, note on singular W_H^T M^-1 W_H), 10.2 (what),
// 11.1 (single sliding contact: gddot_N = B lambda_N + b, the Painleve criterion).
//
// Assumptions: contacts in I_N are closed (g_N = gdot_N = 0); those in I_N \ I_H slide with
// the sign of their gdot_T and enter with friction on the cone edge lambda_T = -mu s lambda_N;
// those in I_H are sticking candidates and enter through the Glocker-Pfeiffer pairs
// (planar_coulomb_lcp.hpp). Contacts outside I_N carry no force. M is symmetric positive
// definite. The answer is certified by enumeration (lcp_enumeration.hpp) when the LCP size
// n_N + 2 n_H <= options.enumeration.max_size; larger problems get Lemke and the verdict
// Uncertified.
//
// Symbol table ([LB] -> code):
//   M, h                       -> ContactForceProblem::mass, h
//   W_N, W_T, what             -> contacts.W_N, W_T, w_hat_N, w_hat_T (column convention,
//                                 planar_contact.hpp)
//   I_N, I_H                   -> sets.I_N, sets.I_H
//   lambda_N, lambda_T, qddot  -> ContactSolution::lambda_N, lambda_T, motion
//   gddot_N, gddot_T           -> ContactSolution::rate_N, rate_T
//   B, b (FORMULAS 11.1)       -> ContactOutcome::lcp_matrix(0, 0), lcp_q(0) for one sliding
//                                 contact
#pragma once

#include "saltus/core/types.hpp"
#include "saltus/mech/contact_verdict.hpp"
#include "saltus/mech/planar_contact.hpp"

namespace saltus::mech {

struct ContactForceProblem {
  Matrix mass;              // M, n x n, symmetric positive definite
  Vector h;                 // n: all smooth generalized forces (gravity, springs, gyroscopic)
  PlanarContacts contacts;  // all n_c contacts; gdot_T gives the slide direction on I_N \ I_H
  ContactIndexSets sets;    // I_S, I_N, I_H; e.g. compute_index_sets(contacts)
  double time = kNaN;       // for messages only
};

// Solves (2.9)-(2.10) and returns the verdict, every solution and the next index sets.
// Throws saltus::Error for bad input: sizes, non-finite entries, mu < 0, M not SPD, index
// sets out of range or not nested (I_H in I_N in I_S), a sliding contact with gdot_T = 0.
ContactOutcome solve_contact_forces(const ContactForceProblem& problem,
                                    const ContactSolveOptions& options = {});

}  // namespace saltus::mech
