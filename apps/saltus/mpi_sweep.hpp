// `mpirun -n N saltus sweep ...`: the sweep's points spread over MPI ranks (docs/SWEEPS.md).
//
// Rank 0 is the manager: it hands out one point index at a time to whichever worker rank asks
// (a point's cost varies a lot near Zeno, so a fixed split would leave ranks idle) and gathers
// every row; ranks 1..N-1 run the points. The table equals the threaded sweep's because every
// point is run by the same SweepPlan::point(). Built only when CMake finds MPI; without it, or
// when the process was not started by mpirun / srun, MpiSession is inactive and the threaded
// sweep runs.
#pragma once

#include <optional>

#include "saltus/run/sweep.hpp"

namespace saltus::cli {

class MpiSession {
 public:
  MpiSession();  // MPI_Init when launched by an MPI launcher (and built with MPI)
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  bool active() const { return size_ > 1; }
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  bool initialized_ = false;
  int rank_ = 0;
  int size_ = 1;
};

// Runs the plan's points over the ranks: the whole result on rank 0, nullopt on the workers.
// With more workers than points, rank 0 says which ranks stay idle.
std::optional<run::SweepResult> run_sweep_over_ranks(const run::SweepPlan& plan,
                                                     const MpiSession& mpi);

}  // namespace saltus::cli
