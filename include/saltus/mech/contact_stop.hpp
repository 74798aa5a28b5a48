// Why a mechanical model's event-driven run has no answer at a contact: the cause its resets give
// (Jump::cause, reported as SimulationSummary::reset_cause) and its mode choices throw
// (ContactStopError), so that the Moreau-Jean bridge (bridge/bridged_run.hpp) decides on the cause,
// never on a message that carries the model's, bodies' and contacts' own names.
#pragma once

#include <exception>
#include <string>

#include "saltus/core/error.hpp"

namespace saltus::mech {

enum class ContactStop : int {
  None = 0,
  // The contact forces over the closed contacts have no solution or several (Painleve: B <= 0
  // where a slip starts, the several-contacts Painleve guard, an LCP of the index sets).
  Painleve = 1,
  // An impact law with no answer: Routh's compression cannot end, a simultaneous impact's LCP
  // without a solution or with several, a non-finite post-impact state.
  ImpactWithoutAnswer = 2,
  // The extrapolated Zeno limit state penetrates (the accumulation is not a settling one).
  ZenoLimit = 3,
  // A contact found beyond its penetration level: its impact was missed.
  Penetration = 4,
};

inline int code(ContactStop cause) {
  return static_cast<int>(cause);
}
inline ContactStop contact_stop(int code) {
  return code >= 0 && code <= static_cast<int>(ContactStop::Penetration)
             ? static_cast<ContactStop>(code)
             : ContactStop::None;
}

// A mode choice that has no answer at a contact, with its cause.
class ContactStopError : public CausedError {
 public:
  ContactStopError(ContactStop cause, const std::string& message)
      : CausedError(code(cause), message) {}
};

// The cause an exception carries (None for any other exception).
inline ContactStop contact_stop_of(const std::exception& e) {
  const auto* stop = dynamic_cast<const CausedError*>(&e);
  return stop != nullptr ? contact_stop(stop->cause()) : ContactStop::None;
}

}  // namespace saltus::mech
