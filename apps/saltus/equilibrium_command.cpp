#include "equilibrium_command.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis_setup.hpp"
#include "python_script.hpp"
#include "saltus/analysis/equilibrium_branch.hpp"
#include "saltus/core/error.hpp"
#include "saltus/model/model_section.hpp"
#include "saltus/run/number_text.hpp"
#include "saltus/run/output_folder.hpp"

namespace saltus::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string digits(double v) {
  return std::isfinite(v) ? run::number_text(v, 12) : std::string(std::isnan(v) ? "nan" : "inf");
}

// Every mode of the system, a sliding mode with its surface (model.modes and the system's modes
// share their indices for a model with [modes]; a mechanical model has no sliding modes).
std::vector<analysis::EquilibriumMode> equilibrium_modes(const model::Model& m,
                                                         const HybridSystem& system) {
  std::vector<analysis::EquilibriumMode> out;
  for (ModeId id = 0; id < system.mode_count(); ++id) {
    analysis::EquilibriumMode e;
    e.mode = id;
    if (static_cast<size_t>(id) < m.modes.size() && m.modes[static_cast<size_t>(id)].sliding) {
      const auto& s = *m.modes[static_cast<size_t>(id)].sliding;
      e.surface = analysis::EquilibriumMode::Surface{
          model::expression_observer(m, s.h, "surface of " + system.mode(id).name), s.plus,
          s.minus};
    }
    out.push_back(std::move(e));
  }
  return out;
}

Json equilibrium_json(const model::Model& m, const HybridSystem& system,
                      const analysis::Equilibrium& e) {
  Json j;
  j["mode"] = system.mode(e.mode).name;
  j["pseudo"] = e.pseudo;
  Json x = Json::object();
  for (size_t i = 0; i < m.states.size(); ++i) x[m.states[i].name] = e.x(static_cast<int>(i));
  j["x"] = x;
  Json ev = Json::array();
  for (Eigen::Index i = 0; i < e.eigenvalues.size(); ++i) {
    ev.push_back({e.eigenvalues(i).real(), e.eigenvalues(i).imag()});
  }
  j["eigenvalues"] = ev;
  j["stable"] = e.stable;
  j["admissible"] = e.admissible;
  Json guards = Json::array();
  for (const analysis::GuardSide& g : e.guards) {
    guards.push_back({{"guard", g.name}, {"inside", g.inside}, {"on_surface", g.on_surface}});
  }
  j["guards"] = guards;
  if (e.pseudo) {
    j["dh_f_plus"] = e.a;
    j["dh_f_minus"] = e.b;
    j["weight"] = e.weight;
    j["attracting"] = e.attracting;
  }
  j["residual"] = e.residual;
  return j;
}

std::string describe(const analysis::Equilibrium& e) {
  std::ostringstream s;
  s << (e.pseudo ? "pseudo-equilibrium, " : "") << (e.admissible ? "admissible" : "virtual") << ", "
    << (e.stable ? "stable" : "unstable");
  if (e.pseudo) s << (e.attracting ? " (surface attracting)" : " (surface repelling)");
  s << "   x = ";
  for (Eigen::Index i = 0; i < e.x.size(); ++i) s << (i ? ", " : "") << digits(e.x(i));
  s << "   eigenvalues ";
  for (Eigen::Index i = 0; i < e.eigenvalues.size(); ++i) {
    const auto l = e.eigenvalues(i);
    s << (i ? ", " : "") << digits(l.real());
    if (l.imag() != 0.0) s << (l.imag() > 0 ? "+" : "-") << digits(std::abs(l.imag())) << "i";
  }
  return s.str();
}

Json event_json(const model::Model& m, const HybridSystem& system,
                const analysis::EquilibriumEvent& ev) {
  Json j;
  j["kind"] = analysis::to_string(ev.kind);
  j["parameter"] = ev.parameter;
  j["after_point"] = ev.after_point;
  j["located"] = ev.located;
  j["equilibrium"] = equilibrium_json(m, system, ev.at);
  if (ev.kind == analysis::EquilibriumEventKind::Hopf) j["frequency"] = ev.frequency;
  if (ev.kind == analysis::EquilibriumEventKind::Boundary) {
    j["guards"] = ev.guards;
    j["boundary_kind"] = analysis::to_string(ev.boundary.kind);
    Json meeting = Json::array();
    for (const analysis::BoundaryMeeting& b : ev.boundary.meeting) {
      meeting.push_back({{"mode", system.mode(b.mode).name},
                         {"pseudo", b.pseudo},
                         {"side", b.side},
                         {"stable", b.stable}});
    }
    j["meeting"] = meeting;
    j["message"] = ev.boundary.message;
  }
  return j;
}

