// Statistical (invariant) densities of a hybrid flow by its time-tau map (Clark & Bloch, seed
// 003, eq. (27); FORMULAS.md 13.4):  int_A rho  ~  (1/n) sum_k chi_A(phi^k(z)),  k > discard.
//
// The flow must be autonomous (the time-tau map is then one map). Each trajectory starts from one
// initial state; its states at tau, 2 tau, ..., maps tau (runs of up to 1024 maps, sampled on the
// dense output; each run starts where the last ended) after the first `discard` are binned on a
// 2-D grid of two chosen variables. Trajectories are independent: they run on `threads`
// std::threads, one Simulator per thread (the HybridSystem is shared read-only), each thread bins
// into its own histogram and the histograms are summed at the end, so the result does not depend on
// the number of threads. Checkpoints keep the histogram after fewer maps too, so that its
// convergence with the number of maps can be measured (density_distance.hpp).
#pragma once

#include <functional>
#include <vector>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/sim/simulation_options.hpp"
#include "saltus/sim/termination.hpp"

namespace saltus::analysis {

// One axis of the grid: values in [lo, hi) fall into `bins` equal boxes.
struct DensityAxis {
  int variable = 0;  // index into the state x (ignored when DensityOptions::observable is set)
  double lo = 0.0;
  double hi = 1.0;
  int bins = 100;
};

struct DensityOptions {
  long maps = 1000;       // time-tau maps per trajectory (the paper's figures: 10^6)
  long discard = 0;       // first maps not binned (the paper: 1000)
  double map_time = 1.0;  // tau
  DensityAxis x_axis, y_axis;
  // Optional: the two binned values from the state (e.g. a point of the body); default
  // (x[x_axis.variable], x[y_axis.variable]).
  std::function<Eigen::Vector2d(ConstVectorRef x)> observable;
  // Maps after `discard`, per trajectory, at which the histogram over all trajectories is also
  // kept (DensityResult::checkpoints): ascending, each in [1, maps - discard].
  std::vector<long> checkpoints;
  int threads = 0;               // 0: std::thread::hardware_concurrency()
  SimulationOptions simulation;  // integrator, tolerances; output settings are overridden

  // Empty when valid, else every problem found: field, value and the rule broken.
  std::string validate() const;
};

// Counts on the grid, row-major: count(ix, iy) = counts[iy * nx + ix].
struct DensityHistogram {
  int nx = 0, ny = 0;
  std::vector<long> counts;
  long binned = 0;   // states inside the grid
  long outside = 0;  // states outside [lo, hi) on either axis

  long count(int ix, int iy) const { return counts[static_cast<size_t>(iy) * nx + ix]; }
  // counts / (all binned and outside states): the fraction of time spent in each box.
  double fraction(int ix, int iy) const;
  void merge(const DensityHistogram& other);
};

struct DensityTrajectory {
  Termination termination = Termination::NotRun;  // of the last map run (EndTimeReached: all ran)
  long maps_done = 0;
  std::string message;  // why it stopped early, when it did
  Vector x_final;
};

struct DensityResult {
  DensityHistogram histogram;
  // One per DensityOptions::checkpoints entry c: every trajectory's first c maps after `discard`
  // (binned + outside = c x trajectories; a trajectory that stopped before c gives all it has).
  std::vector<DensityHistogram> checkpoints;
  std::vector<DensityTrajectory> trajectories;  // in the order of the initial states
  int threads_used = 0;
};

// Runs every initial state (mode `mode`, t0 = 0) and bins its time-tau maps. Throws
// saltus::Error for invalid options or an initial state of the wrong size, and rethrows the
// first exception a run raised on any thread (a model's bad-input error); a trajectory whose run
// ends otherwise than EndTimeReached stops there and reports it (its binned maps are kept).
DensityResult invariant_density(const HybridSystem& system, ModeId mode,
                                const std::vector<Vector>& initial_states,
                                const DensityOptions& options);

}  // namespace saltus::analysis
