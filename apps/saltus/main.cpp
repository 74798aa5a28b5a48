// saltus: run, check and plot hybrid-system model files (docs/MODEL_FORMAT.md).
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "sweep_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"saltus: simulate hybrid dynamical systems described in TOML model files"};
  app.require_subcommand(1);
  app.footer(
      "Examples:\n"
      "  saltus run models/bouncing_ball.toml --out out --plot\n"
      "  saltus check models/*.toml\n"
      "  saltus plot out\n"
      "  saltus sweep models/bouncing_ball.toml --vary e=0.05:0.95:100 --collect zeno_time\n"
      "Run `saltus <command> --help` for the options of each command.");

  saltus::cli::RunArguments run;
  CLI::App* run_cmd = app.add_subcommand("run",
                                         "Simulate a model; print a summary; write "
                                         "trajectory.csv, events.csv and summary.json");
  run_cmd->add_option("model", run.model, "Model file (TOML)")->required();
  run_cmd->add_option("--out,-o", run.out_dir, "Output folder (created, or replaced as a whole)")
      ->capture_default_str();
  run_cmd->add_option("--set,-s", run.set,
                      "Override a parameter, initial state or solver setting: name=value "
                      "(repeatable; e.g. e=0.5, x=2, rtol=1e-8, solver.integrator=radau5)");
  run_cmd->add_option("--t-end", run.t_end, "End time (overrides [solver] t_end)");
  run_cmd->add_flag("--plot", run.plot, "Also write PNG plots into the output folder");
  run_cmd->add_option("--phase", run.phase, "Phase-portrait variables of --plot: X,Y");
  run_cmd->footer(
      "Examples:\n"
      "  saltus run models/bouncing_ball.toml\n"
      "  saltus run models/bouncing_ball.toml --out out/ball --set e=0.5 --t-end 3 --plot\n"
      "  saltus run models/dae_mode_switch.toml --set solver.integrator=radau5\n"
      "The output folder is replaced as a whole (it must hold only files saltus writes).\n"
      "Exit status: 0 ok, 1 model problems (nothing run), 2 failed run (files written up to the\n"
      "failure, status and message in summary.json), 3 output error (folder left as it was).");

  std::vector<std::string> check_models, check_set;
  CLI::App* check_cmd =
      app.add_subcommand("check", "Validate model files and report every problem found");
  check_cmd->add_option("models", check_models, "Model files (TOML)")->required();
  check_cmd->add_option("--set,-s", check_set, "Overrides to check with (name=value)");
  check_cmd->footer(
      "Examples:\n"
      "  saltus check models/bouncing_ball.toml\n"
      "  saltus check models/*.toml\n"
      "Each problem is printed as file:line:column: error: what is wrong / what was expected.");

  std::string plot_dir, plot_phase;
  CLI::App* plot_cmd = app.add_subcommand(
      "plot", "Plot a run's output folder (states vs time, phase portrait, hybrid time domain)");
  plot_cmd->add_option("dir", plot_dir, "Output folder of `saltus run`")->required();
  plot_cmd->add_option("--phase", plot_phase,
                       "Phase-portrait variables X,Y (default: q,q' of a mechanical model, "
                       "else the first two states)");
  plot_cmd->footer(
      "Examples:\n"
      "  saltus plot out\n"
      "  saltus plot out/rod --phase theta,theta'\n"
      "Writes DIR/states.png, DIR/phase.png, DIR/hybrid_time.png and, when the run has contact\n"
      "forces or impulses, DIR/forces.png (needs python3-matplotlib).");

  saltus::cli::SweepArguments sweep;
  CLI::App* sweep_cmd = app.add_subcommand(
      "sweep", "Run a model over a grid or random set of parameter values; write sweep.csv");
  sweep_cmd->add_option("model", sweep.model, "Model file (TOML)")->required();
  sweep_cmd->add_option("--vary", sweep.vary, "NAME=LO:HI:N: N values of a parameter or state")
      ->required();
  sweep_cmd
      ->add_option("--collect", sweep.collect,
                   "Quantities per point, comma-separated: zeno_time, zeno_events, "
                   "events.count, t_final, final.<state>")
      ->delimiter(',')
      ->required();
  sweep_cmd->add_flag("--grid", sweep.grid, "Every combination of the --vary values (default)");
  CLI::Option* random_opt = sweep_cmd->add_option("--random", sweep.random_count,
                                                  "N points drawn uniformly in the --vary ranges");
  sweep_cmd->add_option("--seed", sweep.seed, "Seed of --random")->needs(random_opt);
  random_opt->excludes("--grid");
  sweep_cmd->add_option("--set,-s", sweep.set, "Override for every point: name=value");
  sweep_cmd->add_option("--out,-o", sweep.out_dir, "Output folder (created, or replaced)")
      ->capture_default_str();
  sweep_cmd->add_option("--threads,-j", sweep.threads, "Threads (default: every core)");
  sweep_cmd->add_flag("!--no-plot", sweep.plot, "Do not write sweep_<quantity>.png");
  sweep_cmd->footer(
      "Examples:\n"
      "  saltus sweep models/bouncing_ball.toml --vary e=0.05:0.95:100 --collect zeno_time\n"
      "  saltus sweep models/bouncing_ball.toml --vary e=0.1:0.9:5 --vary h0=0.5:2:4 \\\n"
      "      --collect zeno_time,events.count --out out/sweep\n"
      "  saltus sweep models/bouncing_ball.toml --vary e=0.1:0.9:1 --random 200 --seed 3 \\\n"
      "      --collect zeno_time\n"
      "Exit status: 0 every point ok, 1 bad input (nothing run), 2 some points failed (their\n"
      "rows in sweep.csv give the status), 3 output error.");

  CLI11_PARSE(app, argc, argv);
  sweep.random = random_opt->count() > 0;
  if (*sweep_cmd) return saltus::cli::sweep_command(sweep);
  run.has_t_end = run_cmd->count("--t-end") > 0;
  if (*run_cmd) return saltus::cli::run_command(run);
  if (*check_cmd) return saltus::cli::check_command(check_models, check_set);
  if (*plot_cmd) return saltus::cli::plot_command(plot_dir, plot_phase);
  return 1;
}
