// A number read by name from a finished run: what `saltus sweep --collect` tabulates
// (docs/SWEEPS.md "Collected quantities"): the Zeno time, counts, the final state and [outputs],
// and values at events (the k-th event of a guard: its time, the state and outputs after it; the
// time between a guard's last two events, a period).
#pragma once

#include <string>

#include "saltus/core/types.hpp"
#include "saltus/model/model.hpp"
#include "saltus/model/model_run.hpp"

namespace saltus::run {

struct CollectedQuantity {
  enum class Kind {
    ZenoTime,     // zeno_time
    ZenoEvents,   // zeno_events
    EventCount,   // events.count
    FinalTime,    // t_final
    FinalState,   // final.<state>
    FinalOutput,  // final.<output>
    EventTime,    // event.<guard>.<k>.t
    EventState,   // event.<guard>.<k>.<state> (after the event)
    EventOutput,  // event.<guard>.<k>.<output> (after the event, in the mode after it)
    ReturnTime,   // return_time.<guard>: its last event's time minus the one before
  };
  Kind kind = Kind::ZenoTime;
  Eigen::Index index =
      0;              // FinalState, EventState: the state; FinalOutput, EventOutput: the output
  std::string guard;  // EventTime, EventState, EventOutput, ReturnTime: a guard or section
  long k = 0;         // the k-th event of `guard` (from 1); -1: its last
};

// The quantity `name` reads, checked against model `m`: an unknown name, state, output or guard
// (of an explicit model's modes or sections; a mechanical model's guards are made when it is
// built, so any name is taken there) throws saltus::Error naming what is known.
CollectedQuantity parse_collected_quantity(const std::string& name, const model::Model& m);

// Its value in `run`; NaN where the run has none (no Zeno point, fewer events of the guard).
double collected_value(const CollectedQuantity& q, const model::ModelRun& run);

}  // namespace saltus::run
