#include "saltus/run/density_outputs.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "saltus/analysis/density_distance.hpp"
#include "saltus/run/npy_file.hpp"

namespace saltus::run {

std::string shortest_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", v);
  if (std::strtod(text, nullptr) != v) std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

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

}  // namespace saltus::run
