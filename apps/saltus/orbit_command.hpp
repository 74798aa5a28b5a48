// `saltus orbit`: finds a periodic orbit of a model by Newton shooting on a stroboscopic map
// (--period) or a Poincare section (--section), with its Floquet multipliers, and optionally
// continues it in a parameter (--continue NAME=A:B; analysis/orbit_continuation.hpp) with
// fold, period-doubling and grazing detection. Writes orbit.json, branch.csv and plots.
//   0  orbit found (and continued); 1  bad model or options (nothing run); 2  no orbit (the
//   status and residual are in orbit.json); 3  output could not be written or plotted
#pragma once

#include <string>
#include <vector>

namespace saltus::cli {

struct OrbitArguments {
  std::string model;
  std::string out_dir = "orbit";
  std::vector<std::string> set;
  double period = 0.0;  // stroboscopic map when > 0
  std::string section;  // Poincare section otherwise
  double min_time = 0.0, horizon = 0.0;
  std::string continuation;  // NAME=A:B
  int points = 200;
  double step = 1e-2, max_step = 5e-2;
  bool numerical_resets = false;
  bool plot = true;
};

int orbit_command(const OrbitArguments& args);

}  // namespace saltus::cli
