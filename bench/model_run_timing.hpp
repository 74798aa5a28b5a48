// The JSON-lines benches of model files (fbm_bench.cpp, rocking_block_bench.cpp): a model's run
// and its CPU time, measured as docs/BENCHMARKS.md states.
#pragma once

#include <time.h>

#include "saltus/model/model_run.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::bench {

// Process CPU time (s).
inline double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Runs the built model (prepare_model_run) into run.result, with the engine alone (one Simulator,
// Simulator::run) or `bridged` as `saltus run` runs it (simulate_model_run); with `timing` the
// same run once more, timed (the first warmed up the buffers and caches): its CPU s, else -1.
inline double run_model_timed(model::ModelRun& run, const model::ModelStart& start, bool timing,
                              bool bridged) {
  const model::Model& m = *run.model;
  if (bridged) {
    model::simulate_model_run(run, start);
    if (!timing) return -1.0;
    model::ModelRun again = run;
    const double c0 = cpu_seconds();
    model::simulate_model_run(again, start);
    return cpu_seconds() - c0;
  }
  Simulator sim(run.system, m.options);
  sim.run(start.mode, m.t_start, start.x0, start.z0, m.t_end, run.result);
  if (!timing) return -1.0;
  SimulationResult again;
  const double c0 = cpu_seconds();
  sim.run(start.mode, m.t_start, start.x0, start.z0, m.t_end, again);
  return cpu_seconds() - c0;
}

}  // namespace saltus::bench
