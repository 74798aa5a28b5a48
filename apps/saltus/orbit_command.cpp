#include "orbit_command.hpp"

#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis_setup.hpp"
#include "python_script.hpp"
#include "saltus/analysis/orbit_continuation.hpp"
#include "saltus/core/error.hpp"
#include "saltus/model/model_section.hpp"
#include "saltus/model/model_sensitivity.hpp"
#include "saltus/model/output_folder.hpp"

namespace saltus::cli {
namespace {

std::string number(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

nlohmann::ordered_json multipliers_json(const Eigen::VectorXcd& m) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (Eigen::Index k = 0; k < m.size(); ++k) {
    out.push_back({{"re", m[k].real()}, {"im", m[k].imag()}, {"abs", std::abs(m[k])}});
  }
  return out;
}

nlohmann::ordered_json state_json(const model::Model& m, const Vector& x) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (size_t i = 0; i < m.states.size() && static_cast<Eigen::Index>(i) < x.size(); ++i) {
    out[m.states[i].name] = x[static_cast<Eigen::Index>(i)];
  }
  return out;
}

std::string branch_csv(const model::Model& m, const analysis::Branch& b) {
  std::ostringstream out;
  out.precision(17);
  out << "point,parameter";
  for (const auto& s : m.states) out << "," << s.name;
  out << ",stable,largest_multiplier,resets,period,min_crossing_rate,closest_approach";
  const Eigen::Index nm = b.points.empty() ? 0 : b.points[0].multipliers.size();
  for (Eigen::Index k = 0; k < nm; ++k) out << ",multiplier" << k << "_re,multiplier" << k << "_im";
  out << "\n";
  for (size_t i = 0; i < b.points.size(); ++i) {
    const analysis::BranchPoint& p = b.points[i];
    out << i << "," << p.parameter;
    for (Eigen::Index k = 0; k < p.x.size(); ++k) out << "," << p.x[k];
    out << "," << (p.stable ? 1 : 0) << ","
        << (p.multipliers.size() > 0 ? std::abs(p.multipliers[0]) : 0.0) << "," << p.resets << ","
        << p.period << "," << p.min_crossing_rate << "," << p.closest_approach;
    for (Eigen::Index k = 0; k < nm; ++k) {
      out << "," << p.multipliers[k].real() << "," << p.multipliers[k].imag();
    }
    out << "\n";
  }
  return out.str();
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
      map = analysis::stroboscopic_map(sys, lm.start.mode, m.t_start, args.period, m.options,
                                       saltation);
    } else if (!args.section.empty()) {
      const double horizon = args.horizon > 0.0 ? args.horizon : m.t_end - m.t_start;
      map = analysis::section_map(sys, lm.start.mode, m.t_start,
                                  model::section_guard(m, args.section), args.min_time, horizon,
                                  m.options, saltation);
    } else {
      throw Error("give --period T (stroboscopic map) or --section EXPR[,+|-] (Poincare map)");
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
  if (lm.start.z0.size() > 0) {
    std::cerr << args.model << ": error: the initial mode has algebraic states; orbits of DAE "
              << "modes are not supported by `saltus orbit` yet\n";
    return 1;
  }
  nlohmann::ordered_json j;
  j["model"] = m.name;
  j["map"] = args.period > 0.0 ? "stroboscopic" : "section";
  if (args.period > 0.0) j["period"] = args.period;
  if (!args.section.empty()) j["section"] = args.section;
  std::vector<model::OutputFile> files;
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
      j["monodromy"] = model::matrix_rows_json(orbit.monodromy);
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
    j["status"] = b.ok ? "continued" : "no orbit";
    j["parameter"] = m.states[static_cast<size_t>(c.parameter)].name;
    j["points"] = b.points.size();
    j["stop_reason"] = b.stop_reason;
    j["message"] = b.stop_reason;
    nlohmann::ordered_json bif = nlohmann::ordered_json::array();
    for (const analysis::BifurcationPoint& p : b.bifurcations) {
      bif.push_back({{"kind", to_string(p.kind)},
                     {"parameter", p.parameter},
                     {"after_point", p.after_point},
                     {"test_value", p.test_value},
                     {"multipliers", multipliers_json(p.multipliers)},
                     {"message", p.message}});
      std::cout << to_string(p.kind) << " at " << j["parameter"].get<std::string>() << " = "
                << number(p.parameter) << ": " << p.message << "\n";
    }
    j["bifurcations"] = bif;
    if (!b.points.empty()) {
      j["state"] = state_json(m, b.points[0].x);
      j["multipliers"] = multipliers_json(b.points[0].multipliers);
    }
    std::cout << "branch     " << b.points.size() << " points; " << b.stop_reason << "\n";
    files.emplace_back("branch.csv", branch_csv(m, b));
    status = b.ok ? 0 : 2;
  }
  files.emplace_back("orbit.json", j.dump(2) + "\n");
  try {
    model::replace_output_folder(args.out_dir, files);
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 3;
  }
  std::cout << "wrote      " << (std::filesystem::path(args.out_dir) / "orbit.json").string()
            << (args.continuation.empty() ? "" : " and branch.csv") << "\n";
  if (status != 0) {
    std::cerr << args.model << ": error: no periodic orbit: " << j["message"].get<std::string>()
              << "\n";
    return status;
  }
  if (args.plot)
    return run_plot_script("SALTUS_ORBIT_PLOT_SCRIPT", SALTUS_DEFAULT_ORBIT_PLOT_SCRIPT,
                           args.out_dir);
  return 0;
}

}  // namespace saltus::cli
