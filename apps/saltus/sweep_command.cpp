#include "sweep_command.hpp"

#include <atomic>
#include <chrono>
#include <future>
#include <iostream>
#include <optional>
#include <thread>

#include "mpi_sweep.hpp"
#include "progress_indicator.hpp"
#include "python_script.hpp"
#include "saltus/core/error.hpp"
#include "saltus/model/diagnostic.hpp"
#include "saltus/run/sweep.hpp"

namespace saltus::cli {
namespace {

constexpr int kFailedPointsShown = 5;

void print_failures(const run::SweepResult& result) {
  int shown = 0;
  for (const run::SweepPoint& p : result.points) {
    if (p.succeeded || shown++ == kFailedPointsShown) continue;
    std::cerr << "failed point";
    for (size_t i = 0; i < p.values.size(); ++i) {
      std::cerr << " " << result.axis_names[i] << "=" << p.values[i];
    }
    std::cerr << ": " << p.status << ": " << p.message << "\n";
  }
}

// Under mpirun / srun: the points spread over the ranks; rank 0 writes and reports.
int sweep_over_ranks(const SweepArguments& args, const run::SweepSpec& spec, const MpiSession& mpi,
                     run::SweepResult& result) {
  try {
    const run::SweepPlan plan(spec);
    std::optional<run::SweepResult> gathered = run_sweep_over_ranks(plan, mpi);
    if (!gathered) return 0;  // a worker rank: rank 0 writes the table
    result = std::move(*gathered);
    run::write_sweep_outputs(result, args.out_dir);
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 3;
  }
  return -1;  // rank 0: go on reporting
}

}  // namespace

int sweep_command(const SweepArguments& args) {
  const MpiSession mpi;
  run::SweepSpec spec;
  spec.model_file = args.model;
  spec.overrides = args.set;
  spec.collect = args.collect;
  spec.random = args.random;
  spec.random_count = args.random_count;
  spec.seed = args.seed;
  try {
    for (const std::string& v : args.vary) spec.axes.push_back(run::parse_sweep_axis(v));
    run::check_sweep(spec);
  } catch (const model::ModelError& e) {
    // Every rank checks the same spec; rank 0 alone says why.
    if (mpi.rank() == 0) std::cerr << e.what() << "\n" << args.model << ": nothing was run\n";
    return 1;
  } catch (const Error& e) {
    if (mpi.rank() == 0) {
      std::cerr << args.model << ": error: " << e.what() << "\n"
                << args.model << ": nothing was run\n";
    }
    return 1;
  }
  const long total = static_cast<long>(run::sweep_points(spec).size());
  const int threads =
      args.threads > 0 ? args.threads : static_cast<int>(std::thread::hardware_concurrency());
  run::SweepResult result;
  if (mpi.active()) {
    const int status = sweep_over_ranks(args, spec, mpi, result);
    if (status >= 0) return status;
  } else {
    try {
      ProgressIndicator progress("sweeping " + std::to_string(total) + " points", true);
      std::atomic<long> done{0};
      auto future = std::async(std::launch::async, [&spec, threads, &done] {
        return run::run_sweep(spec, threads, &done);
      });
      while (future.wait_for(std::chrono::milliseconds(200)) != std::future_status::ready) {
        progress.tick(static_cast<double>(done.load()) / static_cast<double>(total));
      }
      progress.finish();
      result = future.get();
      run::write_sweep_outputs(result, args.out_dir);
    } catch (const Error& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 3;
    }
  }
  std::cout << "points     " << total << " (" << total - result.failed_count() << " succeeded, "
            << result.failed_count() << " failed) on "
            << (mpi.active() ? std::to_string(mpi.size() - 1) + " MPI worker rank(s)"
                             : std::to_string(threads) + " thread(s)")
            << "\n"
            << "wrote      " << args.out_dir << "/sweep.csv\n";
  if (args.plot) {
    const int plotted =
        run_plot_script("SALTUS_SWEEP_PLOT_SCRIPT", SALTUS_DEFAULT_SWEEP_PLOT_SCRIPT, args.out_dir);
    if (plotted != 0) return plotted;
  }
  if (result.failed_count() > 0) {
    print_failures(result);
    std::cerr << args.model << ": error: " << result.failed_count() << " of " << total
              << " points failed; their rows in sweep.csv give the status\n";
    return 2;
  }
  return 0;
}

}  // namespace saltus::cli
