// A run's trajectory and event log as numpy arrays, with the columns of trajectory.csv and
// events.csv (sim/csv_writer.hpp) so that the package and `saltus run` agree to the last bit.
#pragma once

#include <pybind11/pybind11.h>

#include "saltus/model/model_run.hpp"

namespace saltus::python {

// {"columns": [t, j, <states>, <algebraic states>], "values": float64 array (samples x columns),
//  "mode_index": int64 array, "mode_names": [...]}. Entries a smaller mode lacks are NaN
// (empty cells in the CSV).
pybind11::dict trajectory_table(const model::ModelRun& run);

// {"columns": [t, j, retrigger, chained, observation, <x>_before, <z>_before, <x>_after,
//  <z>_after, <reset outputs>], "values": float64 array (events x columns),
//  "guard", "mode_before", "mode_after": lists of names, one per event}.
pybind11::dict event_table(const model::ModelRun& run);

}  // namespace saltus::python
