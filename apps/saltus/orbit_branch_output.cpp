#include "orbit_branch_output.hpp"

#include <cmath>
#include <sstream>

namespace saltus::cli {

nlohmann::ordered_json multipliers_json(const Eigen::VectorXcd& m) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (Eigen::Index k = 0; k < m.size(); ++k) {
    out.push_back({{"re", m[k].real()}, {"im", m[k].imag()}, {"abs", std::abs(m[k])}});
  }
  return out;
}

std::string branch_csv(const std::vector<std::string>& names, const analysis::Branch& b,
                       const analysis::ReturnMap* map) {
  std::ostringstream out;
  out.precision(17);
  out << "point,parameter";
  for (const auto& s : names) out << "," << s;
  if (map) {
    for (const auto& s : names) out << ",next_" << s;
  }
  out << ",stable,largest_multiplier,resets,period,min_crossing_rate,closest_approach,t_state";
  const Eigen::Index nm = b.points.empty() ? 0 : b.points[0].multipliers.size();
  for (Eigen::Index k = 0; k < nm; ++k) out << ",multiplier" << k << "_re,multiplier" << k << "_im";
  out << "\n";
  for (size_t i = 0; i < b.points.size(); ++i) {
    const analysis::BranchPoint& p = b.points[i];
    out << i << "," << p.parameter;
    for (Eigen::Index k = 0; k < p.x.size(); ++k) out << "," << p.x[k];
    if (map) {
      const analysis::MapValue next = (*map)(p.x);
      for (Eigen::Index k = 0; k < p.x.size(); ++k) {
        out << ",";
        if (next.ok()) out << next.x[k];  // empty when the map failed there
      }
    }
    out << "," << (p.stable ? 1 : 0) << ","
        << (p.multipliers.size() > 0 ? std::abs(p.multipliers[0]) : 0.0) << "," << p.resets << ","
        << p.period << "," << p.min_crossing_rate << "," << p.closest_approach << ",";
    if (std::isfinite(p.t0)) out << p.t0;  // the instant of the state (stroboscopic maps)
    for (Eigen::Index k = 0; k < nm; ++k) {
      out << "," << p.multipliers[k].real() << "," << p.multipliers[k].imag();
    }
    out << "\n";
  }
  return out.str();
}

std::string bifurcations_csv(const std::vector<std::string>& names, const analysis::Branch& b) {
  std::ostringstream out;
  out.precision(17);
  out << "kind,parameter,after_point,test_value,angle,t_state";
  for (const auto& s : names) out << "," << s;
  out << "\n";
  for (const analysis::BifurcationPoint& p : b.bifurcations) {
    out << to_string(p.kind) << "," << p.parameter << "," << p.after_point << "," << p.test_value
        << ",";
    if (std::isfinite(p.angle)) out << p.angle;
    out << ",";
    if (std::isfinite(p.t0)) out << p.t0;
    for (Eigen::Index k = 0; k < static_cast<Eigen::Index>(names.size()); ++k) {
      out << ",";
      if (k < p.x.size()) out << p.x[k];
    }
    out << "\n";
  }
  return out.str();
}

nlohmann::ordered_json bifurcations_json(const analysis::Branch& b) {
  nlohmann::ordered_json bif = nlohmann::ordered_json::array();
  for (const analysis::BifurcationPoint& p : b.bifurcations) {
    nlohmann::ordered_json j = {{"kind", to_string(p.kind)},
                                {"parameter", p.parameter},
                                {"after_point", p.after_point},
                                {"test_value", p.test_value}};
    if (std::isfinite(p.angle)) j["angle"] = p.angle;
    if (std::isfinite(p.t0)) j["t_state"] = p.t0;
    if (!p.sequence_change.empty()) {
      j["sliding_kind"] = to_string(p.sliding);
      j["sequence_change"] = p.sequence_change;
    }
    j["multipliers"] = multipliers_json(p.multipliers);
    j["message"] = p.message;
    bif.push_back(j);
  }
  return bif;
}

}  // namespace saltus::cli
