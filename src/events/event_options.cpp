#include "saltus/events/event_options.hpp"

#include <sstream>

namespace saltus::events {

const char* to_string(RootFinderKind kind) {
  switch (kind) {
    case RootFinderKind::Brent:
      return "brent";
    case RootFinderKind::AndersonBjorck:
      return "anderson-bjorck";
    case RootFinderKind::Illinois:
      return "illinois";
    case RootFinderKind::Bisection:
      return "bisection";
    case RootFinderKind::Newton:
      return "newton";
  }
  return "unknown";
}

std::string EventOptions::validate() const {
  std::ostringstream out;
  if (root.ulps < 1) out << "events.root.ulps = " << root.ulps << " must be >= 1; ";
  if (root.abs_width < 0.0)
    out << "events.root.abs_width = " << root.abs_width << " must be >= 0; ";
  if (root.max_evaluations < 1) {
    out << "events.root.max_evaluations = " << root.max_evaluations << " must be >= 1; ";
  }
  if (guard_samples < 0) out << "events.guard_samples = " << guard_samples << " must be >= 0; ";
  if (!(guard_tolerance >= 0.0)) {
    out << "events.guard_tolerance = " << guard_tolerance << " must be >= 0; ";
  }
  if (band_states < 0) out << "events.band_states = " << band_states << " must be >= 0; ";
  if (!(simultaneous_rtol >= 0.0)) {
    out << "events.simultaneous_rtol = " << simultaneous_rtol << " must be >= 0; ";
  }
  if (!(predictive_gamma > 0.0 && predictive_gamma <= 1.0)) {
    out << "events.predictive_gamma = " << predictive_gamma << " must be in (0, 1]; ";
  }
  if (predictive_h_min < 0.0) {
    out << "events.predictive_h_min = " << predictive_h_min << " must be >= 0; ";
  }
  if (max_events < 1) out << "events.max_events = " << max_events << " must be >= 1; ";
  if (chatter_steps < 0 || chatter_steps == 1) {
    out << "events.chatter_steps = " << chatter_steps << " must be 0 (off) or >= 2; ";
  }
  if (max_resets_per_instant < 1) {
    out << "events.max_resets_per_instant = " << max_resets_per_instant << " must be >= 1; ";
  }
  return out.str();
}

}  // namespace saltus::events
