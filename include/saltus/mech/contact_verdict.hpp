// The outcome of a contact problem (forces [LB] (2.9)-(2.10) or impact [LB] (2.17)-(2.18)):
// the verdict unique / none / several, every solution found, and what a run may do next.
//
// Source: [LB] Sec. 1-2 (Painleve paradox: the contact LCP may have no solution,
// "inconsistency", or several, "indeterminacy"); FORMULAS.md sections 10.3-10.5 and 11.1.
//
// Rule: a run never picks one of several solutions silently. With the default
// SelectionPolicy::Stop, `selected` is -1 whenever the verdict is not Unique and the caller
// (the event-driven simulator) must stop with `message`. A user who wants the run to go on
// opts in to a policy that is recorded in `policy_used` and named in the message.
//
// Uniqueness is judged on the motion (qddot for forces, qdot+ for impacts): solutions that
// move the system identically but distribute forces differently (statically indeterminate,
// e.g. two sticking corners of one body, FORMULAS.md 10.3 note) are one motion, with
// `forces_indeterminate` set; the motion and the next index sets are then unique.
//
// Symbol table ([LB] -> code):
//   lambda_N, lambda_T (forces) / Lambda_N, Lambda_T (impulses) -> ContactSolution::lambda_N/_T
//   qddot / qdot(t+)                                           -> ContactSolution::motion
//   gddot_N, gddot_T / gdot_N(t+), gdot_T(t+)                  -> ContactSolution::rate_N/_T
//   I_S, I_N, I_H                                              -> ContactIndexSets
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "saltus/core/types.hpp"
#include "saltus/lcp/lcp_enumeration.hpp"
#include "saltus/lcp/lemke.hpp"
#include "saltus/mech/planar_contact.hpp"

