// saltus: run, check and plot hybrid-system model files (docs/MODEL_FORMAT.md).
#include <CLI/CLI.hpp>

#include "bifurcation_command.hpp"
#include "commands.hpp"
#include "orbit_command.hpp"
#include "sensitivity_command.hpp"
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

  std::string plot_dir;
  CLI::App* plot_cmd = app.add_subcommand(
      "plot", "Plot a run's output folder (states vs time, phase portrait, hybrid time domain)");
  plot_cmd->add_option("dir", plot_dir, "Output folder of `saltus run`")->required();
  plot_cmd->footer(
      "Examples:\n"
      "  saltus plot out\n"
      "Writes DIR/states.png, DIR/phase.png and DIR/hybrid_time.png (needs python3-matplotlib).");

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

  saltus::cli::SensitivityArguments sens;
  CLI::App* sens_cmd = app.add_subcommand(
      "sensitivity",
      "Run a model and write the Jacobian of its hybrid flow map x(t_start) -> x(t_end) with every "
      "event's saltation matrix and hybrid Jacobian det S (sensitivity.json)");
  sens_cmd->add_option("model", sens.model, "Model file (TOML)")->required();
  sens_cmd->add_option("--out,-o", sens.out_dir, "Output folder (created, or replaced as a whole)")
      ->capture_default_str();
  sens_cmd->add_option("--set,-s", sens.set, "Override: name=value (repeatable)");
  sens_cmd->add_option("--t-end", sens.t_end, "End time (overrides [solver] t_end)");
  sens_cmd->add_flag("--numerical-resets", sens.numerical_resets,
                     "Allow central differences for resets without an exact derivative (impact "
                     "laws of [mechanics] models); flagged per event in sensitivity.json");
  sens_cmd->footer(
      "Examples:\n"
      "  saltus sensitivity models/bouncing_ball.toml --out out/ball --t-end 1.5\n"
      "  saltus sensitivity models/filippov_crossing.toml --out out/filippov\n"
      "Writes DIR/sensitivity.json (key flow_map_jacobian; docs/ANALYSIS.md) beside\n"
      "trajectory.csv, events.csv and summary.json.\n"
      "Exit status: 0 ok, 1 model problems, 2 failed run or no derivative (grazing, Zeno point,\n"
      "a reset without derivative: sensitivity.json says which event and why), 3 output error.");

  saltus::cli::OrbitArguments orbit;
  CLI::App* orbit_cmd = app.add_subcommand(
      "orbit",
      "Find a periodic orbit (Newton shooting on a stroboscopic or Poincare map) with its Floquet "
      "multipliers; optionally continue it in a parameter with fold, period-doubling and grazing "
      "detection (orbit.json, branch.csv, floquet.png, branch.png)");
  orbit_cmd->add_option("model", orbit.model, "Model file (TOML); its initial state is the guess")
      ->required();
  orbit_cmd->add_option("--out,-o", orbit.out_dir, "Output folder")->capture_default_str();
  orbit_cmd->add_option("--set,-s", orbit.set, "Override: name=value (repeatable)");
  orbit_cmd->add_option("--period", orbit.period,
                        "Forcing period T: fixed point of the time-T map from t_start");
  orbit_cmd->add_option("--section", orbit.section,
                        "Poincare section EXPR or LHS=RHS, then ,+ (rising, default) or ,- "
                        "(falling), e.g. \"v=0,+\" (autonomous systems)");
  orbit_cmd->add_option("--min-time", orbit.min_time,
                        "Section: time before the section counts again (> 0: leave it first)");
  orbit_cmd->add_option("--horizon", orbit.horizon,
                        "Section: longest return time (default: the model's t_end - t_start)");
  orbit_cmd->add_option("--continue", orbit.continuation,
                        "NAME=A:B: continue the orbit from NAME = A towards B (NAME: a state with "
                        "rate 0, e.g. sigma of models/impact_oscillator.toml)");
  orbit_cmd->add_option("--points", orbit.points, "Continuation: most branch points")
      ->capture_default_str();
  orbit_cmd->add_option("--step", orbit.step, "Continuation: first arclength step")
      ->capture_default_str();
  orbit_cmd->add_option("--max-step", orbit.max_step, "Continuation: largest arclength step")
      ->capture_default_str();
  orbit_cmd->add_flag("--numerical-resets", orbit.numerical_resets,
                      "Allow central differences for resets without an exact derivative");
  orbit_cmd->add_flag("!--no-plot", orbit.plot, "Do not write floquet.png and branch.png");
  orbit_cmd->footer(
      "Examples:\n"
      "  saltus orbit models/impact_oscillator.toml --period 2.5132741228718345 --out out/orbit\n"
      "  saltus orbit models/impact_oscillator.toml --period 2.5132741228718345 \\\n"
      "      --continue sigma=0:0.3 --out out/branch\n"
      "Exit status: 0 ok, 1 bad model or options, 2 no orbit (orbit.json: status, residual),\n"
      "3 output error. docs/ANALYSIS.md describes the files.");

  saltus::cli::BifurcationArguments bif;
  CLI::App* bif_cmd = app.add_subcommand(
      "bifurcation",
      "Brute-force bifurcation diagram: for each parameter value discard K section crossings and "
      "record M (bifurcation.csv, bifurcation.png)");
  bif_cmd->add_option("model", bif.model, "Model file (TOML)")->required();
  bif_cmd->add_option("--vary", bif.vary, "NAME=A:B:N: N values of a state with rate 0")
      ->required();
  bif_cmd->add_option("--period", bif.period, "Stroboscopic section: every T from t_start");
  bif_cmd->add_option("--section", bif.section, "Poincare section EXPR[,+|-] (as for orbit)");
  bif_cmd->add_option("--discard", bif.discard, "Crossings discarded per value (transients)")
      ->capture_default_str();
  bif_cmd->add_option("--keep", bif.keep, "Crossings recorded per value")->capture_default_str();
  bif_cmd->add_option("--horizon", bif.horizon, "Longest run per value (time)");
  bif_cmd->add_option("--set,-s", bif.set, "Override: name=value (repeatable)");
  bif_cmd->add_option("--out,-o", bif.out_dir, "Output folder")->capture_default_str();
  bif_cmd->add_flag("!--no-plot", bif.plot, "Do not write bifurcation.png");
  bif_cmd->footer(
      "Examples:\n"
      "  saltus bifurcation models/impact_oscillator.toml --vary sigma=0:0.15:200 \\\n"
      "      --period 2.5132741228718345 --discard 200 --keep 32 --out out/diagram\n"
      "Each value starts from the previous value's last state (the attractor is followed).\n"
      "Exit status: 0 ok, 1 bad input, 2 some values gave fewer points (why: stderr and the\n"
      "status column), 3 output error.");

  CLI11_PARSE(app, argc, argv);
  if (*orbit_cmd) return saltus::cli::orbit_command(orbit);
  if (*bif_cmd) return saltus::cli::bifurcation_command(bif);
  sens.has_t_end = sens_cmd->count("--t-end") > 0;
  if (*sens_cmd) return saltus::cli::sensitivity_command(sens);
  sweep.random = random_opt->count() > 0;
  if (*sweep_cmd) return saltus::cli::sweep_command(sweep);
  run.has_t_end = run_cmd->count("--t-end") > 0;
  if (*run_cmd) return saltus::cli::run_command(run);
  if (*check_cmd) return saltus::cli::check_command(check_models, check_set);
  if (*plot_cmd) return saltus::cli::plot_command(plot_dir);
  return 1;
}
