// A guard's enclosure over an interval of time from its tape (Guard::enclosure, core/guard.hpp):
// the tape interpreted in IntervalJet (lang/tape.hpp, operations.hpp).
#pragma once

#include <memory>

#include "saltus/core/guard.hpp"
#include "saltus/lang/tape.hpp"

namespace saltus::lang {

// The enclosure of the one-output tape's value, or an empty function when the tape reads
// algebraic states or state rates (those have no enclosure over a step).
inline Guard::Enclosure tape_enclosure(std::shared_ptr<const Tape> tape) {
  if (!tape || !tape->loads_z.empty() || tape->reads_state_rate()) return {};
  return [tape](const IntervalJet& t, const IntervalJet* x, int) {
    const IntervalJet* none = nullptr;
    return evaluate(*tape, t, x, x, none);
  };
}

}  // namespace saltus::lang
