#include "orbit_period_two.hpp"

#include <cmath>
#include <iostream>

#include "orbit_branch_output.hpp"
#include "saltus/analysis/orbit_branch_switching.hpp"
#include "saltus/run/number_text.hpp"

namespace saltus::cli {

// --switch-at-pd: the period-2 branch from the first period doubling of `b`, both sides of the
// pitchfork of the doubled map (its two points) joined into one curve through the doubling.
// A doubling located after the stroboscopic instant moved (BifurcationPoint::t0) is switched on
// the map from its own instant (`family`), and the period-2 points carry that instant.
nlohmann::ordered_json switch_at_doubling(const std::vector<std::string>& names,
                                          const analysis::ReturnMap& branch_map,
                                          const analysis::StroboscopicFamily* family,
                                          const analysis::Branch& b,
                                          const analysis::ContinuationOptions& c,
                                          std::vector<run::OutputFile>& files) {
  nlohmann::ordered_json out;
  const analysis::BifurcationPoint* pd = nullptr;
  for (const analysis::BifurcationPoint& p : b.bifurcations) {
    if (!pd && p.kind == analysis::BifurcationKind::PeriodDoubling) pd = &p;
  }
  if (!pd) {
    out["status"] = "no period doubling";
    out["message"] = "no period doubling on the branch to switch at";
    std::cout << "period 2   " << out["message"].get<std::string>() << "\n";
    return out;
  }
  const bool retimed = family && std::isfinite(pd->t0);
  const analysis::ReturnMap map = retimed ? family->map_at(pd->t0, pd->mode) : branch_map;
  const analysis::Branch plus = analysis::switch_at_period_doubling(map, *pd, c, 1.0);
  const analysis::Branch minus = analysis::switch_at_period_doubling(map, *pd, c, -1.0);
  out["at"] = pd->parameter;
  if (!plus.ok || !minus.ok) {
    out["status"] = "no period-2 branch";
  } else if (plus.status == analysis::BranchStatus::CorrectorFailed ||
             minus.status == analysis::BranchStatus::CorrectorFailed) {
    out["status"] = to_string(analysis::BranchStatus::CorrectorFailed);  // a partial branch
  } else {
    out["status"] = to_string(analysis::BranchStatus::Continued);
  }
  out["message"] = "along +v: " + plus.stop_reason + "; along -v: " + minus.stop_reason;
  out["stop_reasons"] = {plus.stop_reason, minus.stop_reason};
  // Joined: the -v side reversed, then the +v side without its first point (the doubling, the
  // -v side's first point too); after_point counted in the joined rows.
  analysis::Branch joined;
  for (auto it = minus.points.rbegin(); it != minus.points.rend(); ++it) {
    joined.points.push_back(*it);
  }
  const int offset = minus.points.empty() ? 0 : static_cast<int>(minus.points.size()) - 1;
  for (size_t i = minus.points.empty() ? 0 : 1; i < plus.points.size(); ++i) {
    joined.points.push_back(plus.points[i]);
  }
  for (analysis::BifurcationPoint p : plus.bifurcations) {
    p.after_point += offset;
    joined.bifurcations.push_back(p);
  }
  for (analysis::BifurcationPoint p : minus.bifurcations) {
    p.after_point = offset - 1 - p.after_point;
    joined.bifurcations.push_back(p);
  }
  if (retimed) {
    for (analysis::BranchPoint& p : joined.points) p.t0 = pd->t0;
    out["t_state"] = pd->t0;
  }
  out["points"] = joined.points.size();
  out["bifurcations"] = bifurcations_json(joined);
  files.emplace_back("period2.csv", branch_csv(names, joined, &map));
  std::cout << "period 2   from " << run::number_text(pd->parameter, 17) << ": "
            << joined.points.size() << " points; " << plus.stop_reason << "; " << minus.stop_reason
            << "\n";
  return out;
}

}  // namespace saltus::cli
