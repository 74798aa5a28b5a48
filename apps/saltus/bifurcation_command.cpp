#include "bifurcation_command.hpp"

#include <cmath>
#include <filesystem>
#include <functional>
#include <iostream>
#include <sstream>

#include "analysis_setup.hpp"
#include "python_script.hpp"
#include "saltus/analysis/bifurcation_diagram.hpp"
#include "saltus/analysis/poincare_section.hpp"
#include "saltus/core/error.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/model/model_section.hpp"
#include "saltus/model/runtime_parameters.hpp"
#include "saltus/run/output_folder.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::cli {
namespace {

using Runner = std::function<SimulationResult(ModeId, double, const Vector&, double,
                                              const SimulationOptions&)>;

// How each value runs: a Lagrangian model goes on through Painleve situations, impacts without a
// rigid answer and unrecognised accumulations as `saltus run` does (Moreau-Jean stretches,
// bridge/bridged_run.hpp) unless its painleve policy is "stop"; `stretches` (when given) gets each
// run's number of stretches and of free motions taken at Painleve situations. Other models run
// the engine alone.
Runner value_runner(const HybridSystem& sys, const LoadedModel& lm,
                    std::vector<std::pair<long, long>>* stretches) {
  if (!model::runs_bridged(lm.run, lm.start)) {
    return [&sys, stretches](ModeId mode, double t0, const Vector& x0, double t_end,
                             const SimulationOptions& o) {
      if (stretches) stretches->emplace_back(0, 0);
      return simulate(sys, mode, t0, x0, t_end, o);
    };
  }
  return [&sys, &lm, stretches](ModeId mode, double t0, const Vector& x0, double t_end,
                                const SimulationOptions& o) {
    SimulationResult r;
    bridge::BridgeLog done;
    bridge::run_bridged(sys, lm.run.lagrangian->model(), lm.start.mode_at, o,
                        model::bridge_options(lm.run), mode, t0, x0, t_end, r, done);
    if (stretches)
      stretches->emplace_back(static_cast<long>(done.stretches.size()), done.lift_offs);
    return r;
  };
}

// The time between the first two crossings of the section (observer `name` of any mode) from the
// model's start at the first value, within the model's span; NaN when it is crossed fewer times.
double first_return_time(const HybridSystem& sys, const Runner& run, ModeId mode, double t0,
                         const Vector& x0, double span, const std::string& name,
                         const SimulationOptions& options) {
  std::vector<double> times;
  SimulationOptions o = options;
  o.output = OutputOptions{};
  o.output.record_events = false;
  o.on_event = [&](const EventInfo& e) {
    if (!e.observation || e.guard < 0 || e.t == t0) return CallbackResult::Continue;
    if (sys.mode(e.mode_before).guards[static_cast<size_t>(e.guard)].name != name) {
      return CallbackResult::Continue;
    }
    times.push_back(e.t);
    return times.size() >= 2 ? CallbackResult::Stop : CallbackResult::Continue;
  };
  run(mode, t0, x0, t0 + span, o);
  return times.size() >= 2 ? times[1] - times[0] : kNaN;
}

}  // namespace

