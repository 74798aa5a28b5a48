// The description of a hybrid system: modes (each a flow plus its guards), and for each mode an
// optional Zeno hand-over (the mode to continue in once impacts accumulate).
//
// Immutable once a simulation starts and shared by const reference across threads: everything a
// run writes lives in the simulator's workspace.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "saltus/core/discontinuity.hpp"
#include "saltus/core/flow.hpp"
#include "saltus/core/guard.hpp"
#include "saltus/core/invariant_projection.hpp"
#include "saltus/core/reset.hpp"
#include "saltus/core/types.hpp"

namespace saltus {

// Where a run continues after a Zeno point of a mode (DESIGN.md layer 3; FORMULAS.md 1.6): the
// reset receives the extrapolated limit state (t_inf, x_inf, z_inf) and maps it into `target`
// (for the bouncing ball: resting on the floor, x = 0, v = 0).
struct ZenoHandover {
  ModeId target = kNoMode;
  Reset::Map map;  // empty: identity on the extrapolated limit state
  // Instead of `map`, where set: the map that also reads the run's scale of each component of
  // x (Jump::state_scales; nullptr outside a simulation) for its tolerances, and may find no
  // post-Zeno state: false with `failure` set (the run stops with Termination::ResetFailed).
  using Apply =
      std::function<bool(double t, ConstVectorRef x, ConstVectorRef z, const double* state_scales,
                         VectorRef x_plus, std::string& failure)>;
  Apply apply = {};
};

struct Mode {
  std::string name;
  Flow flow;
  std::vector<Guard> guards;
  std::optional<ZenoHandover> zeno_handover;
  // Invariants of the flow kept by projection after every step (invariant_projection.hpp).
  std::optional<InvariantProjection> projection;
  // All guards at once for event location's samples (core/guard.hpp); add_guard clears it.
  std::optional<DirectGuardSet> guard_set;
  // Jumps of the flow integrated as written, watched for chattering (core/discontinuity.hpp).
  std::vector<Discontinuity> discontinuities;
};

class HybridSystem {
 public:
  // Adds a mode and returns its id (ids are consecutive from 0 in declaration order).
  ModeId add_mode(std::string name, Flow flow);
  // Adds a guard to `mode`; returns its id within the mode (declaration order).
  GuardId add_guard(ModeId mode, Guard guard);
  void set_zeno_handover(ModeId mode, ZenoHandover handover);
  void set_projection(ModeId mode, InvariantProjection projection);
  void add_discontinuity(ModeId mode, Discontinuity discontinuity);
  // Every guard of `mode` in one call, for the guards it has now (a later add_guard clears it).
  void set_guard_set(ModeId mode, DirectGuardSet set);

  int mode_count() const { return static_cast<int>(modes_.size()); }
  const Mode& mode(ModeId id) const;
  // The id of the mode named `name`; throws saltus::Error listing the known names if none.
  ModeId mode_id(const std::string& name) const;
  const std::vector<Mode>& modes() const { return modes_; }

  int max_nx() const;
  int max_nz() const;
  int max_guards() const;
  int max_reset_outputs() const;  // largest Reset::output_names over all guards
  int max_invariants() const;     // largest InvariantProjection::count over all modes

  // Throws saltus::Error on a description that cannot run: a flow without its callables, a reset
  // to an unknown mode, an identity reset between modes of different size, a guard without value.
  void validate() const;

 private:
  std::vector<Mode> modes_;
};

}  // namespace saltus