namespace saltus::mech {

enum class ContactProblemKind {
  Forces,  // contact forces on closed contacts, [LB] (2.9)-(2.10)
  Impact,  // completely inelastic impact with friction, [LB] (2.17)-(2.18)
};

enum class Verdict {
  NotRun,       // nothing solved
  Unique,       // exactly one motion (forces may be indeterminate, see forces_indeterminate)
  None,         // no solution: Painleve inconsistency (certified by enumeration)
  Several,      // two or more motions, or a continuum of motions: Painleve indeterminacy
  Uncertified,  // LCP too large to enumerate: Lemke's answer, existence/uniqueness unproven
};

// Opt-in choice among several solutions; the default stops the run.
enum class SelectionPolicy {
  Stop,                // never choose: selected = -1 unless the verdict is Unique
  FirstFound,          // the first solution in enumeration order (face bit masks ascending);
                       // deterministic but physically arbitrary
  LeastKineticEnergy,  // impact: least post-impact kinetic energy 1/2 qdot+^T M qdot+;
                       // forces: least Gauss constraint 1/2 (qddot - a)^T M (qddot - a),
                       // a = M^-1 h the free acceleration (the acceleration-level analogue)
};

enum class NormalState {
  Inactive,  // contact not part of this problem
  Closed,    // stays in contact: gddot_N = 0 (forces) or gdot_N(t+) = 0 (impact)
  Open,      // separates: gddot_N > 0 or gdot_N(t+) > 0, zero normal force/impulse
};

enum class TangentialState {
  Stick,          // gddot_T = 0 (forces) / gdot_T(t+) = 0 (impact), |lambda_T| <= mu lambda_N
  SlidePositive,  // gdot_T > 0 (or starts: gddot_T > 0), lambda_T = -mu lambda_N
  SlideNegative,  // gdot_T < 0 (or starts: gddot_T < 0), lambda_T = +mu lambda_N
};

struct ContactMode {
  NormalState normal = NormalState::Inactive;
  TangentialState tangential = TangentialState::Stick;
};

// "closed/slide+", "open/stick", ... for forces; "slip+", "stick", "slip-", "open" for impacts;
// "inactive" for contacts outside the problem.
std::string to_string(const ContactMode& mode, ContactProblemKind kind);
std::string_view to_string(Verdict verdict);
std::string_view to_string(SelectionPolicy policy);

// One solution, expressed for all n_c contacts (zeros / Inactive outside the problem's set).
struct ContactSolution {
  Vector lambda_N;                 // n_c: normal forces (2.9) or impulses (2.17), >= 0
  Vector lambda_T;                 // n_c: tangential forces or impulses
  Vector motion;                   // n: qddot (forces) or qdot(t+) (impact)
  Vector rate_N;                   // n_c: gddot_N or gdot_N(t+) (NaN outside the problem's set)
  Vector rate_T;                   // n_c: gddot_T or gdot_T(t+) (NaN outside)
  std::vector<ContactMode> modes;  // n_c
  ContactIndexSets next_sets;      // index sets after this solution
  double energy = kNaN;            // the LeastKineticEnergy measure (see SelectionPolicy)
  int motion_class = -1;           // index of its motion among the distinct motions
  Vector lcp_z;                    // the LCP unknown it came from (for diagnostics)
};

struct ContactSolveOptions {
  // Opt-in choice among several solutions; Stop by default (see SelectionPolicy).
  SelectionPolicy selection = SelectionPolicy::Stop;
  // Enumeration settings; LCPs larger than enumeration.max_size are solved by Lemke and get
  // the verdict Uncertified.
  lcp::LcpEnumerationOptions enumeration;
  lcp::LemkeOptions lemke;
  // Every tolerance is a fraction of the quantity's own scale, so a problem in other units is
  // decided alike (docs/ARCHITECTURE.md "Tolerances"):
  // A contact rate (gddot or gdot+) counts as zero when |rate| <= rate_tolerance * s, s = the sum
  // of the magnitudes of the terms that make it (its free rate and each coordinate's part of the
  // contact forces' change). Decides Open/Closed and Stick/Slide.
  double rate_tolerance = 1e-9;
  // Two motions are one when they differ by <= motion_tolerance * S in the kinetic metric
  // |v|_M = sqrt(v^T M v) (metres and radians weighed by their inertia), S = |free motion|_M +
  // the largest |motion|_M of the solutions. Forces are compared by the motion they make: a
  // difference d in a contact's force counts d sqrt(w^T M^-1 w) against force_tolerance * S.
  double motion_tolerance = 1e-9;
  double force_tolerance = 1e-9;
};

// Throws saltus::Error naming field, value and rule for an invalid option.
void validate(const ContactSolveOptions& options);

// What a contact problem returns, and what a run stops with.
struct ContactOutcome {
  ContactProblemKind kind = ContactProblemKind::Forces;
  Verdict verdict = Verdict::NotRun;
  double time = kNaN;                      // time of the event, for the message (NaN: not given)
  ContactIndexSets sets;                   // index sets the problem was posed on
  std::vector<int> contacts;               // contacts in the LCP (I_N for forces, I_S for impacts)
  std::vector<ContactSolution> solutions;  // every solution found, distinct by forces
  int motions = 0;                         // distinct motions among solutions
  bool motion_continuum = false;           // a face of solutions moves the system continuously
  bool forces_indeterminate = false;       // one motion, several force distributions
  int selected = -1;                       // solution the run may continue with; -1: stop
  SelectionPolicy policy_used = SelectionPolicy::Stop;  // how `selected` was chosen
  Matrix lcp_matrix;  // the LCP w = M z + q that was solved (diagnostics)
  Vector lcp_q;
  int lcp_faces = 0;    // complementary faces enumerated (2^size; 0 when Lemke)
  std::string message;  // one paragraph: what was found, where, and a hint

  bool can_continue() const { return selected >= 0; }
  const ContactSolution* selected_solution() const {
    return selected >= 0 ? &solutions[static_cast<std::size_t>(selected)] : nullptr;
  }
};

namespace detail {
// The kinetic metric of a contact problem (ContactSolveOptions): M, the weight of each observable
// row in it (sqrt(M_kk) for coordinate k's motion, sqrt(w^T M^-1 w) for a contact force along
// w), and the problem's motion scale S.
struct KineticScales {
  Matrix mass;
  Vector row_weight;
  double motion_scale = 0.0;
  double norm(const Vector& v) const { return std::sqrt(std::max(0.0, v.dot(mass * v))); }
};
// Shared by the force and impact problems: groups `outcome.solutions` into motions, reads the
// ranges of the singular faces (observable rows: n motion rows, then force rows), sets the
// verdict, applies options.selection and writes the message.
void finalize_outcome(ContactOutcome& outcome, const std::vector<lcp::LcpFace>& faces,
                      int motion_rows, const KineticScales& scales,
                      const ContactSolveOptions& options);
}  // namespace detail

}  // namespace saltus::mech
