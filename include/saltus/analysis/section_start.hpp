// Where an orbit search on a Poincare section starts when the guess is not on the section: the
// guess is run forward (the section watched in every mode, return_map.hpp) to its first crossing,
// and the map is then shot from that crossing's mode, time and state. A guess already on the
// section (|p| within 1e-10 of p's scale, sum |dp/dx_i| |x_i| + |dp/dt| |t|) is kept as it is.
#pragma once

#include <string>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/sim/simulation_options.hpp"

namespace saltus::analysis {

struct SectionStart {
  bool ok = false;
  bool moved = false;  // the guess was off the section and was run to its first crossing
  ModeId mode = kNoMode;
  double t = kNaN;
  Vector x, z;
  double section_value = kNaN;  // p at the guess
  std::string terminal_guard;   // set when a terminal guard stopped the run before the section
  std::string message;          // why not ok; where the crossing was, when moved
};

// From (mode, t0, x0, z0) to the first crossing of `section` within `horizon`.
SectionStart start_on_section(const HybridSystem& system, ModeId mode, double t0, const Vector& x0,
                              const Vector& z0, const Guard& section, double horizon,
                              const SimulationOptions& options = {});

}  // namespace saltus::analysis
