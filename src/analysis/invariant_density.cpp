#include "saltus/analysis/invariant_density.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <sstream>
#include <thread>

#include "saltus/core/error.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::analysis {

namespace {

void check_axis(std::ostringstream& out, const char* name, const DensityAxis& a) {
  if (!(a.hi > a.lo)) out << name << ": hi = " << a.hi << " must exceed lo = " << a.lo << "; ";
  if (a.bins < 1) out << name << ".bins = " << a.bins << " must be >= 1; ";
}

// Box index of v on axis a, or -1 outside [lo, hi).
int box(const DensityAxis& a, double v) {
  if (!(v >= a.lo && v < a.hi)) return -1;
  const int i = static_cast<int>((v - a.lo) / (a.hi - a.lo) * a.bins);
  return std::min(i, a.bins - 1);  // v just below hi may round up to bins
}

DensityHistogram empty_histogram(const DensityOptions& o) {
  DensityHistogram h;
  h.nx = o.x_axis.bins;
  h.ny = o.y_axis.bins;
  h.counts.assign(static_cast<size_t>(h.nx) * h.ny, 0);
  return h;
}

// Maps per Simulator::run: every run restarts the integrator, so one run sampled at k tau is
// cheaper than one run per map (sleigh billiard, DOP853 rtol 1e-12, 3000 maps, one core: 103
// against 188 us per map); 1024 keeps the sample buffer small.
constexpr long kMapsPerRun = 1024;

void bin(const DensityOptions& o, ConstVectorRef x, DensityHistogram& hist) {
  const Eigen::Vector2d v =
      o.observable ? o.observable(x) : Eigen::Vector2d(x[o.x_axis.variable], x[o.y_axis.variable]);
  const int ix = box(o.x_axis, v[0]), iy = box(o.y_axis, v[1]);
  if (ix < 0 || iy < 0) {
    ++hist.outside;
  } else {
    ++hist.counts[static_cast<size_t>(iy) * hist.nx + ix];
    ++hist.binned;
  }
}

// Advances one trajectory by runs of up to kMapsPerRun maps from t = 0 (the flow is autonomous),
// sampled at tau, 2 tau, ...; bins every sample after the first `discard` into `hist` (empty on
// entry) and adds `hist` to checkpoints[j] once options.checkpoints[j] maps are binned (or when
// the trajectory stops before that).
DensityTrajectory run_trajectory(Simulator& sim, ModeId mode, const Vector& x0,
                                 const DensityOptions& o, DensityHistogram& hist,
                                 std::vector<DensityHistogram>& checkpoints) {
  DensityTrajectory out;
  SimulationResult r;
  Vector x = x0;
  const Vector no_z;
  const int nx = static_cast<int>(x0.size());
  ModeId current = mode;
  size_t next_checkpoint = 0;
  out.termination = Termination::EndTimeReached;
  while (out.maps_done < o.maps) {
    const long m = std::min(kMapsPerRun, o.maps - out.maps_done);
    sim.run(current, 0.0, x, no_z, static_cast<double>(m) * o.map_time, r);
    for (long i = 0; i < r.trajectory.size(); ++i) {
      // An event exactly at a sample time records both limits: keep the later one only.
      if (i + 1 < r.trajectory.size() && r.trajectory.t(i + 1) == r.trajectory.t(i)) continue;
      ++out.maps_done;
      if (out.maps_done <= o.discard) continue;
      bin(o, r.trajectory.x(i).head(nx), hist);
      if (next_checkpoint < o.checkpoints.size() &&
          out.maps_done - o.discard == o.checkpoints[next_checkpoint]) {
        checkpoints[next_checkpoint++].merge(hist);
      }
    }
    if (r.termination() != Termination::EndTimeReached) {
      out.termination = r.termination();
      out.message = r.summary.message;
      break;
    }
    x = r.x_final;
    current = r.final_mode;
  }
  while (next_checkpoint < o.checkpoints.size()) checkpoints[next_checkpoint++].merge(hist);
  out.x_final = x;
  return out;
}

}  // namespace

