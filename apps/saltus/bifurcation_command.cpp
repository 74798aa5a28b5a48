#include "bifurcation_command.hpp"

#include <filesystem>
#include <iostream>
#include <sstream>

#include "analysis_setup.hpp"
#include "python_script.hpp"
#include "saltus/analysis/bifurcation_diagram.hpp"
#include "saltus/analysis/poincare_section.hpp"
#include "saltus/core/error.hpp"
#include "saltus/model/model_section.hpp"
#include "saltus/model/runtime_parameters.hpp"
#include "saltus/run/output_folder.hpp"

namespace saltus::cli {

namespace {

bool is_parameter(const model::Model& m, const std::string& name) {
  for (const model::Quantity& p : m.parameters) {
    if (p.name == name) return true;
  }
  return false;
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
  d.discard = args.discard;
  d.keep = args.keep;
  d.horizon = args.horizon > 0.0  ? args.horizon
              : args.period > 0.0 ? static_cast<double>(args.discard + args.keep + 10) * args.period
                                  : m.t_end - m.t_start;
  d.simulation = m.options;
  const std::vector<analysis::DiagramColumn> columns =
      analysis::bifurcation_diagram(sys, lm.start.mode, section, lm.start.x0, d);
  std::ostringstream csv;
  csv.precision(17);
  csv << "parameter,point";
  for (const auto& s : m.states) csv << "," << s.name;
  csv << ",status\n";
  long short_columns = 0;
  for (const analysis::DiagramColumn& col : columns) {
    for (Eigen::Index k = 0; k < col.points.rows(); ++k) {
      csv << col.parameter << "," << k;
      for (Eigen::Index i = 0; i < col.points.cols(); ++i) csv << "," << col.points(k, i);
      csv << ",ok\n";
    }
    if (col.points.rows() < d.keep) {
      ++short_columns;
      std::string why = col.message;
      for (char& ch : why) {
        if (ch == ',' || ch == '\n') ch = ';';
      }
      csv << col.parameter << ",-1";
      for (size_t i = 0; i < m.states.size(); ++i) csv << ",nan";
      csv << "," << why << "\n";
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
            << " with " << d.keep << " section points\n"
            << "wrote      " << (std::filesystem::path(args.out_dir) / "bifurcation.csv").string()
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
