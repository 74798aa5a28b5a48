// `saltus orbit`: the map (stroboscopic or section, its start and min_time), the solve or the
// continuation, and orbit.json. (About 530 lines: the set-up, the single solve and the
// continuation share the loaded model, the map and the JSON being filled; the branch files are
// in orbit_branch_output.cpp, the period-2 branch in orbit_period_two.cpp, the bifurcation
// curves in orbit_curves.cpp. The set-up of a section map is the next piece to move out.)
#include "orbit_command.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "analysis_setup.hpp"
#include "orbit_branch_output.hpp"
#include "orbit_curves.hpp"
#include "orbit_period_two.hpp"
#include "python_script.hpp"
#include "saltus/analysis/cyclic_held_map.hpp"
#include "saltus/analysis/parameter_return_map.hpp"
#include "saltus/analysis/section_start.hpp"
#include "saltus/core/error.hpp"
#include "saltus/model/model_section.hpp"
#include "saltus/model/runtime_parameters.hpp"
#include "saltus/run/model_sensitivity.hpp"
#include "saltus/run/number_text.hpp"
#include "saltus/run/output_folder.hpp"

namespace saltus::cli {
namespace {

std::string number(double v) {
  return run::number_text(v, 17);
}

nlohmann::ordered_json state_json(const std::vector<std::string>& names, const Vector& x) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (size_t i = 0; i < names.size() && static_cast<Eigen::Index>(i) < x.size(); ++i) {
    out[names[i]] = x[static_cast<Eigen::Index>(i)];
  }
  return out;
}

int index_of(const std::vector<std::string>& names, const std::string& name) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The drift per period of each --cyclic state, and what is wrong with the choice: a state whose
// translation changes the map (its column of DP is not the unit vector), or one that does not
// drift (it closes like the others). Empty when nothing is.
std::string cyclic_report(const std::vector<std::string>& names, const analysis::ShootingOptions& s,
                          const analysis::PeriodicOrbit& orbit, nlohmann::ordered_json& j) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string problem;
  const double tolerance = s.tolerance * (1.0 + orbit.x.lpNorm<Eigen::Infinity>());
  for (size_t i = 0; i < s.cyclic.size(); ++i) {
    const std::string& name = names[static_cast<size_t>(s.cyclic[i])];
    const double drift = orbit.drift[static_cast<Eigen::Index>(i)];
    const double column = orbit.cyclic_column_error[static_cast<Eigen::Index>(i)];
    list.push_back({{"state", name},
                    {"drift", drift},
                    {"drift_rate", drift / orbit.period},
                    {"column_error", column}});
    std::cout << "drift      " << name << ": " << number(drift) << " per period\n";
    if (!problem.empty()) continue;
    if (!(column <= 1e-6)) {
      problem = "'" + name + "' is not a translation symmetry of the return map: its column of " +
                "DP differs from the unit vector by " + number(column) +
                " (the orbit found depends on the value it is held at)";
    } else if (std::abs(drift) <= tolerance) {
      problem = "'" + name + "' does not drift: it changes by " + number(drift) +
                " over a period (tolerance " + number(tolerance) + "); leave it out of --cyclic";
    }
  }
  j["cyclic"] = list;
  if (!problem.empty()) j["cyclic_problem"] = problem;
  return problem;
}

// --cyclic with --continue: the held states, the drift at the guess and whether the map is
// invariant under their translation there (else the branch would depend on the held values).
std::string held_cyclic_report(const std::vector<std::string>& names,
                               const analysis::ShootingOptions& s, const analysis::ReturnMap& map,
                               const Vector& guess, nlohmann::ordered_json& j) {
  const analysis::MapValue p = map(guess);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string problem;
  for (const int k : s.cyclic) {
    const std::string& name = names[static_cast<size_t>(k)];
    nlohmann::ordered_json e = {{"state", name}, {"held", guess[k]}};
    if (p.ok()) {
      const double column = analysis::cyclic_column_error(p, k);
      e["drift_at_guess"] = p.x[k] - guess[k];
      e["column_error"] = column;
      if (problem.empty() && !(column <= 1e-6)) {
        problem = "'" + name + "' is not a translation symmetry of the return map: its column " +
                  "of DP differs from the unit vector by " + number(column) +
                  " at the guess (the branch would depend on the value it is held at)";
      }
    }
    list.push_back(e);
  }
  j["cyclic"] = list;
  if (!problem.empty()) j["cyclic_problem"] = problem;
  return problem;
}

