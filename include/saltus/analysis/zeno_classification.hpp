// Steady vs spasmodic Zeno (Clark-Bloch Def. 12) from a run's event log: the post-reset states of
// the last resets classified by events::classify_zeno_kind (zeno_kind.hpp: the criterion), the
// same verdict the simulator writes into SimulationSummary::zeno_kind at a recognised
// accumulation. Observations and the Zeno hand-over are not resets.
#pragma once

#include <string>

#include "saltus/events/zeno_kind.hpp"
#include "saltus/sim/event_log.hpp"

namespace saltus::analysis {

using events::ZenoKind;
using ZenoClassificationOptions = events::ZenoKindOptions;

struct ZenoClassification : events::ZenoKindEvidence {
  std::string evidence;  // the numbers in words (events::describe)
};

ZenoClassification classify_zeno(const EventLog& events, const ZenoClassificationOptions& = {});

}  // namespace saltus::analysis
