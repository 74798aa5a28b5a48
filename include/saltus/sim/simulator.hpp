// The simulator loop (DESIGN.md layer 4): integrate the mode's flow, locate the first guard
// crossing on the dense output, apply the reset (and every simultaneous or chained one),
// re-initialise the algebraic states, record, continue; hand over at Zeno points.
//
// Semantics, in the order the loop applies them:
//  1. Guards are monitored on each accepted step at both ends and at guard_samples interior
//     points of the dense output (plus a grazing test from the guard's derivative).
//  2. The earliest crossing is located by the chosen root finder to a bracket of a few ulps;
//     the reset uses the left limit there (the state has not crossed the guard).
//  3. Every armed guard whose crossing lies within simultaneous_rtol of the earliest fires in
//     the same event set; resets are applied in guard declaration order. A reset that changes
//     the mode ends the set; the remaining guards are re-examined in the new mode.
//  4. After the set, each guard of the current mode is examined at (t, x+, z+):
//       - strictly on its trigger side and not among the guards just applied: fires at once
//         (a chained event at the same t), up to max_resets_per_instant;
//       - within guard_tolerance of zero: disarmed until it leaves the band; if it leaves
//         towards the trigger side without first moving away it fires again at the reset
//         instant (a re-trigger: a ball resting on the floor);
//       - on its trigger side after its own reset: disarmed until it has moved away;
//       - otherwise armed.
//     A re-trigger whose reset leaves the state unchanged is a Zeno point at that instant.
//  5. The Zeno monitor sees every event; once it predicts an accumulation time within the
//     hand-over tolerance, the run switches to the mode's post-Zeno mode at t_inf (the
//     extrapolated limit state goes through the hand-over map) or stops with Termination::Zeno.
// A Simulator owns all scratch memory for one thread; reuse it across runs (ensembles) so that
// nothing is allocated after the first run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/sim/event_log.hpp"
#include "saltus/sim/simulation_options.hpp"
#include "saltus/sim/simulation_summary.hpp"
#include "saltus/sim/trajectory.hpp"

namespace saltus {

struct SimulationResult {
  SimulationSummary summary;
  EventLog events;
  Trajectory trajectory;
  double t_final = kNaN;
  ModeId final_mode = kNoMode;
  Vector x_final;
  Vector z_final;
  // The names of the layer modes (event_log.hpp) its samples and records carry: layer_mode(k) is
  // layer_mode_names[k]. Empty for a run of sim alone.
  std::vector<std::string> layer_mode_names;
  Termination termination() const { return summary.termination; }
};

class Simulator {
 public:
  // Validates the system and the options; throws saltus::Error listing every problem.
  Simulator(const HybridSystem& system, const SimulationOptions& options);
  ~Simulator();
  Simulator(Simulator&&) noexcept;
  Simulator& operator=(Simulator&&) noexcept;

  // Runs from (t0, x0) in `mode` (z0: guess for the algebraic state, may be empty) to t_end.
  // Bad sizes throw saltus::Error; everything else ends with a Termination in the result.
  void run(ModeId mode, double t0, ConstVectorRef x0, ConstVectorRef z0, double t_end,
           SimulationResult& result);
  SimulationResult run(ModeId mode, double t0, ConstVectorRef x0, ConstVectorRef z0, double t_end);

  const HybridSystem& system() const;
  const SimulationOptions& options() const;

 private:
  struct Engine;
  std::unique_ptr<Engine> engine_;
};

// One-shot convenience: Simulator(system, options).run(...).
SimulationResult simulate(const HybridSystem& system, ModeId mode, double t0, ConstVectorRef x0,
                          double t_end, const SimulationOptions& options = {},
                          ConstVectorRef z0 = Vector());

}  // namespace saltus
