#include "density_command.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "python_script.hpp"
#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/run/density_outputs.hpp"
#include "saltus/run/density_setup.hpp"
#include "saltus/run/output_folder.hpp"

namespace saltus::cli {
namespace {

using run::shortest_number;

std::string json_text(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += (c == '\n' ? ' ' : c);
  }
  return out + "\"";
}

}  // namespace

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
  const std::vector<Vector>& starts = setup.starts;
  const auto start = std::chrono::steady_clock::now();
  analysis::DensityResult r;
  try {
    r = analysis::invariant_density(setup.system, setup.mode, starts, o);
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  double worst_energy = 0.0;
  long maps_done = 0;
  std::string stopped;
  for (size_t k = 0; k < starts.size(); ++k) {
    const analysis::DensityTrajectory& t = r.trajectories[k];
    maps_done += t.maps_done;
    // Relative to the start's kinetic energy (> 0), which is the energy without a potential.
    const double E0 = setup.energy(starts[k]), E1 = setup.energy(t.x_final);
    const double scale = setup.kinetic_energy(starts[k]);
    if (setup.elastic) worst_energy = std::max(worst_energy, std::abs(E1 - E0) / scale);
    if (t.termination != Termination::EndTimeReached && stopped.empty()) {
      stopped = "trajectory " + std::to_string(k) + " stopped after " +
                std::to_string(t.maps_done) + " maps: " + t.message;
    }
  }
  const std::vector<run::DensityConvergenceRow> rows = run::density_convergence(r);
  std::ostringstream json;
  json << "{\n  \"" << (args.model.empty() ? "system" : "model") << "\": " << json_text(setup.label)
       << ",\n  \"parameters\": {";
  bool first = true;
  for (const auto& [name, value] : setup.parameters) {
    json << (first ? "" : ", ") << json_text(name) << ": " << shortest_number(value);
    first = false;
  }
  json << "},\n  \"vars\": [" << json_text(args.vars[0]) << ", " << json_text(args.vars[1])
       << "],\n  \"grid\": [" << o.x_axis.bins << ", " << o.y_axis.bins << "],\n  \"x_range\": ["
       << shortest_number(o.x_axis.lo) << ", " << shortest_number(o.x_axis.hi)
       << "],\n  \"y_range\": [" << shortest_number(o.y_axis.lo) << ", "
       << shortest_number(o.y_axis.hi) << "],\n  \"trajectories\": " << args.trajectories
       << ",\n  \"maps_per_trajectory\": " << o.maps
       << ",\n  \"discard_per_trajectory\": " << o.discard << ",\n  \"maps_done\": " << maps_done
       << ",\n  \"binned\": " << r.histogram.binned
       << ",\n  \"outside_grid\": " << r.histogram.outside << ",\n  \"seed\": " << args.seed
       << ",\n  \"integrator\": \"dop853\",\n  \"rtol\": " << shortest_number(args.rtol)
       << ",\n  \"atol\": " << shortest_number(o.simulation.stepper.atol)
       << ",\n  \"invariant_projection\": " << (setup.projected ? "true" : "false")
       << ",\n  \"threads\": " << r.threads_used
       << ",\n  \"wall_seconds\": " << shortest_number(seconds)
       << ",\n  \"max_relative_energy_error\": " << shortest_number(worst_energy)
       << ",\n  \"convergence\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    json << (i ? ", " : "") << "{\"maps\": " << rows[i].maps
         << ", \"l1_to_final\": " << shortest_number(rows[i].l1_to_final)
         << ", \"independent_sampling_l1\": " << shortest_number(rows[i].sampling) << "}";
  }
  json << "]"
       << ",\n  \"status\": " << json_text(stopped.empty() ? "ok" : "stopped")
       << ",\n  \"message\": " << json_text(stopped) << "\n}\n";
  try {
    run::replace_output_folder(args.out_dir,
                               {{"density.csv", run::density_csv(r, o)},
                                {"density.npy", run::density_npy(r.histogram)},
                                {"convergence.csv", run::density_convergence_csv(rows)},
                                {"summary.json", json.str()}});
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 3;
  }
  std::cout << (args.model.empty() ? "system     " : "model      ") << setup.label << " ("
            << args.trajectories << " trajectories, " << maps_done << " maps, "
            << r.histogram.binned << " binned) on " << r.threads_used << " thread(s) in " << seconds
            << " s\n"
            << "energy     max relative error " << worst_energy
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
  if (!stopped.empty()) {
    std::cerr << "error: " << stopped << "\n";
    return 2;
  }
  return 0;
}

}  // namespace saltus::cli
