// The same hybrid system with every guard's Guard::reads_states removed (value() then sees the
// whole state): the reference the guard-reads tests compare declared runs against.
#pragma once

#include "saltus/core/hybrid_system.hpp"

namespace saltus::testing {

inline HybridSystem without_declarations(const HybridSystem& sys) {
  HybridSystem copy;
  for (const Mode& m : sys.modes()) {
    const ModeId id = copy.add_mode(m.name, m.flow);
    for (Guard g : m.guards) {
      g.reads_states.clear();
      copy.add_guard(id, g);
    }
    if (m.zeno_handover) copy.set_zeno_handover(id, *m.zeno_handover);
    if (m.projection) copy.set_projection(id, *m.projection);
  }
  return copy;
}

}  // namespace saltus::testing
