// The answer a cone contact problem with dependent contacts takes where the rigid model has a
// continuum of answers that move the system differently: the rigid limit of equal compliance at
// every contact.
//
// With dependent contacts (G = W^T M^-1 W singular: a face's four corners on a floor) the rigid
// problem u = G r + b leaves r free along G's null space (how a face's impulse splits among its
// corners), and with friction the cones follow that split, so different splits move the system
// differently: solve_cone_contact_problem reports Several. No contact is perfectly rigid: with
// the same compliance c on every row, u = (G + c 1) r + b has a positive definite matrix, which
// fixes the split (frictionless: the least |r|, that of equal springs, as the index-set flow
// splits a face's weight, spatial_index_set_dynamics.hpp). Its answer is followed as the
// contacts stiffen: c = 1e-2 of G's largest diagonal entry (well conditioned; several answers
// there are reported), then down by factors of 10 to 1e-8, each problem started from the answer
// before (steps of 100 let the answer depend on the contacts' order in 3 of 30 random bodies;
// ConeContactOptions::start; a later step that does not reach the tolerance hands on its least
// residual: it only starts the next). The last, r_c, is polished on the rigid problem from r_c
// and taken when the polished answer moves the system as r_c does (u = G r + b within
// distinct_tolerance of the scale). No answer or several at c = 1e-2, a polish that does not
// converge or that moves away, is reported, never chosen.
#pragma once

#include "saltus/mech/cone_contact_problem.hpp"

namespace saltus::mech {

// The compliance taken, as a fraction of G's largest diagonal entry.
inline constexpr double kClosureCompliance = 1e-8;

// The rigid problem's answer approached by equal compliance at every contact. Solved: r, u hold
// it (a rigid answer), message says so; otherwise the status and message of the step that failed.
ConeContactResult solve_in_the_compliant_limit(const ConeContactProblem& problem,
                                               const ConeContactOptions& options = {});

}  // namespace saltus::mech
