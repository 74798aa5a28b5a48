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

// Observer firing at t_s + k T. Like any guard it must start on its non-trigger side (value
// < 0): start the run at t0 in (t_s - T/2, t_s) modulo T, e.g. with t_s = t0 + T/4.
Guard stroboscopic_section(std::string name, double period, double t_s);

}  // namespace saltus::analysis
