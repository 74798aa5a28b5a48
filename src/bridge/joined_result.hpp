// The one SimulationResult a bridged run (bridge/bridged_run.hpp) joins from its event-driven
// pieces, its stretches' records and samples, and its end.
#pragma once

#include <string>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::bridge {

class JoinedResult {
 public:
  // Starts `out` afresh at t0 (it is written as the run goes: a failure keeps what was joined).
  JoinedResult(const HybridSystem& system, SimulationResult& out, double t0);

  // Appends a piece's events (j counted on), samples and counters; its status becomes the run's.
  void piece(const SimulationResult& p);

  // A bridge record (bridge_records.hpp): one more jump, with its note; its index in the event
  // log, -1 when not kept.
  long record(GuardId guard, double t, ModeId before, ModeId after, const Vector& x_before,
              const Vector& x_after, std::string note, bool keep);
  void set_note(long record, std::string note);

  // A sample inside a stretch (mode kMoreauJeanMode).
  void sample(double t, const Vector& x);

  // The run ends here: in a stretch (end time reached, unsettled) or at a stop the bridge keeps.
  void end(Termination termination, std::string message, double t, ModeId mode, const Vector& x);

  void add_wall(double seconds) { out_.summary.wall_seconds += seconds; }

 private:
  const HybridSystem& system_;
  SimulationResult& out_;
  long j_ = 0;
};

}  // namespace saltus::bridge
