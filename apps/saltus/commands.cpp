#include "commands.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <iostream>
#include <memory>
#include <sstream>

#include "progress_indicator.hpp"
#include "python_script.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/run_outputs.hpp"

namespace saltus::cli {

std::vector<std::string> overrides_with_t_end(std::vector<std::string> set, bool has_t_end,
                                              double t_end) {
  if (has_t_end) {
    std::ostringstream s;
    s.precision(17);
    s << t_end;
    set.push_back("solver.t_end=" + s.str());
  }
  return set;
}

std::shared_ptr<const model::Model> load_model_for_command(
    const std::string& path, const std::vector<std::string>& overrides,
    const model::LoadOptions& options) {
  try {
    return std::make_shared<const model::Model>(model::load_model_file(path, overrides, options));
  } catch (const model::ModelError& e) {
    std::cerr << e.what() << "\n"
              << path << ": " << e.diagnostics().size() << " problem(s); nothing was run\n";
    return nullptr;
  }
}

namespace {}  // namespace

int run_command(const RunArguments& args) {
  const std::shared_ptr<const model::Model> m = load_model_for_command(
      args.model, overrides_with_t_end(args.set, args.has_t_end, args.t_end));
  if (!m) return 1;
  model::ModelRun run;
  try {
    ProgressIndicator progress("simulating " + (m->name.empty() ? args.model : m->name));
    std::atomic<double> t_reached{m->t_start};
    auto future =
        std::async(std::launch::async, [m, &t_reached] { return model::run_model(m, &t_reached); });
    const double span = m->t_end - m->t_start;
    while (future.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
      progress.tick(span > 0.0 ? (t_reached.load() - m->t_start) / span : 0.0);
    }
    progress.finish();
    run = future.get();
  } catch (const Error& e) {
    // Building the system or the simulator refused the model: a configuration problem.
    std::cerr << args.model << ": error: " << e.what() << "\n"
              << args.model << ": nothing was run; " << args.out_dir << " was left as it was\n";
    return 1;
  }
  std::cout << run::run_report(run);
  // A failed run's files are written too: they show the run up to its failure.
  try {
    run::write_run_outputs(run, args.out_dir);
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 3;
  }
  const std::filesystem::path out(args.out_dir);
  std::cout << "wrote      " << (out / "trajectory.csv").string() << ", "
            << (out / "events.csv").string() << ", " << (out / "summary.json").string() << "\n";
  if (!run.succeeded()) {
    std::cerr << args.model << ": error: the run failed (" << run.status() << "): " << run.message()
              << "\n"
              << args.model << ": the files in " << args.out_dir
              << " cover the run up to the failure\n";
    return 2;
  }
  if (args.plot) {
    if (const int plotted = plot_command(args.out_dir, args.phase); plotted != 0) return plotted;
  }
  if (args.animate) {
    if (const int animated = animate_command({args.out_dir}); animated != 0) return animated;
  }
  if (args.strict && run.degraded()) {
    std::cerr << args.model << ": --strict: the run was stepped at first order for "
              << run.stepped_time() << " " << m->time_unit << " ("
              << run.bridge_log.stretches.size()
              << " Moreau-Jean stretches; summary.json degraded_intervals)\n";
    return 4;
  }
  return 0;
}

int check_command(const std::vector<std::string>& models, const std::vector<std::string>& set) {
  int status = 0;
  for (const std::string& path : models) {
    const auto problems = model::check_model_file(path, set);
    if (problems.empty()) {
      std::cout << path << ": ok\n";
      continue;
    }
    std::cerr << model::format_diagnostics(problems) << "\n"
              << path << ": " << problems.size() << " problem(s)\n";
    status = 1;
  }
  return status;
}

int plot_command(const std::string& dir, const std::string& phase) {
  if (!std::filesystem::exists(std::filesystem::path(dir) / "trajectory.csv")) {
    std::cerr << "error: " << dir << " holds no trajectory.csv; expected the --out folder of "
              << "`saltus run`\n";
    return 3;
  }
  std::vector<std::string> extra;
  if (!phase.empty()) extra = {"--phase", phase};
  return run_plot_script("SALTUS_PLOT_SCRIPT", SALTUS_DEFAULT_PLOT_SCRIPT, dir, extra);
}

int animate_command(const AnimateArguments& args) {
  const std::filesystem::path dir(args.dir);
  if (!std::filesystem::exists(dir / "trajectory.csv")) {
    std::cerr << "error: " << args.dir << " holds no trajectory.csv; expected the --out folder of "
              << "`saltus run`\n";
    return 3;
  }
  const std::vector<std::string> options = {"--frames", std::to_string(args.frames), "--fps",
                                            std::to_string(args.fps)};
  if (std::filesystem::exists(dir / "drawing.json")) {
    return run_plot_script("SALTUS_ANIMATE_SCRIPT", SALTUS_DEFAULT_ANIMATE_SCRIPT, args.dir,
                           options);
  }
  // A model with [[bodies]] and no [drawing]: its bodies in 3-D.
  if (std::filesystem::exists(dir / "bodies.json")) {
    return run_plot_script("SALTUS_ANIMATE_BODIES_SCRIPT", SALTUS_DEFAULT_ANIMATE_BODIES_SCRIPT,
                           args.dir, options);
  }
  std::cerr << "error: " << args.dir << " holds no drawing.json nor bodies.json: its model has "
            << "no [drawing] section (docs/MODEL_FORMAT.md \"Drawing\") and no [[bodies]]; "
            << "nothing to animate\n";
  return 3;
}

}  // namespace saltus::cli
