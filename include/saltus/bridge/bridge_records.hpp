// The records and the mode a bridged run (bridge/bridged_run.hpp) adds to the event log and the
// trajectory: sim stores them as a layer's own (sim/event_log.hpp) and knows nothing of them.
#pragma once

#include "saltus/sim/event_log.hpp"

namespace saltus::bridge {

// A Moreau-Jean stretch starts (the state where the event-driven run stopped) or ends (the state
// handed back, projected onto the contacts); each row has a note saying why and for how long.
inline constexpr GuardId kBridgeStartGuard = -2;
inline constexpr GuardId kBridgeEndGuard = -3;
// The choice at a Painleve situation with several consistent motions: the free motion; its note
// names the motions.
inline constexpr GuardId kPainleveChoiceGuard = -4;

// The kind names of those records in events.csv (EventRecord::kind).
inline const char* bridge_record_kind(GuardId guard) {
  switch (guard) {
    case kBridgeStartGuard:
      return "bridge-start";
    case kBridgeEndGuard:
      return "bridge-end";
    case kPainleveChoiceGuard:
      return "painleve-lift-off";
    default:
      return nullptr;
  }
}

// Trajectory samples inside a stretch (and a run that ends in one) carry this mode, named
// kMoreauJeanModeName (SimulationResult::layer_mode_names).
inline constexpr ModeId kMoreauJeanMode = layer_mode(0);
inline constexpr const char* kMoreauJeanModeName = "moreau-jean";

}  // namespace saltus::bridge
