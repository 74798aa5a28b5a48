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
#include "saltus/analysis/density_distance.hpp"
#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/run/density_setup.hpp"
#include "saltus/run/npy_file.hpp"
#include "saltus/run/output_folder.hpp"

namespace saltus::cli {
namespace {

// The shortest of %.15g and %.17g that reads back as v.
std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", v);
  if (std::strtod(text, nullptr) != v) std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

std::string json_text(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += (c == '\n' ? ' ' : c);
  }
  return out + "\"";
}

// ix,iy,x,y,count,fraction (box centres; fraction = count / every map of every trajectory).
std::string density_csv(const analysis::DensityResult& r, const analysis::DensityOptions& o) {
  const auto& h = r.histogram;
  std::ostringstream out;
  out << "ix,iy,"
      << "x_centre,y_centre,count,fraction\n";
  for (int iy = 0; iy < h.ny; ++iy) {
    for (int ix = 0; ix < h.nx; ++ix) {
      const double x = o.x_axis.lo + (ix + 0.5) * (o.x_axis.hi - o.x_axis.lo) / h.nx;
      const double y = o.y_axis.lo + (iy + 0.5) * (o.y_axis.hi - o.y_axis.lo) / h.ny;
      out << ix << ',' << iy << ',' << number(x) << ',' << number(y) << ',' << h.count(ix, iy)
          << ',' << number(h.fraction(ix, iy)) << '\n';
    }
  }
  return out.str();
}

// The counts as a NumPy .npy file: int64, shape (ny, nx), row iy.
std::string density_npy(const analysis::DensityHistogram& h) {
  const std::vector<std::int64_t> counts(h.counts.begin(), h.counts.end());
  return run::npy_int64(counts, h.ny, h.nx);
}

// Checkpoints at a thousandth, a hundredth and a tenth of each trajectory's binned maps (those of
// at least one map): the histogram's distance to the final one at each shows its convergence.
std::vector<long> decade_checkpoints(long binned_per_trajectory) {
  std::vector<long> c;
  for (long divisor : {1000L, 100L, 10L}) {
    const long m = binned_per_trajectory / divisor;
    if (m >= 1 && (c.empty() || m > c.back())) c.push_back(m);
  }
  return c;
}

struct ConvergenceRow {
  long maps = 0;             // maps in the checkpoint's histogram, all trajectories
  double l1_to_final = 0.0;  // l1_distance to the final histogram
  double sampling = 0.0;     // independent_sampling_l1 of the final histogram at `maps`
};

std::vector<ConvergenceRow> convergence(const analysis::DensityResult& r) {
  std::vector<ConvergenceRow> rows;
  if (r.histogram.binned + r.histogram.outside == 0) return rows;
  for (const analysis::DensityHistogram& h : r.checkpoints) {
    ConvergenceRow row;
    row.maps = h.binned + h.outside;
    if (row.maps == 0) continue;
    row.l1_to_final = analysis::l1_distance(h, r.histogram);
    row.sampling = analysis::independent_sampling_l1(r.histogram, row.maps);
    rows.push_back(row);
  }
  return rows;
}

std::string convergence_csv(const std::vector<ConvergenceRow>& rows) {
  std::ostringstream out;
  out << "maps,l1_to_final,independent_sampling_l1\n";
  for (const ConvergenceRow& row : rows) {
    out << row.maps << ',' << number(row.l1_to_final) << ',' << number(row.sampling) << '\n';
  }
  return out.str();
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
    o.checkpoints = decade_checkpoints(o.maps - o.discard);
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
  const std::vector<ConvergenceRow> rows = convergence(r);
  std::ostringstream json;
  json << "{\n  \"" << (args.model.empty() ? "system" : "model") << "\": " << json_text(setup.label)
       << ",\n  \"parameters\": {";
  bool first = true;
  for (const auto& [name, value] : setup.parameters) {
    json << (first ? "" : ", ") << json_text(name) << ": " << number(value);
    first = false;
  }
  json << "},\n  \"vars\": [" << json_text(args.vars[0]) << ", " << json_text(args.vars[1])
       << "],\n  \"grid\": [" << o.x_axis.bins << ", " << o.y_axis.bins << "],\n  \"x_range\": ["
       << number(o.x_axis.lo) << ", " << number(o.x_axis.hi) << "],\n  \"y_range\": ["
       << number(o.y_axis.lo) << ", " << number(o.y_axis.hi)
       << "],\n  \"trajectories\": " << args.trajectories
       << ",\n  \"maps_per_trajectory\": " << o.maps
       << ",\n  \"discard_per_trajectory\": " << o.discard << ",\n  \"maps_done\": " << maps_done
       << ",\n  \"binned\": " << r.histogram.binned
       << ",\n  \"outside_grid\": " << r.histogram.outside << ",\n  \"seed\": " << args.seed
       << ",\n  \"integrator\": \"dop853\",\n  \"rtol\": " << number(args.rtol)
       << ",\n  \"atol\": " << number(o.simulation.stepper.atol)
       << ",\n  \"invariant_projection\": " << (setup.projected ? "true" : "false")
       << ",\n  \"threads\": " << r.threads_used << ",\n  \"wall_seconds\": " << number(seconds)
       << ",\n  \"max_relative_energy_error\": " << number(worst_energy)
       << ",\n  \"convergence\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    json << (i ? ", " : "") << "{\"maps\": " << rows[i].maps
         << ", \"l1_to_final\": " << number(rows[i].l1_to_final)
         << ", \"independent_sampling_l1\": " << number(rows[i].sampling) << "}";
  }
  json << "]"
       << ",\n  \"status\": " << json_text(stopped.empty() ? "ok" : "stopped")
       << ",\n  \"message\": " << json_text(stopped) << "\n}\n";
  try {
    run::replace_output_folder(args.out_dir, {{"density.csv", density_csv(r, o)},
                                              {"density.npy", density_npy(r.histogram)},
                                              {"convergence.csv", convergence_csv(rows)},
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
    for (const ConvergenceRow& row : rows) {
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
