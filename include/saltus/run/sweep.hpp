// Parameter sweeps of a model file: the library engine behind `saltus sweep` (docs/SWEEPS.md).
//
// A sweep varies parameters (or initial states) over ranges, runs every point as its own model
// (the file text is read once; each point loads it with its values as overrides, so the point
// is exactly `saltus run --set name=value`), and collects a few numbers per point. Points run
// on `threads` std::threads that take the next point from one atomic counter, because a point's
// cost varies a lot (near Zeno). A point that fails is a row with its status, never an error.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace saltus::run {

// One varied quantity: `count` values evenly spaced from `low` to `high` (both included; one
// value is `low`). With random sampling, the range a value is drawn from.
struct SweepAxis {
  std::string name;
  double low = 0.0;
  double high = 0.0;
  long count = 0;
};

struct SweepSpec {
  std::filesystem::path model_file;
  std::vector<std::string> overrides;  // applied to every point, before the varied values
  std::vector<SweepAxis> axes;
  bool random = false;     // false: the full grid of the axes; true: `random_count` points
  long random_count = 0;   // drawn uniformly in the axes' ranges from `seed`
  std::uint64_t seed = 0;  //
  // zeno_time, zeno_events, events.count, t_final, final.<state>, final.<output> (docs/SWEEPS.md)
  std::vector<std::string> collect;
};

struct SweepPoint {
  std::vector<double> values;     // one per axis
  std::string status;             // to_string(Termination), or "model-error" when it did not load
  bool succeeded = false;         // as ModelRun::succeeded()
  std::string message;            // why it failed ("" when it succeeded)
  std::vector<double> collected;  // one per collected quantity; NaN when the point has none
};

struct SweepResult {
  std::vector<std::string> axis_names;
  std::vector<std::string> quantity_names;
  std::vector<SweepPoint> points;  // in point order (the grid's or the random draw's)
  long failed_count() const;
};

// "NAME=LO:HI:N" -> SweepAxis. Throws saltus::Error naming the text and what is wrong (no '=',
// not three numbers, N < 1, a non-finite bound, LO > HI).
SweepAxis parse_sweep_axis(std::string_view text);

// The points' values, one row per point: the grid (last axis fastest) or the random draw.
std::vector<std::vector<double>> sweep_points(const SweepSpec& spec);

// Checks the spec against the model file before anything runs: the file loads with the base
// overrides, every axis names a parameter or state, every collected quantity exists. Throws
// ModelError (the file's own problems) or saltus::Error naming what is unknown and what exists.
void check_sweep(const SweepSpec& spec);

// A sweep made ready to run: the file read once, the spec checked (as check_sweep), the points
// listed. The threaded and the MPI sweep (apps/saltus/mpi_sweep.cpp) both hand points out one at
// a time to whoever is free; each thread (or rank) runs them with its own runner().
class SweepPlan {
 public:
  explicit SweepPlan(const SweepSpec& spec);
  ~SweepPlan();
  size_t size() const;
  // True when every varied name is a parameter that the model can keep at run time
  // (runtime_parameters.hpp): a runner then loads and builds the model once and a point only
  // writes its values (a point whose value the built model refuses, such as mu = 0 on a contact
  // compiled with friction, loads its own). Otherwise (a varied state, or a parameter read while
  // the model loads, such as an initial value) each point loads the model with its values as
  // overrides. Both give
  // the same numbers, up to the sign of a zero (tests/model/runtime_parameters_test.cpp).
  bool loads_once() const;
  // Runs points in the calling thread, with a model of its own (not to be shared between
  // threads).
  std::function<SweepPoint(size_t)> runner() const;
  // Point i alone (runner()(i)).
  SweepPoint point(size_t i) const;
  // A result with the names and size() points holding only their values, to be filled.
  SweepResult empty_result() const;

 private:
  struct Data;
  std::unique_ptr<Data> data_;
};

// Runs every point on `threads` threads (1: in the calling thread). `points_done`, when given,
// counts finished points (for a progress bar). Calls check_sweep() first.
SweepResult run_sweep(const SweepSpec& spec, int threads, std::atomic<long>* points_done = nullptr);

// sweep.csv: the axes, status, succeeded (1/0), then the collected quantities (%.17g, "nan").
std::string sweep_csv(const SweepResult& result);

// The table's numbers for numpy.load: float64, one row per point, the columns of sweep.csv
// without status (axes, succeeded 1/0, quantities; NaN where a point has none).
std::string sweep_npy(const SweepResult& result);
// The columns of sweep.npy and every point's status (sweep_columns.json).
std::string sweep_columns_json(const SweepResult& result);

// Replaces `dir` by a folder holding sweep.csv, sweep.npy and sweep_columns.json
// (run/output_folder.hpp: never half-written).
void write_sweep_outputs(const SweepResult& result, const std::filesystem::path& dir);

}  // namespace saltus::run