std::string branches_csv(const model::Model& m, const HybridSystem& system,
                         const std::vector<analysis::EquilibriumBranch>& branches) {
  std::ostringstream s;
  s << "branch,mode,point";
  for (const model::Quantity& q : m.states) s << "," << q.name;
  s << ",admissible,stable,max_real_eigenvalue\n";
  s.precision(17);
  for (size_t b = 0; b < branches.size(); ++b) {
    for (size_t k = 0; k < branches[b].points.size(); ++k) {
      const analysis::Equilibrium& e = branches[b].points[k];
      s << b << ",\"" << system.mode(e.mode).name << "\"," << k;
      for (Eigen::Index i = 0; i < e.x.size(); ++i) s << "," << e.x(i);
      s << "," << (e.admissible ? 1 : 0) << "," << (e.stable ? 1 : 0) << ","
        << (e.eigenvalues.size() ? e.eigenvalues(0).real() : kNaN) << "\n";
    }
  }
  return s.str();
}

}  // namespace

CLI::App* add_equilibrium_subcommand(CLI::App& app, EquilibriumArguments& args) {
  CLI::App* cmd = app.add_subcommand(
      "equilibrium",
      "Equilibria of a model's modes (pseudo-equilibria on sliding surfaces) and, with "
      "--continue, their branches with folds, Hopf and boundary-equilibrium bifurcations");
  cmd->add_option("model", args.model, "Model file (TOML)")->required();
  cmd->add_option("--out,-o", args.out_dir, "Output folder")->capture_default_str();
  cmd->add_option("--set,-s", args.set,
                  "Override: name=value (repeatable); the guess is the "
                  "model's initial state");
  cmd->add_option("--mode", args.modes, "Only this mode (repeatable; default: every mode)");
  cmd->add_option("--continue", args.continuation,
                  "NAME=A:B: continue each equilibrium found at NAME = A to B");
  cmd->add_flag("--plot,!--no-plot", args.plot,
                "With --continue, branches.png (matplotlib) is drawn unless --no-plot");
  cmd->add_option("--show", args.show, "The state --plot draws (default: the first that moves)");
  cmd->add_option("--max-step", args.max_step,
                  "Largest continuation step (scaled arclength: 1 is the parameter's range)")
      ->capture_default_str();
  cmd->footer(
      "Examples:\n"
      "  saltus equilibrium models/filippov_boundary_equilibrium.toml --continue mu=0:0.5\n"
      "Writes DIR/equilibria.json (each equilibrium: mode, state, eigenvalues, stability,\n"
      "admissibility per guard; with --continue the branches and their bifurcations) and\n"
      "DIR/branches.csv (docs/ANALYSIS.md \"saltus equilibrium\"), and with --continue\n"
      "DIR/branches.png unless --no-plot.\n"
      "Exit status: 0 ok, 1 bad model or options, 2 none found or a branch stopped short,\n"
      "3 output error.");
  return cmd;
}

