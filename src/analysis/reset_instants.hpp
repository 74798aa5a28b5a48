// Resets logged at one instant (analysis only): which of them compose into one jump and where
// the flow map has a corner (hybrid_sensitivity.hpp).
//
// A reset at the instant of the reset before it either was carried across by it (its guard lay
// beyond its surface by more than kCarriedMargin of the guard's scale at the state that reset
// left: every start near this one does the same, and the two compose: instant_saltation) or met
// its surface at that instant, a corner, of one of two kinds:
//  - landing: the jump put the state on the later guard's surface (its guard was not at its
//    surface before the jump). Starts on one side fire it at once (carried), on the other after
//    a moment in the mode entered: both one-sided derivatives are known here, the composite and
//    the product of the two events' own saltation matrices (a zero-length arc between them).
//    A run that took the second side (its guard crossed within 1e-9 of the run's span after a
//    jump that landed within the margin of it) is the same corner;
//  - crossing: the later guard was at its surface before the jump too (two surfaces crossed at
//    one instant). The order fired gives one one-sided derivative, the product of the events'
//    own matrices; the other order another, with the resets applied the other way round
//    (hybrid_sensitivity.cpp, where that order is defined and ends in the same state).
#pragma once

#include <string>
#include <vector>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::analysis::detail {

struct ResetCorner {
  long previous = -1, follower = -1;  // event indices
  bool landing = false;
  std::string message;  // names both events, t and the kind
};

struct ResetInstants {
  // The resets (observations and Zeno hand-overs left out) in chains, each reset after a chain's
  // first carried across by the one before it; a corner's follower starts a chain of its own.
  std::vector<std::vector<long>> chains;
  std::vector<ResetCorner> corners;
  bool has_chain = false;  // some instant holds more than one reset
};

// `run` started from (t0, x0).
ResetInstants group_resets_by_instant(const HybridSystem& system, const SimulationResult& run,
                                      double t0, ConstVectorRef x0,
                                      const SimulationOptions& options);

// The chains with corner `corner`'s follower joined to the chain before it: the carried side of
// a landing corner.
std::vector<std::vector<long>> joined_at(const ResetInstants& instants, const ResetCorner& corner);

}  // namespace saltus::analysis::detail
