// The flow-map Jacobian of a run in one pass (private to src/analysis): the run itself integrates
// y = (x, vec Phi) (variational_flow.hpp) with every guard read on x and every reset mapping
// x -> R(x) and Phi -> S Phi (the event's saltation matrix, saltation.hpp), so the events are
// located once and nothing is integrated twice (hybrid_sensitivity.hpp's two-pass path runs the
// plain system and then each arc again). For systems whose modes are all ODEs of one dimension
// without algebraic states or Zeno hand-overs; flow_map_sensitivity uses the two-pass path for
// the others. The step sizes also control Phi's error, so event times may differ from a plain run
// by about the tolerance.
#pragma once

#include "saltus/analysis/hybrid_sensitivity.hpp"

namespace saltus::analysis::detail {

bool one_pass_applicable(const HybridSystem& system);

FlowMapSensitivity one_pass_sensitivity(const HybridSystem& system, ModeId mode, double t0,
                                        ConstVectorRef x0, double t_end,
                                        const SimulationOptions& options,
                                        const SaltationOptions& saltation);

}  // namespace saltus::analysis::detail