std::string DensityOptions::validate() const {
  std::ostringstream out;
  if (maps < 1) out << "maps = " << maps << " must be >= 1; ";
  if (discard < 0 || discard >= maps) {
    out << "discard = " << discard << " must be in [0, maps = " << maps << "); ";
  }
  if (!(map_time > 0.0)) out << "map_time = " << map_time << " must be > 0; ";
  check_axis(out, "x_axis", x_axis);
  check_axis(out, "y_axis", y_axis);
  for (size_t j = 0; j < checkpoints.size(); ++j) {
    const long c = checkpoints[j], before = j > 0 ? checkpoints[j - 1] : 0;
    if (c <= before || c > maps - discard) {
      out << "checkpoints[" << j << "] = " << c << " must exceed " << before
          << " and be <= maps - discard = " << maps - discard << "; ";
    }
  }
  if (threads < 0) out << "threads = " << threads << " must be >= 0; ";
  const std::string sim = simulation.validate();
  if (!sim.empty()) out << "simulation: " << sim;
  return out.str();
}

double DensityHistogram::fraction(int ix, int iy) const {
  const long all = binned + outside;
  return all > 0 ? static_cast<double>(count(ix, iy)) / static_cast<double>(all) : 0.0;
}

void DensityHistogram::merge(const DensityHistogram& other) {
  if (other.nx != nx || other.ny != ny) {
    saltus::detail::throw_error("DensityHistogram::merge: grids differ (", nx, "x", ny, " and ",
                                other.nx, "x", other.ny, ")");
  }
  for (size_t i = 0; i < counts.size(); ++i) counts[i] += other.counts[i];
  binned += other.binned;
  outside += other.outside;
}

DensityResult invariant_density(const HybridSystem& system, ModeId mode,
                                const std::vector<Vector>& initial_states,
                                const DensityOptions& options) {
  const std::string problems = options.validate();
  if (!problems.empty()) saltus::detail::throw_error("invariant_density: ", problems);
  const int nx = system.mode(mode).flow.nx;
  for (size_t i = 0; i < initial_states.size(); ++i) {
    if (initial_states[i].size() != nx) {
      saltus::detail::throw_error("invariant_density: initial state ", i, " has ",
                                  initial_states[i].size(), " entries, mode '",
                                  system.mode(mode).name, "' has ", nx);
    }
    for (const DensityAxis* a : {&options.x_axis, &options.y_axis}) {
      if (!options.observable && (a->variable < 0 || a->variable >= nx)) {
        saltus::detail::throw_error("invariant_density: axis variable ", a->variable,
                                    " is not a state index (0 to ", nx - 1, ")");
      }
    }
  }
  SimulationOptions sim_options = options.simulation;
  sim_options.output = OutputOptions{};
  sim_options.output.record_events = false;
  sim_options.output.reserve_events = 0;
  const long per_run = std::min(kMapsPerRun, options.maps);
  for (long k = 1; k <= per_run; ++k) {
    sim_options.output.sample_times.push_back(static_cast<double>(k) * options.map_time);
  }
  sim_options.output.reserve_samples = per_run + 8;

  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int threads = std::max(1, std::min(options.threads > 0 ? options.threads : hw,
                                           static_cast<int>(initial_states.size())));
  DensityResult result;
  result.histogram = empty_histogram(options);
  result.checkpoints.assign(options.checkpoints.size(), result.histogram);
  result.trajectories.resize(initial_states.size());
  result.threads_used = threads;
  std::atomic<size_t> next{0};
  std::mutex merge_lock;
  std::exception_ptr failure;  // the first exception of any thread, rethrown after the join
  auto worker = [&] {
    try {
      Simulator sim(system, sim_options);
      const DensityHistogram empty = empty_histogram(options);
      DensityHistogram local = empty, trajectory = empty;
      std::vector<DensityHistogram> checkpoints(options.checkpoints.size(), empty);
      for (size_t i = next++; i < initial_states.size(); i = next++) {
        trajectory = empty;
        result.trajectories[i] =
            run_trajectory(sim, mode, initial_states[i], options, trajectory, checkpoints);
        local.merge(trajectory);
      }
      const std::lock_guard<std::mutex> lock(merge_lock);
      result.histogram.merge(local);
      for (size_t j = 0; j < checkpoints.size(); ++j) result.checkpoints[j].merge(checkpoints[j]);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(merge_lock);
      if (!failure) failure = std::current_exception();
      next = initial_states.size();  // the others stop after their current trajectory
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return result;
}

}  // namespace saltus::analysis
