// What happens when a guard fires: x+ = phi(t, x-, z-) and the mode to continue in.
//
// The target is either fixed or chosen from the pre-reset state (a mechanical impact law picks
// the next contact set this way). After the reset the simulator solves g_target(t, x+, z+) = 0
// for z+ (consistent re-initialisation, seed 004).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "saltus/core/types.hpp"

namespace saltus {

struct Reset {
  using Map = std::function<void(double t, ConstVectorRef x_minus, ConstVectorRef z_minus,
                                 VectorRef x_plus)>;
  using Chooser = std::function<ModeId(double t, ConstVectorRef x_minus, ConstVectorRef z_minus)>;

  // Named quantities of the jump itself (impulses, kinetic-energy change, ...), evaluated after
  // the map: outputs(t, x-, z-, x+, values) writes output_names.size() values, which the event
  // log, the on_event callback and events.csv carry with the event.
  using Outputs = std::function<void(double t, ConstVectorRef x_minus, ConstVectorRef z_minus,
                                     ConstVectorRef x_plus, VectorRef values)>;

  ModeId target = kNoMode;  // fixed target; ignored when `choose_target` is set
  Chooser choose_target;    // optional: target chosen from the pre-reset state
  Map map;                  // empty: identity (source and target must have the same nx)
  std::vector<std::string> output_names;  // empty: no outputs
  Outputs outputs;

  // Continue in `target` after x+ = map(t, x-, z-).
  static Reset to(ModeId target, Map map = {}) {
    Reset r;
    r.target = target;
    r.map = std::move(map);
    return r;
  }
  // Continue in the mode `choose(t, x-, z-)` after x+ = map(t, x-, z-).
  static Reset chosen(Chooser choose, Map map = {}) {
    Reset r;
    r.choose_target = std::move(choose);
    r.map = std::move(map);
    return r;
  }
};

}  // namespace saltus
