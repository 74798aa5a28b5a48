#include "orbit_command.hpp"

#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis_setup.hpp"
#include "orbit_branch_output.hpp"
#include "python_script.hpp"
#include "saltus/analysis/orbit_branch_switching.hpp"
#include "saltus/core/error.hpp"
#include "saltus/model/model_section.hpp"
#include "saltus/run/model_sensitivity.hpp"
#include "saltus/run/output_folder.hpp"

namespace saltus::cli {
namespace {

std::string number(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

nlohmann::ordered_json state_json(const model::Model& m, const Vector& x) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (size_t i = 0; i < m.states.size() && static_cast<Eigen::Index>(i) < x.size(); ++i) {
    out[m.states[i].name] = x[static_cast<Eigen::Index>(i)];
  }
  return out;
}

// --switch-at-pd: the period-2 branch from the first period doubling of `b`, both sides of the
// pitchfork of the doubled map (its two points) joined into one curve through the doubling.
nlohmann::ordered_json switch_at_doubling(const model::Model& m, const analysis::ReturnMap& map,
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
  out["points"] = joined.points.size();
  out["bifurcations"] = bifurcations_json(joined);
  files.emplace_back("period2.csv", branch_csv(m, joined, &map));
  std::cout << "period 2   from " << number(pd->parameter) << ": " << joined.points.size()
            << " points; " << plus.stop_reason << "; " << minus.stop_reason << "\n";
  return out;
}

}  // namespace

int orbit_command(const OrbitArguments& args) {
  LoadedModel lm;
  if (!load_for_analysis(args.model, args.set, lm)) return 1;
  const model::Model& m = *lm.run.model;
  const HybridSystem& sys = lm.run.system;
  analysis::SaltationOptions saltation;
  saltation.allow_numerical_derivatives = args.numerical_resets;
  analysis::ReturnMap map;
  analysis::ContinuationOptions c;
  Vector guess = lm.start.x0;
  try {
    if (args.period > 0.0) {
      // Algebraic states (DAE modes): the map acts on the differential states, z made
      // consistent at each start from the model's guess (return_map.hpp).
      map = analysis::stroboscopic_map(sys, lm.start.mode, m.t_start, args.period, m.options,
                                       saltation, lm.start.z0);
    } else if (!args.section.empty()) {
      const double horizon = args.horizon > 0.0 ? args.horizon : m.t_end - m.t_start;
      map = analysis::section_map(sys, lm.start.mode, m.t_start,
                                  model::section_guard(m, args.section), args.min_time, horizon,
                                  m.options, saltation, lm.start.z0);
    } else {
      throw Error("give --period T (stroboscopic map) or --section EXPR[,+|-] (Poincare map)");
    }
    if (args.switch_at_pd && args.continuation.empty()) {
      throw Error("--switch-at-pd switches branches along a continuation: give --continue too");
    }
    if (!args.continuation.empty()) {
      const Range r = parse_range(args.continuation, false);
      c.parameter = model::parameter_state_index(m, r.name);
      c.p_min = std::min(r.a, r.b);
      c.p_max = std::max(r.a, r.b);
      c.direction = r.b > r.a ? 1.0 : -1.0;
      c.max_points = args.points;
      c.initial_step = args.step;
      c.max_step = args.max_step;
      guess[c.parameter] = r.a;
    }
  } catch (const Error& e) {
    std::cerr << args.model << ": error: " << e.what() << "\n";
    return 1;
  }
  nlohmann::ordered_json j;
  j["model"] = m.name;
  j["map"] = args.period > 0.0 ? "stroboscopic" : "section";
  if (args.period > 0.0) j["period"] = args.period;
  if (!args.section.empty()) j["section"] = args.section;
  std::vector<run::OutputFile> files;
  int status = 0;
  if (args.continuation.empty()) {
    const analysis::PeriodicOrbit orbit = analysis::find_fixed_point(map, guess);
    nlohmann::ordered_json constant = nlohmann::ordered_json::array();
    for (const int k : orbit.constant_states)
      constant.push_back(m.states[static_cast<size_t>(k)].name);
    j["constant_states"] = constant;
    j["status"] = to_string(orbit.status);
    j["message"] = orbit.message;
    j["residual"] = orbit.residual;
    j["iterations"] = orbit.iterations;
    j["state"] = state_json(m, orbit.x);
    if (orbit.converged()) {
      j["return_time"] = orbit.period;
      j["resets_per_period"] = orbit.events_per_period;
      j["multipliers"] = multipliers_json(orbit.multipliers);
      j["stable"] = orbit.multipliers.size() == 0 || std::abs(orbit.multipliers[0]) < 1.0;
      j["monodromy"] = run::matrix_rows_json(orbit.monodromy);
      j["min_crossing_rate"] = orbit.min_crossing_rate;
      j["closest_approach"] = orbit.closest_approach;
    }
    std::cout << "orbit      " << to_string(orbit.status) << ": " << orbit.message << "\n";
    if (orbit.converged()) {
      std::cout << "multipliers";
      for (Eigen::Index k = 0; k < orbit.multipliers.size(); ++k) {
        std::cout << " " << orbit.multipliers[k];
      }
      std::cout << "\n";
    }
    status = orbit.converged() ? 0 : 2;
  } else {
    const analysis::Branch b = analysis::continue_orbit(map, guess, c);
    const bool partial = b.status == analysis::BranchStatus::CorrectorFailed;
    j["status"] = to_string(b.status);
    j["parameter"] = m.states[static_cast<size_t>(c.parameter)].name;
    j["points"] = b.points.size();
    j["partial"] = partial;
    j["stop_reason"] = b.stop_reason;
    j["message"] = b.stop_reason;
    if (partial) {
      const analysis::CorrectorFailure& f = b.failure;
      j["failure"] = {{"parameter", f.parameter},
                      {"step", f.step},
                      {"iterations", f.iterations},
                      {"residual", std::isfinite(f.residual) ? nlohmann::ordered_json(f.residual)
                                                             : nlohmann::ordered_json(nullptr)},
                      {"message", f.message}};
    }
    for (const analysis::BifurcationPoint& p : b.bifurcations) {
      std::cout << to_string(p.kind) << " at " << j["parameter"].get<std::string>() << " = "
                << number(p.parameter) << ": " << p.message << "\n";
    }
    j["bifurcations"] = bifurcations_json(b);
    if (!b.points.empty()) {
      j["state"] = state_json(m, b.points[0].x);
      j["multipliers"] = multipliers_json(b.points[0].multipliers);
    }
    std::cout << "branch     " << b.points.size() << (partial ? " points (partial); " : " points; ")
              << b.stop_reason << "\n";
    // A partial branch keeps its points (orbit.json: status "corrector failed", partial, failure).
    files.emplace_back("branch.csv", branch_csv(m, b));
    files.emplace_back("bifurcations.csv", bifurcations_csv(m, b));
    status = b.status == analysis::BranchStatus::Continued ? 0 : 2;
    if (b.ok && args.switch_at_pd) {
      j["period_2"] = switch_at_doubling(m, map, b, c, files);
      if (j["period_2"]["status"] != "continued") {
        j["message"] = "period 2: " + j["period_2"]["message"].get<std::string>();
        status = 2;
      }
    }
  }
  files.emplace_back("orbit.json", j.dump(2) + "\n");
  try {
    run::replace_output_folder(args.out_dir, files);
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 3;
  }
  std::cout << "wrote      " << (std::filesystem::path(args.out_dir) / "orbit.json").string()
            << (args.continuation.empty() ? "" : ", branch.csv and bifurcations.csv")
            << (args.switch_at_pd && j.contains("period_2") && j["period_2"].contains("points")
                    ? ", period2.csv"
                    : "")
            << "\n";
  if (status != 0) {
    const std::string what = j.contains("period_2")      ? ""
                             : j.value("partial", false) ? "continuation failed: "
                                                         : "no periodic orbit: ";
    std::cerr << args.model << ": error: " << what << j["message"].get<std::string>() << "\n";
    return status;
  }
  if (args.plot)
    return run_plot_script("SALTUS_ORBIT_PLOT_SCRIPT", SALTUS_DEFAULT_ORBIT_PLOT_SCRIPT,
                           args.out_dir);
  return 0;
}

}  // namespace saltus::cli
