// The tables `saltus density` writes (docs/TOUR.md): the histogram as density.csv and
// density.npy, and its convergence (convergence.csv) at the checkpoints the run takes.
#pragma once

#include <string>
#include <vector>

#include "saltus/analysis/invariant_density.hpp"

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

// The shortest of %.15g and %.17g that reads back as v (the density outputs' numbers).
std::string shortest_number(double v);

}  // namespace saltus::run
