// One Moreau-Jean stretch of a bridged run (bridge/bridged_run.hpp): steps from the stop state
// until the contact state holds, then hands back; or ends the run (t_end, unsettled, non-finite).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "joined_result.hpp"
#include "saltus/bridge/bridged_run.hpp"
#include "saltus/mech/contact_alternatives.hpp"

namespace saltus::bridge {

// What every stretch of a run reads.
struct StretchRun {
  const HybridSystem& system;
  const mech::LagrangianModel& model;
  const std::function<ModeId(double, const Vector&)>& mode_at;
  const SimulationOptions& options;
  double t_end;
};

// Where a stretch starts: the piece's stop, the contacts it is on, the step and the hold.
struct StretchStart {
  std::string reason;  // bridge_reason, "painleve" for a refused start
  std::string stop_status, stop_message;
  double t = kNaN;
  Vector x;
  ModeId mode = kNoMode;  // the stopped piece's mode, kept by the records
  std::vector<int> contacts;
  double step = kNaN;
  int hold = 1;
};

// What the run keeps across stretches and reads after a failure: the scales grow with every
// state reached, and (t, x) is the last state reached (where a model function that throws ends it).
struct StretchScales {
  Vector q_scale;       // settle_stepped_state's margins
  double energy = 0.0;  // the run's kinetic-energy scale
  double t_reached = kNaN;
  Vector x_reached;
};

struct HandBack {
  double t = kNaN;
  Vector x;
  ModeId mode = kNoMode;
};

// Runs the stretch, its records and samples into `join` and its summary into `log`. True: handed
// back (`back`); false: the run ended in the stretch (join.end called). A model function that
// throws propagates, with `scales` holding the last state reached.
bool run_stretch(const StretchRun& run, const BridgeOptions& bridge, const StretchStart& start,
                 const mech::ContactAlternatives& alternatives, StretchScales& scales,
                 JoinedResult& join, BridgeLog& log, HandBack& back);

}  // namespace saltus::bridge
