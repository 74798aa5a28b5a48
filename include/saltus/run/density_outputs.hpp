// The outputs `saltus density` writes (docs/TOUR.md): the histogram as density.csv and
// density.npy, its convergence (convergence.csv) at the checkpoints the run takes, and the run's
// summary.json.
#pragma once

#include <string>
#include <vector>

#include "saltus/analysis/invariant_density.hpp"
#include "saltus/run/density_setup.hpp"

namespace saltus::run {

// Checkpoints at a thousandth, a hundredth and a tenth of each trajectory's binned maps (those of
// at least one map): the histogram's distance to the final one at each shows its convergence.
std::vector<long> decade_checkpoints(long binned_per_trajectory);

struct DensityConvergenceRow {
  long maps = 0;             // maps in the checkpoint's histogram, all trajectories
  double l1_to_final = 0.0;  // l1_distance to the final histogram
  double sampling = 0.0;     // independent_sampling_l1 of the final histogram at `maps`
};
// One row per non-empty checkpoint of r.
std::vector<DensityConvergenceRow> density_convergence(const analysis::DensityResult& r);

// ix,iy,x_centre,y_centre,count,fraction (box centres; fraction = count / every map of every
// trajectory).
std::string density_csv(const analysis::DensityResult& r, const analysis::DensityOptions& o);
// The counts as a NumPy .npy file: int64, shape (ny, nx), row iy.
std::string density_npy(const analysis::DensityHistogram& h);
// maps,l1_to_final,independent_sampling_l1.
std::string density_convergence_csv(const std::vector<DensityConvergenceRow>& rows);

// What the trajectories of a run did, beside the histogram.
struct DensityRunTally {
  long maps_done = 0;         // all trajectories together
  double worst_energy = 0.0;  // largest relative energy error of an elastic system (else 0)
  std::string stopped;        // the first trajectory that stopped early and why; empty: none
};
DensityRunTally density_run_tally(const DensitySetup& setup, const analysis::DensityResult& r);

// summary.json: what was asked (args, o), what the system is (setup) and what the run did.
std::string density_summary_json(const DensityArguments& args, const DensitySetup& setup,
                                 const analysis::DensityOptions& o,
                                 const analysis::DensityResult& r,
                                 const std::vector<DensityConvergenceRow>& rows,
                                 const DensityRunTally& tally, double wall_seconds);

}  // namespace saltus::run