// What the command shoots: the map, its guess and the names of the guess's components.
struct Setup {
  analysis::ReturnMap map;
  Vector guess;
  std::vector<std::string> names;
  analysis::ContinuationOptions c;
  analysis::SectionStart start;  // --section: where the map starts
  // --period: the same map at any instant, for a continuation that re-times it
  std::optional<analysis::StroboscopicFamily> family;
  std::string parameter_derivative;
  CurveRequest curve;  // --curve
};

// --continue NAME=A:B where NAME is a parameter of the file: a model with [modes] is loaded again
// with NAME as a state of rate 0 (exact derivatives); another is loaded with NAME kept at run
// time, and the map on (x, NAME) differences d P / d NAME (analysis/parameter_return_map.hpp).
bool load_model(const OrbitArguments& args, LoadedModel& lm, std::string& runtime_parameter,
                std::string& derivative) {
  if (!load_for_analysis(args.model, args.set, lm)) return false;
  if (args.continuation.empty()) return true;
  if (!args.curve.empty() && lm.run.model->modes.empty()) {
    // A mechanics model keeps its parameters at run time (one differenced column per
    // parameter); a curve needs both as states of the map.
    std::cerr << args.model << ": error: --curve needs a model with [modes] (its parameters "
              << "loaded as states of rate 0); this model's parameters are kept at run time\n";
    return false;
  }
  const std::string name = args.continuation.substr(0, args.continuation.find('='));
  const std::string second = args.curve.substr(0, args.curve.find('='));
  // Each of the two that is a parameter is loaded as a state (the other may be a state already:
  // models/impact_oscillator.toml's sigma).
  const bool first_is_parameter = is_parameter(*lm.run.model, name);
  const bool second_is_parameter =
      !args.curve.empty() && second != name && is_parameter(*lm.run.model, second);
  if (!first_is_parameter && !second_is_parameter) return true;
  if (!lm.run.model->modes.empty()) {
    std::vector<std::string> as_states;
    if (first_is_parameter) {
      derivative = "exact (the parameter loaded as a state of rate 0)";
      as_states.push_back(name);
    }
    if (second_is_parameter) as_states.push_back(second);
    return load_for_analysis(args.model, args.set, lm, {}, as_states);
  }
  if (!first_is_parameter) return true;
  runtime_parameter = name;
  derivative = "central differences of the return map in the parameter (kept at run time)";
  return load_for_analysis(args.model, args.set, lm, {name});
}

}  // namespace

