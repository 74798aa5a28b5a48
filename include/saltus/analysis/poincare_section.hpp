// Poincare sections as observer guards (Guard::observe_only, make_observer): the run logs every
// crossing of the section without a jump, and the section's points are read back from the event
// log. A stroboscopic section of a system forced with period T is the time-only observer
// p(t) = sin(2 pi (t - t_s) / T) rising, which crosses once per period, at t_s + k T.
#pragma once

#include <string>
#include <vector>

#include "saltus/core/guard.hpp"
#include "saltus/sim/event_log.hpp"

namespace saltus::analysis {

struct SectionPoints {
  std::vector<double> t;  // crossing times
  Matrix x;               // one row per crossing: the state there
};

// Crossings of observer guard `guard` of mode `mode` in `events`, in order.
SectionPoints section_points(const EventLog& events, ModeId mode, GuardId guard);

// Observer firing at t_s + k T. Started on its trigger side it waits for its other side (an
// observer may start anywhere), so its first point is the first t_s + k T at least half a
// period after t0 in that case; start at t0 in (t_s - T/2, t_s] modulo T to see the first one.
Guard stroboscopic_section(std::string name, double period, double t_s);

}  // namespace saltus::analysis