int bifurcation_command(const BifurcationArguments& args) {
  Range range;
  try {
    range = parse_range(args.vary, true);
  } catch (const Error& e) {
    std::cerr << args.model << ": error: " << e.what() << "\n";
    return 1;
  }
  LoadedModel lm;
  if (!load_for_analysis(args.model, args.set, lm)) return 1;
  // A parameter of the file is kept at run time: one load, a write per value.
  const bool runtime = is_parameter(*lm.run.model, range.name);
  if (runtime && !load_for_analysis(args.model, args.set, lm, {range.name})) return 1;
  const model::Model& m = *lm.run.model;
  HybridSystem sys = lm.run.system;
  analysis::DiagramOptions d;
  GuardId section = 0;
  std::string varied = range.name;
  try {
    if (runtime) {
      d.set_parameter = [&m, varied](double v) { model::set_runtime_parameter(m, varied, v); };
    } else {
      d.parameter = model::parameter_state_index(m, range.name);
    }
    for (long k = 0; k < range.n; ++k) {
      d.values.push_back(range.n == 1 ? range.a
                                      : range.a + (range.b - range.a) * static_cast<double>(k) /
                                                      static_cast<double>(range.n - 1));
    }
    if (runtime) {
      // Every value up front: one the model cannot take (a contact's e beyond 1) is refused
      // here, naming it, not in the middle of the diagram.
      const double loaded = m.parameter_value(model::runtime_parameter_index(m, varied));
      for (const double v : d.values) {
        try {
          d.set_parameter(v);
        } catch (const Error& e) {
          std::ostringstream os;
          os << "--vary " << varied << " = " << v << ": " << e.what();
          throw Error(os.str());
        }
      }
      d.set_parameter(loaded);
    }
    if (args.discard < 0 || args.keep < 1) throw Error("--discard must be >= 0 and --keep >= 1");
    if (!args.show.empty()) model::parameter_state_index(m, args.show);  // a state, or why not
    Guard g;
    if (args.period > 0.0) {
      g = analysis::stroboscopic_section("section", args.period, m.t_start);
    } else if (!args.section.empty()) {
      g = model::section_guard(m, args.section);
    } else {
      throw Error("give --period T (stroboscopic section) or --section EXPR[,+|-]");
    }
    // In every mode: a mechanical model changes mode at each contact event.
    for (ModeId k = 0; k < sys.mode_count(); ++k) {
      const GuardId id = sys.add_guard(k, g);
      if (k == lm.start.mode) section = id;
    }
  } catch (const Error& e) {
    std::cerr << args.model << ": error: " << e.what() << "\n";
    return 1;
  }
  d.follow = !args.restart;
  if (lm.start.mode_at) d.start_mode = [&lm, &m] { return lm.start.mode_now(m.t_start); };
  d.discard = args.discard;
  d.keep = args.keep;
  d.t0 = m.t_start;
  // Time restarts at t_start for every followed value: the stroboscopic section's crossings are
  // at t_start + k T, and a Poincare section is for autonomous systems.
  d.time_period = 0.0;
  d.simulation = m.options;
  std::vector<std::pair<long, long>> stretches;  // per value: stretches, lift-offs
  d.run = value_runner(sys, lm, &stretches);
  // The default horizon: enough returns for --discard and --keep (and 10 more), twice over for
  // a section's return time, which changes with the parameter (measured at the first value).
  const double returns = static_cast<double>(args.discard + args.keep + 10);
  if (args.horizon > 0.0) {
    d.horizon = args.horizon;
  } else if (args.period > 0.0) {
    d.horizon = returns * args.period;
  } else {
    Vector x0 = lm.start.x0;
    if (d.set_parameter) {
      d.set_parameter(d.values[0]);
    } else {
      x0[d.parameter] = d.values[0];
    }
    const std::string& name = sys.mode(lm.start.mode).guards[static_cast<size_t>(section)].name;
    const double tau = first_return_time(sys, value_runner(sys, lm, nullptr), lm.start.mode,
                                         m.t_start, x0, m.t_end - m.t_start, name, m.options);
    if (std::isfinite(tau) && tau > 0.0) {
      d.horizon = 2.0 * returns * tau;
      std::cout << "horizon    " << d.horizon << " per value (2 x " << returns
                << " x the return time " << tau << " at " << varied << " = " << d.values[0]
                << ")\n";
    } else {
      d.horizon = m.t_end - m.t_start;
      std::cout << "horizon    " << d.horizon << " per value (the model's span: the section was "
                << "crossed fewer than twice in it at " << varied << " = " << d.values[0] << ")\n";
    }
  }
  const std::vector<analysis::DiagramColumn> columns =
      analysis::bifurcation_diagram(sys, lm.start.mode, section, lm.start.x0, d);
  std::ostringstream csv;
  csv.precision(17);
  csv << "parameter,point";
  for (const auto& s : m.states) csv << "," << s.name;
  csv << ",mode,status,bridge_stretches,painleve_lift_offs,run\n";
  long short_columns = 0, bridged_columns = 0, stretch_count = 0, lift_off_count = 0;
  for (size_t c = 0; c < columns.size(); ++c) {
    const analysis::DiagramColumn& col = columns[c];
    const auto [bridged, lift_offs] = c < stretches.size() ? stretches[c] : std::pair{0L, 0L};
    bridged_columns += bridged + lift_offs > 0;
    stretch_count += bridged;
    lift_off_count += lift_offs;
    for (Eigen::Index k = 0; k < col.points.rows(); ++k) {
      csv << col.parameter << "," << k;
      for (Eigen::Index i = 0; i < col.points.cols(); ++i) csv << "," << col.points(k, i);
      csv << "," << sys.mode(col.modes[static_cast<size_t>(k)]).name << ",ok," << bridged << ","
          << lift_offs << "," << to_string(col.termination) << "\n";
    }
    if (col.points.rows() < d.keep) {
      ++short_columns;
      std::string why = col.message;
      for (char& ch : why) {
        if (ch == ',' || ch == '\n') ch = ';';
      }
      csv << col.parameter << ",-1";
      for (size_t i = 0; i < m.states.size(); ++i) csv << ",nan";
      csv << ",," << why << "," << bridged << "," << lift_offs << "," << to_string(col.termination)
          << "\n";
      std::cerr << varied << " = " << col.parameter << ": " << col.message << "\n";
    }
  }
  try {
    run::replace_output_folder(args.out_dir, {{"bifurcation.csv", csv.str()}});
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 3;
  }
  std::cout << "diagram    " << columns.size() << " values, " << columns.size() - short_columns
            << " with " << d.keep << " section points\n";
  if (bridged_columns > 0) {
    std::cout << "painleve   " << bridged_columns << " values went on through " << lift_off_count
              << " lift-offs (the free motion among several) and " << stretch_count
              << " Moreau-Jean stretches (painleve_lift_offs, bridge_stretches in the csv)\n";
  }
  std::cout << "wrote      " << (std::filesystem::path(args.out_dir) / "bifurcation.csv").string()
            << "\n";
  if (args.plot) {
    std::vector<std::string> options = {"--varied", varied};
    if (!args.show.empty()) options.insert(options.end(), {"--show", args.show});
    const int plotted =
        run_plot_script("SALTUS_BIFURCATION_PLOT_SCRIPT", SALTUS_DEFAULT_BIFURCATION_PLOT_SCRIPT,
                        args.out_dir, options);
    if (plotted != 0) return plotted;
  }
  return short_columns > 0 ? 2 : 0;
}

}  // namespace saltus::cli