int orbit_command(const OrbitArguments& args) {
  LoadedModel lm;
  std::string runtime_parameter, derivative;
  if (!load_model(args, lm, runtime_parameter, derivative)) return 1;
  const model::Model& m = *lm.run.model;
  const HybridSystem& sys = lm.run.system;
  analysis::SaltationOptions saltation;
  saltation.allow_numerical_derivatives = args.numerical_resets;
  Setup setup;
  for (const model::Quantity& q : m.states) setup.names.push_back(q.name);
  analysis::ContinuationOptions& c = setup.c;
  analysis::ShootingOptions shooting;
  Vector guess = lm.start.x0;
  Guard section;
  double horizon = 0.0;
  Range r;
  try {
    if (!(args.tolerance > 0.0) || !std::isfinite(args.tolerance)) {
      throw Error("--tol must be a positive number (got " + number(args.tolerance) + ")");
    }
    if (args.max_iterations < 0) throw Error("--max-iterations must be >= 0");
    shooting.tolerance = args.tolerance;
    shooting.max_iterations = args.max_iterations;
    c.tolerance = args.tolerance;
    c.first_orbit_iterations = args.max_iterations;
    if (args.period <= 0.0 && args.section.empty()) {
      throw Error("give --period T (stroboscopic map) or --section EXPR[,+|-] (Poincare map)");
    }
    if (!args.section.empty() && args.period <= 0.0) {
      section = model::section_guard(m, args.section);
      horizon = args.horizon > 0.0 ? args.horizon : m.t_end - m.t_start;
      // Checks --min-time and --horizon before any run (throws naming them); 0 (not given):
      // from the start's first return, below.
      analysis::section_map(sys, lm.start.mode, m.t_start, section,
                            args.min_time == 0.0 ? 0.5 * horizon : args.min_time, horizon);
    }
    if (!args.curve.empty() && args.continuation.empty()) {
      throw Error(
          "--curve continues the branch's folds, period doublings and grazings: give --continue "
          "too");
    }
    if (args.switch_at_pd && args.continuation.empty()) {
      throw Error("--switch-at-pd switches branches along a continuation: give --continue too");
    }
    for (const std::string& name : args.cyclic) {
      const int k = index_of(setup.names, name);
      if (k < 0) {
        throw Error("--cyclic: '" + name + "' is not a state (states: " + listed(setup.names) +
                    ")");
      }
      if (std::find(shooting.cyclic.begin(), shooting.cyclic.end(), k) != shooting.cyclic.end()) {
        throw Error("--cyclic: '" + name + "' is named twice");
      }
      shooting.cyclic.push_back(k);
    }
    if (!args.show.empty() && index_of(setup.names, args.show) < 0) {
      throw Error("--show: '" + args.show + "' is not a state (states: " + listed(setup.names) +
                  ")");
    }
    if (!args.continuation.empty()) {
      r = parse_range(args.continuation, false);
      if (runtime_parameter.empty()) {
        c.parameter = model::parameter_state_index(m, r.name);
        guess[c.parameter] = r.a;
      } else {
        model::set_runtime_parameter(m, r.name, r.a);
      }
      c.p_min = std::min(r.a, r.b);
      c.p_max = std::max(r.a, r.b);
      c.direction = r.b > r.a ? 1.0 : -1.0;
      c.max_points = args.points;
      c.initial_step = args.step;
      c.max_step = args.max_step;
    }
    if (!args.curve.empty()) {
      const Range q = parse_range(args.curve, false);
      setup.curve.first = c.parameter;
      setup.curve.second = model::parameter_state_index(m, q.name);
      if (setup.curve.second == c.parameter) {
        throw Error("--curve: '" + q.name + "' is the continued parameter; name another one");
      }
      setup.curve.q_min = std::min(q.a, q.b);
      setup.curve.q_max = std::max(q.a, q.b);
      setup.curve.options.tolerance = args.tolerance;
      setup.curve.options.initial_step = args.step;
      setup.curve.options.max_step = args.max_step;
      setup.curve.options.max_points = args.points;
      const double q0 = guess[setup.curve.second];
      if (!(q0 >= setup.curve.q_min && q0 <= setup.curve.q_max)) {
        throw Error("--curve: " + q.name + " = " + number(q0) + " (the file's value) is outside " +
                    args.curve);
      }
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
  ModeId mode = lm.start.mode;
  try {
    if (args.period > 0.0) {
      // Algebraic states (DAE modes): the map acts on the differential states, z made
      // consistent at each start from the model's guess (return_map.hpp).
      setup.map = analysis::stroboscopic_map(sys, mode, m.t_start, args.period, m.options,
                                             saltation, lm.start.z0);
      setup.family =
          analysis::stroboscopic_family(sys, args.period, m.options, saltation, lm.start.z0);
    } else {
      // A guess off the section: its first crossing (in whichever mode) is the start.
      setup.start = analysis::start_on_section(sys, mode, m.t_start, guess, lm.start.z0, section,
                                               horizon, m.options);
      if (setup.start.moved || !setup.start.ok) {
        j["start"] = {{"moved", setup.start.moved}, {"message", setup.start.message}};
        std::cout << "start      " << setup.start.message << "\n";
      }
      double min_time = args.min_time;
      if (setup.start.ok && min_time == 0.0) {
        // Stated, never guessed: half-way between leaving the section and the first return.
        const analysis::SectionReturn back =
            analysis::first_return(sys, setup.start.mode, setup.start.t, setup.start.x,
                                   setup.start.z, section, horizon, m.options);
        if (back.ok) {
          min_time = back.min_time;
          j["min_time"] = {{"value", min_time},
                           {"from", "the start's first return"},
                           {"t_start", setup.start.t},
                           {"t_leave", back.t_leave},
                           {"t_return", back.t_return}};
          std::cout << "min-time   " << number(min_time) << " (half-way between leaving the "
                    << "section at t = " << number(back.t_leave)
                    << " and returning at t = " << number(back.t_return)
                    << "; --min-time sets it)\n";
        } else {
          setup.start.ok = false;
          setup.start.message = "--min-time from the start's first return: " + back.message;
        }
      } else if (setup.start.ok) {
        j["min_time"] = {{"value", min_time}, {"from", "--min-time"}};
      }
      if (setup.start.ok) {
        mode = setup.start.mode;
        guess = setup.start.x;
        setup.map = analysis::section_map(sys, mode, setup.start.t, section, min_time, horizon,
                                          m.options, saltation, setup.start.z);
      }
    }
  } catch (const Error& e) {
    std::cerr << args.model << ": error: " << e.what() << "\n";
    return 1;
  }
  if (!runtime_parameter.empty()) {
    const Eigen::Index n = guess.size();
    guess.conservativeResize(n + 1);
    guess[n] = r.a;
    c.parameter = static_cast<int>(n);
    setup.names.push_back(runtime_parameter);
    const auto set = [&m, runtime_parameter](double v) {
      model::set_runtime_parameter(m, runtime_parameter, v);
    };
    setup.map = analysis::parameter_return_map(setup.map, set);
    if (setup.family) {
      // The family's maps on (x, NAME), as setup.map; a transit keeps NAME (its last row e_n).
      analysis::StroboscopicFamily& f = *setup.family;
      f.map_at = [at = f.map_at, set](double t0, ModeId md) {
        return analysis::parameter_return_map(at(t0, md), set);
      };
      f.transit = [along = f.transit, set](const Vector& x, double t0, double t1, ModeId md) {
        return analysis::parameter_return_map([&](const Vector& y) { return along(y, t0, t1, md); },
                                              set)(x);
      };
    }
  }
  const std::vector<std::string>& names = setup.names;
  const analysis::ReturnMap& map = setup.map;
  j["mode"] = sys.mode(mode).name;
  if (!derivative.empty()) j["parameter_derivative"] = derivative;
  std::string cyclic_problem;
  if (!setup.start.ok && args.period <= 0.0) {
    j["status"] =
        to_string(setup.start.terminal_guard.empty() ? analysis::ShootingStatus::MapFailed
                                                     : analysis::ShootingStatus::TerminalEvent);
    j["message"] = setup.start.message;
    std::cout << "orbit      " << j["status"].get<std::string>() << ": " << setup.start.message
              << "\n";
    status = 2;
  } else if (args.continuation.empty()) {
    const analysis::PeriodicOrbit orbit = analysis::find_fixed_point(map, guess, shooting);
    nlohmann::ordered_json constant = nlohmann::ordered_json::array();
    for (const int k : orbit.constant_states) constant.push_back(names[static_cast<size_t>(k)]);
    j["constant_states"] = constant;
    j["status"] = to_string(orbit.status);
    j["message"] = orbit.message;
    j["residual"] = orbit.residual;
    j["iterations"] = orbit.iterations;
    j["line_search_halvings"] = orbit.line_search_halvings;
    j["state"] = state_json(names, orbit.x);
    if (orbit.converged()) {
      j["return_time"] = orbit.period;
      j["resets_per_period"] = orbit.events_per_period;
      if (args.period <= 0.0) j["section_crossings_before_return"] = orbit.section_crossings;
      j["multipliers"] = multipliers_json(orbit.multipliers);
      j["stable"] = orbit.multipliers.size() == 0 || std::abs(orbit.multipliers[0]) < 1.0;
      j["monodromy"] = run::matrix_rows_json(orbit.monodromy);
      j["min_crossing_rate"] = orbit.min_crossing_rate;
      j["closest_approach"] = orbit.closest_approach;
      if (!orbit.corner.empty()) {
        // On a corner of the map: each side's multipliers with its sequence (issue 46).
        nlohmann::ordered_json sides = nlohmann::ordered_json::array();
        for (const analysis::CornerMultipliers& side : orbit.corner_sides) {
          sides.push_back({{"sequence", side.sequence},
                           {"multipliers", multipliers_json(side.multipliers)},
                           {"monodromy", run::matrix_rows_json(side.monodromy)}});
        }
        j["corner"] = {{"message", orbit.corner}, {"sides", sides}};
      }
      cyclic_problem = cyclic_report(names, shooting, orbit, j);
    }
    std::cout << "orbit      " << to_string(orbit.status) << ": " << orbit.message << "\n";
    if (orbit.converged()) {
      // The period and what it covers, stated: a return map of several crossings is no first
      // return (issue 46: a walker's two-step map solved with a --min-time beyond one step).
      std::cout << "period     " << number(orbit.period) << ", " << orbit.events_per_period
                << " reset" << (orbit.events_per_period == 1 ? "" : "s");
      if (args.period <= 0.0) {
        std::cout << ", " << orbit.section_crossings + 1 << " crossing"
                  << (orbit.section_crossings == 0 ? "" : "s") << " of the section";
        if (orbit.section_crossings > 0) {
          std::cout << ": the orbit returns to the section " << orbit.section_crossings + 1
                    << " times per period (a fixed point of the " << orbit.section_crossings + 1
                    << "-fold return; a smaller --min-time, or none, gives the first return)";
        }
      }
      std::cout << "\n";
      std::cout << "multipliers";
      for (Eigen::Index k = 0; k < orbit.multipliers.size(); ++k) {
        std::cout << " " << orbit.multipliers[k];
      }
      std::cout << "\n";
      for (const analysis::CornerMultipliers& side : orbit.corner_sides) {
        std::cout << "corner     " << side.sequence << ": multipliers";
        for (Eigen::Index k = 0; k < side.multipliers.size(); ++k) {
          std::cout << " " << side.multipliers[k];
        }
        std::cout << "\n";
      }
    }
    status = orbit.converged() ? 0 : 2;
  } else {
    // Cyclic states are held at the guess's values along the branch (analysis/cyclic_held_map).
    const analysis::ReturnMap held =
        shooting.cyclic.empty() ? map : analysis::cyclic_held_map(map, shooting.cyclic, guess);
    if (!shooting.cyclic.empty()) {
      cyclic_problem = held_cyclic_report(names, shooting, map, guess, j);
    }
    // A stroboscopic map is re-timed along the branch when a reset nears its instant (a fold
    // where the orbit's impact sits at t_start); maps with cyclic states are not.
    analysis::Branch b;
    if (cyclic_problem.empty()) {
      b = setup.family && shooting.cyclic.empty()
              ? analysis::continue_stroboscopic_orbit(*setup.family, m.t_start, mode, guess, c)
              : analysis::continue_orbit(held, guess, c);
    }
    const bool partial = b.status == analysis::BranchStatus::CorrectorFailed;
    j["status"] = to_string(b.status);
    j["parameter"] = names[static_cast<size_t>(c.parameter)];
    j["points"] = b.points.size();
    j["partial"] = partial;
    j["stop_reason"] = b.stop_reason;
    j["message"] = b.stop_reason;
    j["rephasings"] = b.rephasings;
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
      j["state"] = state_json(names, b.points[0].x);
      j["multipliers"] = multipliers_json(b.points[0].multipliers);
    }
    if (b.rephasings > 0) {
      std::cout << "instant    moved " << b.rephasings << " time" << (b.rephasings > 1 ? "s" : "")
                << " along the orbit, away from its resets (branch.csv: t_state, the instant "
                << "of each point's state)\n";
    }
    std::cout << "branch     " << b.points.size() << (partial ? " points (partial); " : " points; ")
              << b.stop_reason << "\n";
    // A partial branch keeps its points (orbit.json: status "corrector failed", partial, failure).
    files.emplace_back("branch.csv", branch_csv(names, b));
    files.emplace_back("bifurcations.csv", bifurcations_csv(names, b));
    status = b.status == analysis::BranchStatus::Continued ? 0 : 2;
    if (b.ok && !args.curve.empty()) {
      bool complete = true;
      j["curve_parameters"] = {names[static_cast<size_t>(setup.curve.first)],
                               names[static_cast<size_t>(setup.curve.second)]};
      j["curves"] = follow_curves(
          names, b, held, shooting.cyclic.empty() && setup.family ? &*setup.family : nullptr,
          setup.curve, files, complete);
      if (!complete && status == 0) {
        j["message"] = "a bifurcation curve was not started or is partial (orbit.json: curves)";
        status = 2;
      }
    }
    if (b.ok && args.switch_at_pd) {
      j["period_2"] = switch_at_doubling(
          names, held, shooting.cyclic.empty() && setup.family ? &*setup.family : nullptr, b, c,
          files);
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
            << (j.contains("curves") ? ", curves.csv" : "")
            << (args.switch_at_pd && j.contains("period_2") && j["period_2"].contains("points")
                    ? ", period2.csv"
                    : "")
            << "\n";
  if (!cyclic_problem.empty()) {
    std::cerr << args.model << ": error: --cyclic: " << cyclic_problem << "\n";
    return 1;
  }
  if (status != 0) {
    const std::string what = j.contains("period_2")      ? ""
                             : j.value("partial", false) ? "continuation failed: "
                                                         : "no periodic orbit: ";
    std::cerr << args.model << ": error: " << what << j["message"].get<std::string>() << "\n";
    return status;
  }
  if (args.plot) {
    std::vector<std::string> options;
    if (!args.show.empty()) options = {"--show", args.show};
    return run_plot_script("SALTUS_ORBIT_PLOT_SCRIPT", SALTUS_DEFAULT_ORBIT_PLOT_SCRIPT,
                           args.out_dir, options);
  }
  return 0;
}

}  // namespace saltus::cli
