// Brute-force bifurcation diagrams: for each value of a parameter, run the system, discard the
// first `discard` crossings of a section (transients) and record the next `keep` (the
// attractor's section points: one point for a stable period-1 orbit, two alternating after a
// period doubling, a cloud for chaos).
//
// The parameter is either a state component with zero derivative (orbit_continuation.hpp) or
// set by a callback between runs (a model's run-time parameter, model/runtime_parameters.hpp).
// The section is an observer guard of `mode` (poincare_section.hpp: stroboscopic_section for
// forced systems); its crossings count in every mode that has an observer of the same name (a
// mechanical model changes mode at every contact event). With `follow`, each value starts from
// the mode and state of the previous value's last section crossing (the attractor is followed
// along the sweep, as a slowly swept experiment would), at a time set by `time_period`:
//  - NaN: the crossing's own time (the sweep's clock keeps running from value to value);
//  - 0: t0 again (time restarts: autonomous systems, or a stroboscopic section at t0 + k T), so a
//    value's points depend on where it starts and not on how long the sweep has run;
//  - T > 0: the crossing's time shifted by the multiple of T that brings it nearest t0 (a system
//    forced with period T: the same phase, a small clock).
// Otherwise every value starts from `mode`, t0 and `initial`. A crossing at a run's start
// instant is not counted (it is the start itself).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/sim/simulation_options.hpp"
#include "saltus/sim/simulator.hpp"
#include "saltus/sim/termination.hpp"

namespace saltus::analysis {

struct DiagramOptions {
  int parameter = 0;  // state index of the parameter; ignored when set_parameter is given
  // Applies a value that is not a state (called before each value's run), e.g. a run-time
  // parameter of a loaded model.
  std::function<void(double)> set_parameter;
  std::vector<double> values;
  long discard = 100, keep = 50;
  double horizon = 1e4;  // longest run per value (time)
  bool follow = true;
  // The mode a value's run starts in from `initial` when not following, after set_parameter
  // (a mechanical model's start mode depends on its contact laws); null: `mode`.
  std::function<ModeId()> start_mode;
  double t0 = 0.0;            // the first value's start time (every value's without follow)
  double time_period = kNaN;  // how a followed value's time restarts (above)
  SimulationOptions simulation;
  // Runs one value from (mode, t0, x0) to t_end; null: simulate(system, ...). A mechanical
  // model's run goes on through Painleve situations (bridge/bridged_run.hpp) this way. The runner
  // must pass options.on_event to the engine and end the run when it returns Stop.
  std::function<SimulationResult(ModeId mode, double t0, const Vector& x0, double t_end,
                                 const SimulationOptions& options)>
      run;
};

struct DiagramColumn {
  double parameter = kNaN;
  Matrix points;              // one row per kept crossing: the state there
  std::vector<ModeId> modes;  // per kept crossing: the mode it was crossed in
  Termination termination = Termination::NotRun;
  std::string message;  // why fewer than keep points, when so
};

// `section`: guard index (an observer) of `mode`. Throws saltus::Error when it is not one.
std::vector<DiagramColumn> bifurcation_diagram(const HybridSystem& system, ModeId mode,
                                               GuardId section, const Vector& initial,
                                               const DiagramOptions& options);

}  // namespace saltus::analysis
