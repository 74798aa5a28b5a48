// Size limits of SimulationOptions: checked before a run so that a huge count is a clear
// configuration error instead of bad_alloc, an overflow or a run that never ends.
#include <sstream>

#include "saltus/sim/simulation_options.hpp"

namespace saltus {

std::string size_limit_problems(const SimulationOptions& options) {
  using L = SimulationOptionLimits;
  std::ostringstream out;
  auto limit = [&out](const char* field, long long value, long long bound) {
    if (value > bound) out << field << " = " << value << " exceeds the limit of " << bound << "; ";
  };
  const events::EventOptions& e = options.events;
  limit("events.guard_samples", e.guard_samples, L::guard_samples);
  limit("events.max_events", e.max_events, L::max_events);
  limit("events.max_resets_per_instant", e.max_resets_per_instant, L::max_resets_per_instant);
  limit("events.root.max_evaluations", e.root.max_evaluations, L::root_max_evaluations);
  limit("events.root.ulps", e.root.ulps, L::root_ulps);
  limit("stepper.max_rejections", options.stepper.max_rejections, L::max_rejections);
  limit("stepper.newton.max_iterations", options.stepper.newton.max_iterations,
        L::newton_max_iterations);
  limit("zeno.cycles", options.zeno.cycles, L::zeno_cycles);
  limit("zeno.max_cycle_length", options.zeno.max_cycle_length, L::zeno_max_cycle_length);
  limit("zeno.min_gap_count", options.zeno.min_gap_count, L::zeno_min_gap_count);
  limit("output.reserve_events", options.output.reserve_events, L::reserve);
  limit("output.reserve_samples", options.output.reserve_samples, L::reserve);
  limit("output.sample_times (count)", static_cast<long long>(options.output.sample_times.size()),
        L::sample_times);
  return out.str();
}

}  // namespace saltus