int equilibrium_command(const EquilibriumArguments& args) {
  const auto refuse = [&](const std::string& why) {
    std::cerr << args.model << ": error: " << why << "\n"
              << args.model << ": nothing was solved; " << args.out_dir << " was left as it was\n";
    return 1;
  };
  Range range;
  bool continuing = !args.continuation.empty();
  LoadedModel lm;
  try {
    if (continuing) range = parse_range(args.continuation, false);
  } catch (const Error& e) {
    return refuse("--continue: " + std::string(e.what()));
  }
  if (!load_for_analysis(args.model, args.set, lm)) return 1;
  if (continuing && is_parameter(*lm.run.model, range.name)) {
    if (lm.run.model->modes.empty()) {
      return refuse("--continue " + range.name +
                    ": equilibrium continuation needs a model with [modes] (its parameter loaded "
                    "as a state of rate 0)");
    }
    if (!load_for_analysis(args.model, args.set, lm, {}, {range.name})) return 1;
  }
  const model::Model& m = *lm.run.model;
  const HybridSystem& system = lm.run.system;
  analysis::EquilibriumOptions options;
  options.t = m.t_start;
  options.time_span = m.t_end > m.t_start ? m.t_end - m.t_start : 1.0;
  options.held = m.parameter_states;
  options.held.insert(options.held.end(), m.discrete_states.begin(), m.discrete_states.end());
  const Eigen::Index nx = lm.start.x0.size();
  options.floor.resize(nx);
  for (Eigen::Index i = 0; i < nx; ++i) {
    const auto& st = m.options.stepper;
    options.floor(i) =
        1e-3 * (st.atol_per_component.size() > i ? st.atol_per_component(i) : st.atol);
  }
  Vector guess = lm.start.x0;
  analysis::EquilibriumBranchOptions branch;
  std::vector<ModeId> selected;
  std::vector<analysis::EquilibriumMode> modes;
  try {
    if (continuing) {
      branch.parameter = model::parameter_state_index(m, range.name);
      if (std::find(options.held.begin(), options.held.end(), branch.parameter) ==
          options.held.end()) {
        options.held.push_back(branch.parameter);
      }
      if (!(range.a != range.b)) throw Error("--continue: A and B must differ");
      if (!(args.max_step > 0.0)) throw Error("--max-step must be positive");
      branch.from = range.a;
      branch.to = range.b;
      branch.max_step = args.max_step;
      branch.initial_step = std::min(branch.initial_step, args.max_step);
      guess(branch.parameter) = range.a;
    }
    for (const std::string& name : args.modes) selected.push_back(system.mode_id(name));
    if (selected.empty()) {
      for (ModeId id = 0; id < system.mode_count(); ++id) selected.push_back(id);
    }
    modes = equilibrium_modes(m, system);
  } catch (const Error& e) {
    return refuse(e.what());
  }

  Json j;
  j["model"] = m.name;
  j["states"] = Json::array();
  for (const model::Quantity& q : m.states) j["states"].push_back(q.name);
  j["t"] = options.t;
  Json found = Json::array(), missing = Json::array(), branches_json = Json::array();
  std::vector<analysis::EquilibriumBranch> branches;
  bool short_branch = false;
  for (ModeId id : selected) {
    const Mode& mode = system.mode(id);
    if (mode.flow.kind != FlowKind::Ode || mode.flow.nz > 0) {
      missing.push_back({{"mode", mode.name},
                         {"message",
                          "a mode with algebraic states: equilibria are solved for "
                          "explicit flows only"}});
      continue;
    }
    const analysis::Equilibrium e =
        analysis::find_equilibrium(system, modes[static_cast<size_t>(id)], guess, options);
    if (!e.found) {
      missing.push_back({{"mode", mode.name}, {"message", e.message}});
      continue;
    }
    std::cout << "equilibrium  '" << mode.name << "': " << describe(e) << "\n";
    found.push_back(equilibrium_json(m, system, e));
    if (!continuing) continue;
    analysis::EquilibriumBranch b;
    try {
      b = analysis::continue_equilibrium(system, modes[static_cast<size_t>(id)], modes, e, options,
                                         branch);
    } catch (const Error& error) {  // the flow failed at the start's tangent
      b.mode = id;
      b.points = {e};
      b.message = std::string("the flow failed: ") + error.what();
    }
    std::cout << "branch       '" << mode.name << "': " << b.points.size() << " points, "
              << range.name << " = " << digits(range.a) << " .. "
              << digits(b.points.back().x(branch.parameter)) << " (" << b.message << ")\n";
    short_branch = short_branch || !b.reached_end;
    Json bj;
    bj["mode"] = mode.name;
    bj["points"] = b.points.size();
    bj["reached_end"] = b.reached_end;
    bj["message"] = b.message;
    Json events = Json::array();
    for (const analysis::EquilibriumEvent& ev : b.events) {
      std::cout << std::string(analysis::to_string(ev.kind)) +
                       std::string(13 - std::string(analysis::to_string(ev.kind)).size(), ' ')
                << "'" << mode.name << "': " << range.name << " = " << digits(ev.parameter);
      if (ev.kind == analysis::EquilibriumEventKind::Hopf) {
        std::cout << ", frequency " << digits(ev.frequency);
      }
      if (ev.kind == analysis::EquilibriumEventKind::Boundary) {
        std::cout << ", guard " << ev.guards.front() << ": " << ev.boundary.message;
      }
      if (!ev.located) std::cout << " (not located: the sign change lies in this step)";
      std::cout << "\n";
      events.push_back(event_json(m, system, ev));
    }
    bj["bifurcations"] = events;
    branches_json.push_back(bj);
    branches.push_back(std::move(b));
  }
  for (const Json& miss : missing) {
    std::cout << "none         '" << miss["mode"].get<std::string>()
              << "': " << miss["message"].get<std::string>() << "\n";
  }
  j["equilibria"] = found;
  j["not_found"] = missing;
  if (continuing) {
    j["parameter"] = {{"name", range.name}, {"from", range.a}, {"to", range.b}};
    j["branches"] = branches_json;
  }
  std::vector<run::OutputFile> files = {{"equilibria.json", j.dump(2) + "\n"}};
  if (continuing) files.push_back({"branches.csv", branches_csv(m, system, branches)});
  try {
    run::replace_output_folder(args.out_dir, files);
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 3;
  }
  std::cout << "wrote        " << (std::filesystem::path(args.out_dir) / "equilibria.json").string()
            << "\n";
  if (found.empty()) {
    std::cerr << args.model << ": error: no equilibrium found from the initial state\n";
    return 2;
  }
  if (short_branch) {
    std::cerr << args.model << ": error: a branch stopped before " << range.name << " = "
              << digits(range.b) << "\n";
    return 2;
  }
  if (args.plot && continuing) {
    std::vector<std::string> options;
    if (!args.show.empty()) options = {"--show", args.show};
    return run_plot_script("SALTUS_EQUILIBRIUM_PLOT_SCRIPT", SALTUS_DEFAULT_EQUILIBRIUM_PLOT_SCRIPT,
                           args.out_dir, options);
  }
  return 0;
}

}  // namespace saltus::cli
