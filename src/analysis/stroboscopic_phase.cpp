#include "saltus/analysis/stroboscopic_phase.hpp"

#include <algorithm>
#include <cmath>

namespace saltus::analysis {

StroboscopicFamily stroboscopic_family(const HybridSystem& system, double period,
                                       const SimulationOptions& options,
                                       const SaltationOptions& saltation,
                                       const Vector& algebraic_guess) {
  StroboscopicFamily f;
  f.period = period;
  f.map_at = [system, period, options, saltation, algebraic_guess](double t0, ModeId mode) {
    return stroboscopic_map(system, mode, t0, period, options, saltation, algebraic_guess);
  };
  f.transit = [system, options, saltation, algebraic_guess](const Vector& x, double t0, double t1,
                                                            ModeId mode) {
    return transit_map(system, mode, t0, t1, options, saltation, algebraic_guess)(x);
  };
  return f;
}

double reset_margin(const MapValue& value, double t0, double period) {
  double margin = kInfinity;
  for (const double t : value.reset_times) {
    margin = std::min({margin, std::abs(t - t0), std::abs(t0 + period - t)});
  }
  return margin;
}

double quietest_instant(const MapValue& value, double t0, double period) {
  std::vector<double> times;  // the resets' phases in [0, T), sorted
  for (const double t : value.reset_times) {
    const double phase = std::fmod(t - t0, period);
    times.push_back(phase < 0.0 ? phase + period : phase);
  }
  if (times.empty()) return t0 + 0.5 * period;
  std::sort(times.begin(), times.end());
  // The gaps are cyclic: the last reset's gap ends at the first one's phase plus T.
  double widest = times.front() + period - times.back();
  double middle = times.back() + 0.5 * widest;
  for (size_t k = 1; k < times.size(); ++k) {
    if (times[k] - times[k - 1] > widest) {
      widest = times[k] - times[k - 1];
      middle = 0.5 * (times[k] + times[k - 1]);
    }
  }
  middle = std::fmod(middle, period);
  return t0 + (middle > 0.0 ? middle : 0.5 * period);
}

double retiming_instant(const MapValue& value, double t0, double period) {
  const double margin = reset_margin(value, t0, period);
  if (!(margin < period / (8.0 * static_cast<double>(value.resets + 1)))) return kNaN;
  return quietest_instant(value, t0, period);
}

}  // namespace saltus::analysis
