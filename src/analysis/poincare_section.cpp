#include "saltus/analysis/poincare_section.hpp"

#include <cmath>
#include <numbers>

namespace saltus::analysis {

SectionPoints section_points(const EventLog& events, ModeId mode, GuardId guard) {
  SectionPoints out;
  std::vector<long> hits;
  for (long i = 0; i < events.size(); ++i) {
    const EventRecord& r = events[i];
    if (r.observation && r.mode_before == mode && r.guard == guard) hits.push_back(i);
  }
  out.x.resize(static_cast<Eigen::Index>(hits.size()),
               hits.empty() ? 0 : events[hits[0]].nx_before);
  for (size_t k = 0; k < hits.size(); ++k) {
    out.t.push_back(events[hits[k]].t);
    out.x.row(static_cast<Eigen::Index>(k)) = events.x_before(hits[k]).transpose();
  }
  return out;
}

Guard stroboscopic_section(std::string name, double period, double t_s) {
  const double w = 2.0 * std::numbers::pi / period;
  return make_observer(std::move(name), Direction::Rising,
                       [w, t_s](const auto& t, const auto&, const auto&) {
                         using std::sin;
                         return sin(w * (t - t_s));
                       });
}

}  // namespace saltus::analysis
