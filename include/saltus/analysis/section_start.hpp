// Where an orbit search on a Poincare section starts when the guess is not on the section: the
// guess is run forward (the section watched in every mode, return_map.hpp) to its first crossing,
// and the map is then shot from that crossing's mode, time and state. A guess already on the
// section (|p| within 1e-10 of p's scale, sum |dp/dx_i| |x_i| + |dp/dt| |t|) is kept as it is.
// The start's own first return gives the section map's min_time when the user gives none.
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

// The first return of a start on the section (issue 46: `--min-time` stated, never guessed): the
// flow leaves the section, crosses it against its direction (t_leave; for a section of either
// direction, t_leave = t0), and the next crossing in its direction is the return (t_return).
// min_time = (t_leave + t_return) / 2 - t0 lies between them, where no crossing is near.
struct SectionReturn {
  bool ok = false;
  double t_leave = kNaN, t_return = kNaN, min_time = kNaN;
  std::string message;  // why not ok
};
SectionReturn first_return(const HybridSystem& system, ModeId mode, double t0, const Vector& x0,
                           const Vector& z0, const Guard& section, double horizon,
                           const SimulationOptions& options = {});

}  // namespace saltus::analysis
