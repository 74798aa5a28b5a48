// What a run did: its termination, counters, and timings (Ceres-style Summary).
#pragma once

#include <string>
#include <vector>

#include "saltus/core/types.hpp"
#include "saltus/events/zeno_kind.hpp"
#include "saltus/ode/step_status.hpp"
#include "saltus/sim/termination.hpp"

namespace saltus {

class HybridSystem;

struct SimulationSummary {
  Termination termination = Termination::NotRun;
  std::string message;     // what ended the run, with mode, guard, time and values
  std::string integrator;  // name of the integrator used
  // What failed, for the layers above that decide on it (never on `message`, which carries
  // user-chosen names): a failed reset's Jump::cause (0: none given), and whether the Zeno
  // hand-over found no post-Zeno state or an invariant projection found no state.
  int reset_cause = 0;
  bool handover_failed = false;
  bool projection_failed = false;
  double t_start = kNaN;
  double t_final = kNaN;  // time reached
  long jumps = 0;         // final j
  ModeId final_mode = kNoMode;
  double zeno_time = kNaN;      // predicted accumulation time, when one was recognised
  double zeno_ratio = kNaN;     // its cycle-duration ratio
  long events_before_zeno = 0;  // events resolved before the hand-over / stop
  // Steady or spasmodic (events/zeno_kind.hpp), from the post-event states before it.
  events::ZenoKindEvidence zeno_kind;
  ode::StepperStats stepper;  // steps, rejections, f evaluations
  long guard_evaluations = 0;
  long root_evaluations = 0;       // guard evaluations spent locating event times
  long enclosure_evaluations = 0;  // enclosures of guards the certified event search evaluated
  // Certified searches that ran out of pieces in a step, whose samples then decided
  // (docs/ARCHITECTURE.md "Events"); 0 in every run we know of.
  long undecided_searches = 0;
  // Guards that are sampled (events.guard_samples per step) instead of searched with a
  // certificate, as "mode 'm' guard 'g'": no Guard::enclosure, or a mode with algebraic states.
  // A crossing and return between two of their samples can be missed.
  std::vector<std::string> sampled_guards;
  std::vector<std::vector<long>> events_per_guard;  // [mode][guard]
  long zeno_handovers = 0;
  double wall_seconds = 0.0;

  bool ok() const {
    return termination == Termination::EndTimeReached || termination == Termination::TerminalEvent;
  }
  std::string brief_report() const;
  // Multi-line report; names modes and guards when `system` is given.
  std::string full_report(const HybridSystem* system = nullptr) const;
};

}  // namespace saltus
