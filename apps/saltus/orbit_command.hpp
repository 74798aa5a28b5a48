// `saltus orbit`: finds a periodic orbit of a model by Newton shooting on a stroboscopic map
// (--period) or a Poincare section (--section), with its Floquet multipliers, and optionally
// continues it in a parameter (--continue NAME=A:B; analysis/orbit_continuation.hpp) with
// fold, period-doubling, Neimark-Sacker and grazing detection, and switches to the period-2
// branch at the first period doubling (--switch-at-pd; analysis/orbit_branch_switching.hpp).
// Writes orbit.json, branch.csv, bifurcations.csv, period2.csv and plots.
//   0  orbit found (and continued); 1  bad model or options (nothing run); 2  no orbit (the
//   status and residual are in orbit.json) or, with --switch-at-pd, no period-2 branch; 3  output
//   could not be written or plotted
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
  bool switch_at_pd = false;  // start the period-2 branch at the first period doubling
  bool numerical_resets = false;
  bool plot = true;
};

int orbit_command(const OrbitArguments& args);

}  // namespace saltus::cli
