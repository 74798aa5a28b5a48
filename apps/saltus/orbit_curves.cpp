#include "orbit_curves.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "orbit_branch_output.hpp"
#include "saltus/analysis/grazing_curve.hpp"
#include "saltus/run/number_text.hpp"

namespace saltus::cli {

namespace {

void write_rows(std::ostringstream& out, int index, const analysis::BifurcationCurve& curve,
                Eigen::Index multipliers) {
  for (size_t i = 0; i < curve.points.size(); ++i) {
    const analysis::CurvePoint& p = curve.points[i];
    out << index << "," << to_string(curve.kind) << "," << i;
    for (Eigen::Index k = 0; k < p.x.size(); ++k) out << "," << p.x[k];
    out << ",";
    if (std::isfinite(p.t0)) out << p.t0;  // the instant of the state (stroboscopic maps)
    out << "," << p.period << "," << p.resets << "," << p.test;
    for (Eigen::Index k = 0; k < multipliers; ++k) {
      out << ",";
      if (k < p.multipliers.size()) out << p.multipliers[k].real();
      out << ",";
      if (k < p.multipliers.size()) out << p.multipliers[k].imag();
    }
    out << "\n";
  }
}

}  // namespace

nlohmann::ordered_json follow_curves(const std::vector<std::string>& names,
                                     const analysis::Branch& branch, const analysis::ReturnMap& map,
                                     const analysis::StroboscopicFamily* family,
                                     const CurveRequest& request,
                                     std::vector<run::OutputFile>& files, bool& complete) {
  complete = true;
  analysis::CurveOptions o = request.options;
  o.first = request.first;
  o.second = request.second;
  o.q_min = request.q_min;
  o.q_max = request.q_max;
  o.second_name = names[static_cast<size_t>(request.second)];
  const std::string& p_name = names[static_cast<size_t>(request.first)];
  const std::string& q_name = names[static_cast<size_t>(request.second)];
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::vector<analysis::BifurcationCurve> curves;
  for (const analysis::BifurcationPoint& b : branch.bifurcations) {
    if (b.kind == analysis::BifurcationKind::NeimarkSacker || branch.points.empty()) continue;
    analysis::BifurcationCurve c;
    if (b.kind == analysis::BifurcationKind::Grazing) {
      // Located again at each q from the branch's side: the distance and side of its last orbit
      // off the grazing (an unrefined grazing is the branch's last point itself).
      double approach = 0.0;
      for (size_t k = std::min(static_cast<size_t>(b.after_point), branch.points.size() - 1);
           approach == 0.0; --k) {
        approach = branch.points[k].x[request.first] - b.parameter;
        if (k == 0) break;
      }
      c = family && std::isfinite(b.t0)
              ? analysis::continue_grazing_curve(family->map_at(b.t0, b.mode), b, approach, o)
              : analysis::continue_grazing_curve(map, b, approach, o);
    } else {
      c = family && std::isfinite(b.t0)
              ? analysis::continue_stroboscopic_bifurcation_curve(*family, b, o)
              : analysis::continue_bifurcation_curve(map, b, o);
    }
    nlohmann::ordered_json j;
    j["kind"] = to_string(c.kind);
    j["from"] = {{p_name, b.parameter}, {q_name, b.x[request.second]}};
    j["status"] = to_string(c.status);
    j["points"] = c.points.size();
    std::ostringstream line;
    line << "curve      " << to_string(c.kind) << " from " << p_name << " = "
         << run::number_text(b.parameter, 12) << ": ";
    if (c.status == analysis::BranchStatus::NoOrbit) {
      j["message"] = c.message;
      line << c.message;
      complete = false;
    } else {
      j["stop_reasons"] = {{q_name + " decreasing", c.stop_reason[0]},
                           {q_name + " increasing", c.stop_reason[1]}};
      j["rephasings"] = c.rephasings;
      j[q_name + "_range"] = {c.points.front().q, c.points.back().q};
      line << c.points.size() << " points"
           << (c.status == analysis::BranchStatus::Continued ? "; " : " (partial); ") << q_name
           << " decreasing: " << c.stop_reason[0] << "; " << q_name
           << " increasing: " << c.stop_reason[1];
      if (c.status != analysis::BranchStatus::Continued) complete = false;
    }
    std::cout << line.str() << "\n";
    list.push_back(j);
    curves.push_back(std::move(c));
  }
  if (curves.empty()) {
    std::cout << "curve      no fold, period doubling or grazing on the branch to continue in "
              << q_name << "\n";
  }
  Eigen::Index multipliers = 0;
  for (const analysis::BifurcationCurve& c : curves) {
    for (const analysis::CurvePoint& p : c.points) {
      multipliers = std::max(multipliers, p.multipliers.size());
    }
  }
  std::ostringstream out;
  out.precision(17);
  out << "curve,kind,point";
  for (const auto& s : names) out << "," << s;
  out << ",t_state,period,resets,test";
  for (Eigen::Index k = 0; k < multipliers; ++k) {
    out << ",multiplier" << k << "_re,multiplier" << k << "_im";
  }
  out << "\n";
  for (size_t k = 0; k < curves.size(); ++k)
    write_rows(out, static_cast<int>(k), curves[k], multipliers);
  files.emplace_back("curves.csv", out.str());
  return list;
}

}  // namespace saltus::cli
