// Simultaneous impacts of several rigid contacts of a LagrangianModel, solved together as one
// LCP (internal to src/mech; used by the impact resets of impact_resets.cpp).
//
// Sources: [LB] (2.12)-(2.18) (seed 001: impact equation over I_S, complementarity of impulses
// and post-impact velocities); FORMULAS.md 10.4. Restitution: Moreau's velocity-level Newton law
// per contact, gdot_N,i(t+) + e_i gdot_N,i(t-) >= 0 complementary to Lambda_N,i >= 0; e_i = 0 is
// the completely inelastic law of [LB] (2.14). With G = W_N^T M^-1 W_N over I_S:
//   w = G Lambda + (1 + E) gdot_N(t-),  0 <= w  perp  Lambda >= 0,  qdot+ = qdot- + M^-1 W_N Lambda
// ((1 + e_i) only on approaching contacts; separating ones enter with gdot_N(t-), below)
// solved by certified enumeration (lcp_enumeration.hpp). G is positive semidefinite, so all
// solutions move the system alike; the verdict still comes from the enumeration (none / several
// distinct motions / unique) and never assumes it.
//
// Which laws extend to several contacts: every contact takes part with its e read as Moreau's
// e_i (for a frictionless single impact Newton, Poisson and Stronge coincide). A FRICTIONAL
// contact (law kind other than NewtonFrictionless, mu > 0, a tangential coordinate) adds Coulomb
// friction through the impact LCP (2.17)-(2.18) of impact_problem.hpp, its gdot_N(t-) scaled by
// (1 + e_i) and its gdot_T(t-) by (1 + e_t,i): the Newton-Coulomb law (newton_coulomb_law.hpp),
// with e_t,i of a newton_coulomb contact and 0 for the other laws. A newton_coulomb contact gets
// the same law alone; another law (Poisson, Stronge, Chatterjee-Ruina, ...) is used only when its
// contact impacts alone.
//
// The impact set I_S ([LB] (2.12): every contact with g_N = 0): the contact whose guard fired,
// every other rigid contact whose gap is at most the round-off of its terms (contact_state.hpp)
// or that approaches and would reach its surface within the time the located state may precede
// the fired contact's impact (its residual gap over its approach rate), and the contacts held
// closed by the mode. Without restitution
// ([LB]'s completely inelastic law) a touching contact that separates (gdot_N(t-) > 0) enters the
// LCP with gdot_N(t-) itself (gdot_N(t+) >= 0 perp Lambda_N >= 0): it receives impulse only when
// the others' impulses would drive it into the surface (oracle lcp.impact.box_two_corners_e0, qdot-
// = (0.5, -1, 3)); the law dissipates. With restitution it can add energy through such a contact;
// when the solution over I_S gains energy beyond round-off, the impact is solved again without the
// separating contacts (multi_contact_impact.cpp, lcp_members), which take their own impact at the
// same instant if the others drive them into the surface. A set with a super-elastic contact
// (ContactImpactLaw::superelastic, e_i > 1 allowed) is not refused for the energy it gains.
#pragma once

#include <array>

#include <string>
#include <vector>

#include "saltus/core/reset.hpp"
#include "saltus/core/types.hpp"
#include "saltus/mech/contact_verdict.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech::detail {

struct SimultaneousImpact {
  Verdict verdict = Verdict::NotRun;
  std::vector<int> contacts;  // I_S, model contact indices (the fired contact first)
  Vector impulse_N;           // Lambda_N per entry of `contacts`
  Vector impulse_T;           // Lambda_T per entry of `contacts` (0 for frictionless members)
  Vector rate_N;              // gdot_N(t+) per entry of `contacts`
  Vector qdot_plus;
  double energy_change = kNaN;    // T+ - T-
  std::vector<int> closed_after;  // contacts of I_S left with gdot_N(t+) = 0 (to 1e-12)
  std::string message;            // why there is no post-impact state (empty when resolved)
  // Friction in space (resolve_in_space): each entry's impulses along its slip rows eta_1, eta_2
  // (zero for the others), and whether the rigid limit of equal compliance chose the answer.
  std::vector<std::array<double, 2>> impulse_slip;
  bool equal_compliance = false;
  bool resolved() const { return verdict == Verdict::Unique; }
};

// I_S of an impact of contact `fired` at (q, qdot) in a mode holding the contacts of `closed`
// (bit i: contact i) at (q, qdot): the fired contact first; EMPTY (no allocation) when no other
// contact joins. state_scales: Jump::state_scales (the run's largest |x_k|), or nullptr.
std::vector<int> simultaneous_impact_set(const LagrangianModel& m, double t, int fired,
                                         unsigned closed, ConstVectorRef q, ConstVectorRef qdot,
                                         const double* state_scales = nullptr);

// Solves the Moreau-Newton impact LCP over `contacts` at (q, qdot-); t for messages.
SimultaneousImpact resolve_simultaneous_impact(const LagrangianModel& m,
                                               const std::vector<int>& contacts, double t,
                                               ConstVectorRef q, ConstVectorRef qdot_minus,
                                               const double* state_scales = nullptr);

// The event row's note of a resolved simultaneous impact (Jump::note): the law, and per contact
// its impulses and its share of T+ - T- (the work of its impulses at the mean of its rates).
std::string simultaneous_impact_note(const LagrangianModel& m, const SimultaneousImpact& imp,
                                     ConstVectorRef q, ConstVectorRef qdot_minus);

// The impact as a jump: x+ = (q, qdot+), outputs (impulse_t, impulse_n of the fired contact
// set[0], energy change of the whole set), the note above where the log keeps one; `closed` =
// the contacts left with gdot_N(t+) = 0 (bits). False with jump.failure when the LCP has no
// unique answer.
bool simultaneous_impact_jump(const LagrangianModel& m, const std::vector<int>& set, double t,
                              ConstVectorRef x, Jump& jump, unsigned& closed);

// "'a', 'b'" for messages.
std::string contact_names(const LagrangianModel& m, const std::vector<int>& contacts);

// T+ - T-, the normal rates after, and the contacts of I_S left closed (to 1e-12 of their scale,
// or separating too slowly for their bounce to be resolved), from out.qdot_plus.
struct ContactScales;
void finish(const Matrix& M, const Matrix& W_N, ConstVectorRef qdot_minus, const ContactScales& s,
            SimultaneousImpact& out);

// Contacts with friction in space among I_S (spatial_multi_contact_impact.cpp): Newton's e and
// Glocker's e_t per contact with Coulomb's cone, the cone contact problem of
// cone_contact_problem.hpp at the impulse level; `where` starts its messages.
SimultaneousImpact resolve_in_space(const LagrangianModel& m, const std::vector<int>& contacts,
                                    const std::string& where, ConstVectorRef q,
                                    ConstVectorRef qdot_minus, const ContactScales& s);

}  // namespace saltus::mech::detail
