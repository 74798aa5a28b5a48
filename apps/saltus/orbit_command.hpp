// `saltus orbit`: finds a periodic orbit of a model by Newton shooting on a stroboscopic map
// (--period) or a Poincare section (--section), with its Floquet multipliers, and optionally
// continues it in a parameter (--continue NAME=A:B; analysis/orbit_continuation.hpp) with
// fold, period-doubling, Neimark-Sacker and grazing detection, and switches to the period-2
// branch at the first period doubling (--switch-at-pd; analysis/orbit_branch_switching.hpp),
// and follows each fold and period doubling in a second parameter (--curve NAME=C:D;
// analysis/bifurcation_curve.hpp).
// A guess off the section is first run to its first crossing (analysis/section_start.hpp);
// Newton is damped (--tol, --max-iterations); --cyclic leaves drifting coordinates out of the
// periodicity condition; NAME of --continue may be a parameter of the file.
// Writes orbit.json, branch.csv, bifurcations.csv, period2.csv, curves.csv and plots.
//   0  orbit found (and continued); 1  bad model or options (nothing run; or a --cyclic state
//   that does not drift or is not a translation, after orbit.json is written); 2  no orbit (the
//   status and residual are in orbit.json) or, with --switch-at-pd, no period-2 branch, or with
//   --curve, a curve not started or partial (its points kept in curves.csv); 3  output
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
  std::string curve;         // NAME=C:D: folds and doublings continued in (--continue's, NAME)
  int points = 200;
  double step = 1e-2, max_step = 5e-2;
  bool switch_at_pd = false;  // start the period-2 branch at the first period doubling
  bool numerical_resets = false;
  double tolerance = 1e-9;  // Newton: max|P(x) - x| <= tolerance (1 + max|x|)
  int max_iterations = 30;
  std::vector<std::string> cyclic;  // states left out of P(x) = x; their drift is reported
  std::string show;                 // the state branch.png draws (default: the first that moves)
  bool plot = true;
};

int orbit_command(const OrbitArguments& args);

}  // namespace saltus::cli
