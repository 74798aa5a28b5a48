// CSV output of a run: trajectory samples and the event log, with mode and guard names.
//
// Files are written atomically: the text goes to "<path>.tmp" in the same folder, which is
// renamed over <path> only once complete, so a failed or interrupted run never leaves a
// half-written file (the temporary is removed on failure). Columns:
//   trajectory.csv  t, j, mode, <x names>, <z names>   (names x0, x1, ... unless given)
//   events.csv      t, j, guard, mode_before, mode_after, retrigger, chained, observation,
//                   <x names>_before, <z names>_before, <x names>_after, <z names>_after,
//                   <event_extra_names: a model's [outputs] as <name>_before, <name>_after>,
//                   <every Reset::output_names entry of the system, e.g. impulse>,
//                   note (only when a record has one: a layer's rows, a simultaneous impact)
// Numbers use 17 significant digits (exact round trip of doubles). A state of a mode smaller
// than the widest mode leaves the missing columns empty.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus {

struct CsvColumns {
  std::vector<std::string> x_names;  // empty: x0, x1, ...
  std::vector<std::string> z_names;  // empty: z0, z1, ...
  // trajectory.csv only: columns after the states, one row of `extra` per trajectory sample
  // (a mechanical model's contact forces).
  std::vector<std::string> extra_names;
  Matrix extra;
  // events.csv only: columns after the states after the event, one row of `event_extra` per
  // event (a model's [outputs] before and after it).
  std::vector<std::string> event_extra_names;
  Matrix event_extra;
};

std::string trajectory_csv(const HybridSystem& system, const SimulationResult& result,
                           const CsvColumns& columns = {});
std::string events_csv(const HybridSystem& system, const SimulationResult& result,
                       const CsvColumns& columns = {});

// A mode's name: the system's, or for a layer mode (event_log.hpp) the result's layer_mode_names.
std::string mode_name(const HybridSystem& system, const SimulationResult& result, ModeId mode);
// The guard of an event record: the system's name, or record_kind_name() (event_log.hpp).
std::string event_guard_name(const HybridSystem& system, const EventRecord& record);

// Every distinct Reset::output_names entry of the system, in declaration order (the last columns
// of events.csv).
std::vector<std::string> reset_output_columns(const HybridSystem& system);

// Writes `text` to `path` atomically (temporary file + rename). Throws saltus::Error naming the
// path and the cause if it cannot; no partial file remains.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace saltus
