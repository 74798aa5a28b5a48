// The next index sets of a LagrangianModel chosen by the contact-force LCP (internal to
// src/mech): at every event that changes which rigid contacts are closed, stick or slide.
//
// Source: [LB] Sec. 2 (seed 001): the event-driven scheme solves (2.9)-(2.11) over the closed
// contacts I_N (g_N = gdot_N = 0) with the sticking candidates I_H (gdot_T = 0) and continues
// with the index sets of its solution; FORMULAS.md 10.3. The verdicts of the LCP layer
// (contact_verdict.hpp) decide: unique -> the next mode; none (inconsistent) or several
// (indeterminate) -> no post-event state, with a message naming the contacts, the sets, t and
// the LCP's own report (its solutions and values).
#pragma once

#include <string>

#include "saltus/core/types.hpp"
#include "saltus/mech/contact_force_problem.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech::detail {

// The mode holding the rigid contacts of `closed` (bits), `stick` of them sticking and the
// sliding ones of `slip_negative` with s = -1 (others +1): the open mode, a single-contact mode
// or kind IndexSets. Bits of frictionless contacts in stick / slip_negative are ignored.
LagrangianMode mode_of_sets(const LagrangianModel& m, unsigned closed, unsigned stick,
                            unsigned slip_negative, unsigned compliant_mask);

// Sticking candidates (|gdot_T| <= rest x its scale, contact_tolerances.hpp) and slip
// directions of the frictional contacts of `closed` at (q, qdot); state_scales:
// Jump::state_scales or nullptr. rest = kEventRestRate at an event; the Zeno hand-over's
// extrapolated limit state uses kPostZenoRestRate (post-zeno, index_set_modes.cpp).
void sets_from_velocities(const LagrangianModel& m, unsigned closed, ConstVectorRef q,
                          ConstVectorRef qdot, const double* state_scales, unsigned& stick,
                          unsigned& slip_negative, double rest);

// The contact-force problem (2.9)-(2.11) over `closed` (assumed g_N = gdot_N = 0; LCP column j
// is the j-th contact of `closed` in ascending order) with `stick` as I_H and the sliding
// directions of `slip_negative` (gdot_T = -1 or +1: the direction, not the speed).
ContactForceProblem force_problem_of_sets(const LagrangianModel& m, double t, ConstVectorRef q,
                                          ConstVectorRef qdot, unsigned closed, unsigned stick,
                                          unsigned slip_negative, unsigned compliant_mask);

// Solves (2.9)-(2.11) over `closed` (assumed g_N = gdot_N = 0) with `stick` as I_H and the
// sliding directions of `slip_negative`; true with the next mode in `out`, or false with
// `failure` (verdict none / several / uncertified).
bool choose_index_sets(const LagrangianModel& m, double t, ConstVectorRef q, ConstVectorRef qdot,
                       unsigned closed, unsigned stick, unsigned slip_negative,
                       unsigned compliant_mask, LagrangianMode& out, std::string& failure);

// "'a' (stick), 'b' (slip+)" for messages.
std::string describe_sets(const LagrangianModel& m, unsigned closed, unsigned stick,
                          unsigned slip_negative);

}  // namespace saltus::mech::detail
