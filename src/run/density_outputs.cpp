#include "saltus/run/density_outputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>

#include "saltus/analysis/density_distance.hpp"
#include "saltus/run/npy_file.hpp"
#include "saltus/run/number_text.hpp"

namespace saltus::run {
namespace {

std::string json_text(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += (c == '\n' ? ' ' : c);
  }
  return out + "\"";
}

}  // namespace

std::vector<long> decade_checkpoints(long binned_per_trajectory) {
  std::vector<long> c;
  for (long divisor : {1000L, 100L, 10L}) {
    const long m = binned_per_trajectory / divisor;
    if (m >= 1 && (c.empty() || m > c.back())) c.push_back(m);
  }
  return c;
}

std::vector<DensityConvergenceRow> density_convergence(const analysis::DensityResult& r) {
  std::vector<DensityConvergenceRow> rows;
  if (r.histogram.binned + r.histogram.outside == 0) return rows;
  for (const analysis::DensityHistogram& h : r.checkpoints) {
    DensityConvergenceRow row;
    row.maps = h.binned + h.outside;
    if (row.maps == 0) continue;
    row.l1_to_final = analysis::l1_distance(h, r.histogram);
    row.sampling = analysis::independent_sampling_l1(r.histogram, row.maps);
    rows.push_back(row);
  }
  return rows;
}

std::string density_csv(const analysis::DensityResult& r, const analysis::DensityOptions& o) {
  const auto& h = r.histogram;
  std::ostringstream out;
  out << "ix,iy,"
      << "x_centre,y_centre,count,fraction\n";
  for (int iy = 0; iy < h.ny; ++iy) {
    for (int ix = 0; ix < h.nx; ++ix) {
      const double x = o.x_axis.lo + (ix + 0.5) * (o.x_axis.hi - o.x_axis.lo) / h.nx;
      const double y = o.y_axis.lo + (iy + 0.5) * (o.y_axis.hi - o.y_axis.lo) / h.ny;
      out << ix << ',' << iy << ',' << shortest_number(x) << ',' << shortest_number(y) << ','
          << h.count(ix, iy) << ',' << shortest_number(h.fraction(ix, iy)) << '\n';
    }
  }
  return out.str();
}

std::string density_npy(const analysis::DensityHistogram& h) {
  const std::vector<std::int64_t> counts(h.counts.begin(), h.counts.end());
  return npy_int64(counts, h.ny, h.nx);
}

std::string density_convergence_csv(const std::vector<DensityConvergenceRow>& rows) {
  std::ostringstream out;
  out << "maps,l1_to_final,independent_sampling_l1\n";
  for (const DensityConvergenceRow& row : rows) {
    out << row.maps << ',' << shortest_number(row.l1_to_final) << ','
        << shortest_number(row.sampling) << '\n';
  }
  return out.str();
}

DensityRunTally density_run_tally(const DensitySetup& setup, const analysis::DensityResult& r) {
  DensityRunTally tally;
  for (size_t k = 0; k < setup.starts.size(); ++k) {
    const analysis::DensityTrajectory& t = r.trajectories[k];
    tally.maps_done += t.maps_done;
    // Relative to the start's kinetic energy (> 0), which is the energy without a potential.
    const double E0 = setup.energy(setup.starts[k]), E1 = setup.energy(t.x_final);
    const double scale = setup.kinetic_energy(setup.starts[k]);
    if (setup.elastic) tally.worst_energy = std::max(tally.worst_energy, std::abs(E1 - E0) / scale);
    if (t.termination != Termination::EndTimeReached && tally.stopped.empty()) {
      tally.stopped = "trajectory " + std::to_string(k) + " stopped after " +
                      std::to_string(t.maps_done) + " maps: " + t.message;
    }
  }
  return tally;
}

std::string density_summary_json(const DensityArguments& args, const DensitySetup& setup,
                                 const analysis::DensityOptions& o,
                                 const analysis::DensityResult& r,
                                 const std::vector<DensityConvergenceRow>& rows,
                                 const DensityRunTally& tally, double wall_seconds) {
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
       << ",\n  \"discard_per_trajectory\": " << o.discard
       << ",\n  \"maps_done\": " << tally.maps_done << ",\n  \"binned\": " << r.histogram.binned
       << ",\n  \"outside_grid\": " << r.histogram.outside << ",\n  \"seed\": " << args.seed
       << ",\n  \"integrator\": \"dop853\",\n  \"rtol\": " << shortest_number(args.rtol)
       << ",\n  \"atol\": " << shortest_number(o.simulation.stepper.atol)
       << ",\n  \"invariant_projection\": " << (setup.projected ? "true" : "false")
       << ",\n  \"threads\": " << r.threads_used
       << ",\n  \"wall_seconds\": " << shortest_number(wall_seconds)
       << ",\n  \"max_relative_energy_error\": " << shortest_number(tally.worst_energy)
       << ",\n  \"convergence\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    json << (i ? ", " : "") << "{\"maps\": " << rows[i].maps
         << ", \"l1_to_final\": " << shortest_number(rows[i].l1_to_final)
         << ", \"independent_sampling_l1\": " << shortest_number(rows[i].sampling) << "}";
  }
  json << "]"
       << ",\n  \"status\": " << json_text(tally.stopped.empty() ? "ok" : "stopped")
       << ",\n  \"message\": " << json_text(tally.stopped) << "\n}\n";
  return json.str();
}

}  // namespace saltus::run
