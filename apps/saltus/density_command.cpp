#include "density_command.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "python_script.hpp"
#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/run/density_outputs.hpp"
#include "saltus/run/density_setup.hpp"
#include "saltus/run/output_folder.hpp"

namespace saltus::cli {

int density_command(const run::DensityArguments& args) {
  run::DensitySetup setup;
  analysis::DensityOptions o;
  try {
    if (args.model.empty() == args.system.empty()) {
      saltus::detail::throw_error("give either a MODEL file or --system NAME (not both)");
    }
    if (args.grid.size() != 2 || args.grid[0] < 1 || args.grid[1] < 1) {
      saltus::detail::throw_error("--grid takes two box counts >= 1 (NX NY)");
    }
    if (args.vars.size() != 2) saltus::detail::throw_error("--vars takes two coordinates: X,Y");
    if (args.trajectories < 1) {
      saltus::detail::throw_error("--trajectories = ", args.trajectories, " must be >= 1");
    }
    if (args.maps < args.trajectories) {
      saltus::detail::throw_error("--maps = ", args.maps,
                                  " must be >= --trajectories = ", args.trajectories);
    }
    if (args.discard < 0) saltus::detail::throw_error("--discard = ", args.discard, " < 0");
    if (!(args.rtol > 0.0 && args.rtol < 1e-3)) {
      saltus::detail::throw_error("--rtol = ", args.rtol, " must be in (0, 1e-3)");
    }
    setup = args.model.empty() ? run::builtin_density_setup(args) : run::model_density_setup(args);
    o.x_axis = setup.x_axis;
    o.y_axis = setup.y_axis;
    o.observable = setup.observable;
    // Every trajectory bins ceil(maps / trajectories) maps after its own `discard`.
    o.maps = (args.maps + args.trajectories - 1) / args.trajectories + args.discard;
    o.discard = args.discard;
    o.checkpoints = run::decade_checkpoints(o.maps - o.discard);
    o.threads = args.threads;
    o.simulation.integrator = Integrator::Dop853;
    o.simulation.stepper.rtol = args.rtol;
    o.simulation.stepper.atol = 1e-2 * args.rtol;
    const std::string problems = o.validate();
    if (!problems.empty()) saltus::detail::throw_error(problems);
  } catch (const model::ModelError& e) {
    std::cerr << e.what() << "\n"
              << args.model << ": " << e.diagnostics().size() << " problem(s)\nnothing was run\n";
    return 1;
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\nnothing was run\n";
    return 1;
  }
  const auto start = std::chrono::steady_clock::now();
  analysis::DensityResult r;
  try {
    r = analysis::invariant_density(setup.system, setup.mode, setup.starts, o);
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const run::DensityRunTally tally = run::density_run_tally(setup, r);
  const std::vector<run::DensityConvergenceRow> rows = run::density_convergence(r);
  const std::string json = run::density_summary_json(args, setup, o, r, rows, tally, seconds);
  try {
    run::replace_output_folder(args.out_dir,
                               {{"density.csv", run::density_csv(r, o)},
                                {"density.npy", run::density_npy(r.histogram)},
                                {"convergence.csv", run::density_convergence_csv(rows)},
                                {"summary.json", json}});
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 3;
  }
  std::cout << (args.model.empty() ? "system     " : "model      ") << setup.label << " ("
            << args.trajectories << " trajectories, " << tally.maps_done << " maps, "
            << r.histogram.binned << " binned) on " << r.threads_used << " thread(s) in " << seconds
            << " s\n"
            << "energy     max relative error " << tally.worst_energy
            << (setup.projected ? "" : " (not projected: the model has a potential)") << "\n";
  if (!rows.empty()) {
    std::cout << "convergence L1 distance to the final histogram (independent draws'):";
    for (const run::DensityConvergenceRow& row : rows) {
      char text[96];
      std::snprintf(text, sizeof text, " %ld maps %.3g (%.3g);", row.maps, row.l1_to_final,
                    row.sampling);
      std::cout << text;
    }
    std::cout << "\n";
  }
  std::cout << "wrote      " << args.out_dir
            << "/density.csv, density.npy, convergence.csv, summary.json\n";
  if (args.plot) {
    const int plotted = run_plot_script("SALTUS_DENSITY_PLOT_SCRIPT",
                                        SALTUS_DEFAULT_DENSITY_PLOT_SCRIPT, args.out_dir);
    if (plotted != 0) return plotted;
  }
  if (!tally.stopped.empty()) {
    std::cerr << "error: " << tally.stopped << "\n";
    return 2;
  }
  return 0;
}

}  // namespace saltus::cli
