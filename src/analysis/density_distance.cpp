#include "saltus/analysis/density_distance.hpp"

#include <cmath>

#include "saltus/core/error.hpp"

namespace saltus::analysis {

namespace {

long maps_in(const DensityHistogram& h, const char* name) {
  const long all = h.binned + h.outside;
  if (all <= 0) saltus::detail::throw_error(name, ": the histogram holds no maps");
  return all;
}

// E|X - n p| / n for X ~ Binomial(n, p).
double mean_absolute_fraction_deviation(long n, double p) {
  if (!(p > 0.0) || !(p < 1.0)) return 0.0;
  const double nd = static_cast<double>(n);
  const double m = std::floor(nd * p) + 1.0;
  if (m > nd) return 0.0;
  const double log_choose =
      std::lgamma(nd + 1.0) - std::lgamma(m + 1.0) - std::lgamma(nd - m + 1.0);
  const double log_mad =
      std::log(2.0 * m) + log_choose + m * std::log(p) + (nd - m + 1.0) * std::log1p(-p);
  return std::exp(log_mad) / nd;
}

}  // namespace

double l1_distance(const DensityHistogram& a, const DensityHistogram& b) {
  if (a.nx != b.nx || a.ny != b.ny) {
    saltus::detail::throw_error("l1_distance: grids differ (", a.nx, "x", a.ny, " and ", b.nx, "x",
                                b.ny, ")");
  }
  const double na = static_cast<double>(maps_in(a, "l1_distance"));
  const double nb = static_cast<double>(maps_in(b, "l1_distance"));
  double sum = std::abs(static_cast<double>(a.outside) / na - static_cast<double>(b.outside) / nb);
  for (size_t i = 0; i < a.counts.size(); ++i) {
    sum += std::abs(static_cast<double>(a.counts[i]) / na - static_cast<double>(b.counts[i]) / nb);
  }
  return sum;
}

double independent_sampling_l1(const DensityHistogram& reference, long maps) {
  if (maps < 1) saltus::detail::throw_error("independent_sampling_l1: maps = ", maps, " < 1");
  const double n = static_cast<double>(maps_in(reference, "independent_sampling_l1"));
  double sum = mean_absolute_fraction_deviation(maps, static_cast<double>(reference.outside) / n);
  for (const long c : reference.counts) {
    sum += mean_absolute_fraction_deviation(maps, static_cast<double>(c) / n);
  }
  return sum;
}

}  // namespace saltus::analysis
