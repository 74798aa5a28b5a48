// The motions a state's rigid contact forces allow, for the log of the Moreau-Jean bridge (issue
// 32 item 2: "log the alternative"): at a Painleve situation (the contact-force LCP [LB]
// (2.9)-(2.10) over the rigid contacts at rest on their surfaces has no solution or several),
// which motions were consistent and which of them a stepped contact state matches.
//
// Sliding contacts are posed in the direction of their tangential rate, sticking candidates where
// that rate is within kEventRestRate of its scale (as at an event); one solution per distinct
// motion is named. For the classical Painleve rod sliding with B < 0 < b the LCP's two motions
// are "slip- lambda_N = -b/B" and "lift-off" (FORMULAS.md 11.1), with B < 0, b < 0 none.
#pragma once

#include <string>
#include <vector>

#include "saltus/core/types.hpp"
#include "saltus/mech/contact_verdict.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/mech/moreau_jean.hpp"

namespace saltus::mech {

struct ContactAlternatives {
  std::vector<int> contacts;  // the rigid contacts posed (ascending): LCP column j is contacts[j]
  ContactOutcome outcome;     // their contact-force LCP (verdict NotRun when none is posed)
  bool painleve() const {
    return outcome.verdict == Verdict::None || outcome.verdict == Verdict::Several;
  }
};

// The contact-force LCP at (t, q, qdot) over those of `candidates` (rigid contacts the caller
// found on their surfaces) whose normal rate is within `rest` of its scale sum_k |w_N,k qdot_k|.
// Throws only what the LCP throws for a mass matrix that is not SPD.
ContactAlternatives contact_alternatives(const LagrangianModel& model, double t, ConstVectorRef q,
                                         ConstVectorRef qdot, const std::vector<int>& candidates,
                                         double rest);

// Several motions are consistent and one of them is the free motion: every posed contact lifts
// off (lambda_N = 0, gddot_N >= 0). The compliant limit selects it there (bridge/bridged_run.hpp;
// tests/model/painleve_compliant_branch_test.cpp, bridged_run_test.cpp).
bool free_motion_consistent(const ContactAlternatives& alternatives);

// Whether (t, x = (q, qdot)) is a Painleve situation of the rigid contacts of `model` that touch
// (mech::touches, contact_state.hpp) with their normal rates within `rest` of their scales.
bool painleve_situation(const LagrangianModel& model, double t, ConstVectorRef x, double rest);

// "several motions: ['tip' slip- lambda_N = 3.27] ['tip' lift-off]", "no consistent motion",
// "one motion: [...]": the distinct motions, each by its contacts' modes (lift-off, stick, slip+,
// slip-, closed) and the normal force of the closed ones.
std::string motions_text(const LagrangianModel& model, const ContactAlternatives& alternatives);

// Which motion a stepped state (per model contact, moreau_jean.hpp) shows on the posed contacts:
// "['tip' lift-off] (motion 2 of 2)", "['tip' stick] (none of them)", or "no step" when `state`
// is empty.
std::string taken_text(const LagrangianModel& model, const ContactAlternatives& alternatives,
                       const std::vector<SteppedContact>& state);

}  // namespace saltus::mech
