// The `saltus` command line: every subcommand's options (CLI11) and the dispatch to it. main()
// and the Python package (saltus._core.command, docs/PYTHON.md) both run it, so a command run
// from Python takes the same options and writes the same files as the command.
#include "command_line.hpp"

#include <CLI/CLI.hpp>

#include "bifurcation_command.hpp"
#include "commands.hpp"
#include "density_command.hpp"
#include "equilibrium_command.hpp"
#include "lyapunov_command.hpp"
#include "orbit_command.hpp"
#include "sensitivity_command.hpp"
#include "sweep_command.hpp"

namespace saltus::cli {

int run_command_line(const std::vector<std::string>& args) {
  std::vector<const char*> argv = {"saltus"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  return run_command_line(static_cast<int>(argv.size()), argv.data());
}

int run_command_line(int argc, const char* const* argv) {
  CLI::App app{"saltus: simulate hybrid dynamical systems described in TOML model files"};
  app.require_subcommand(1);
  app.footer(
      "Examples:\n"
      "  saltus run models/bouncing_ball.toml --out out --plot\n"
      "  saltus check models/*.toml\n"
      "  saltus plot out\n"
      "  saltus run models/bouncing_rod.toml --out out/rod --animate\n"
      "  saltus sweep models/bouncing_ball.toml --vary e=0.05:0.95:100 --collect zeno_time\n"
      "  saltus density --system sleigh --maps 100000 --out out/sleigh\n"
      "  saltus density models/chaplygin_sleigh.toml --range -2 2 -1 1 --out out/sleigh\n"
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
  run_cmd->add_flag("--animate", run.animate,
                    "Also write animation.gif from the model's [drawing] (see `animate`)");
  run_cmd->add_option("--phase", run.phase, "Phase-portrait variables of --plot: X,Y");
  run_cmd->add_flag("--strict", run.strict,
                    "Exit 4 when part of the run was stepped at first order (Moreau-Jean "
                    "stretches of the Painleve bridge) instead of integrated event-driven");
  run_cmd->footer(
      "Examples:\n"
      "  saltus run models/bouncing_ball.toml\n"
      "  saltus run models/bouncing_ball.toml --out out/ball --set e=0.5 --t-end 3 --plot\n"
      "  saltus run models/dae_mode_switch.toml --set solver.integrator=radau5\n"
      "The output folder is replaced as a whole (it must hold only files saltus writes).\n"
      "Exit status: 0 ok, 1 model problems (nothing run), 2 failed run (files written up to the\n"
      "failure, status and message in summary.json), 3 output error (folder left as it was),\n"
      "4 with --strict: the run was degraded (stepped at first order somewhere; files written).");

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

  saltus::cli::AnimateArguments animate;
  CLI::App* animate_cmd = app.add_subcommand(
      "animate", "Animate a run of a model with a [drawing] section: DIR/animation.gif");
  animate_cmd->add_option("dir", animate.dir, "Output folder of `saltus run`")->required();
  animate_cmd->add_option("--frames", animate.frames, "Most frames (samples are thinned to it)")
      ->capture_default_str()
      ->check(CLI::Range(2, 5000));
  animate_cmd->add_option("--fps", animate.fps, "Frames per second of the GIF")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  animate_cmd->footer(
      "Examples:\n"
      "  saltus run models/bouncing_rod.toml --out out/rod && saltus animate out/rod\n"
      "Draws the shapes of drawing.csv / drawing.json (written by `run` for a model with a\n"
      "[drawing] section, docs/MODEL_FORMAT.md) frame by frame, marks the point shapes named by\n"
      "each event's guard, and writes DIR/animation.gif (needs python3-matplotlib, python3-pil).");

  saltus::cli::SweepArguments sweep;
  CLI::App* sweep_cmd = app.add_subcommand(
      "sweep", "Run a model over a grid or random set of parameter values; write sweep.csv");
  sweep_cmd->add_option("model", sweep.model, "Model file (TOML)")->required();
  sweep_cmd->add_option("--vary", sweep.vary, "NAME=LO:HI:N: N values of a parameter or state")
      ->required();
  sweep_cmd
      ->add_option("--collect", sweep.collect,
                   "Quantities per point, comma-separated: zeno_time, zeno_events, "
                   "events.count, t_final, final.<state>, final.<output> (an [outputs] entry)")
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

  saltus::run::DensityArguments density;
  CLI::App* density_cmd = app.add_subcommand(
      "density",
      "Histogram of a billiard's time-1 maps (Clark & Bloch Fig. 7, 8); write density.csv");
  density_cmd->add_option("model", density.model,
                          "Model file with [mechanics] constraints (e.g. "
                          "models/chaplygin_sleigh.toml; needs --range)");
  density_cmd->add_option("--system", density.system,
                          "Or a built-in billiard in an ellipse: sleigh, ball or disk");
  density_cmd
      ->add_option("--set,-s", density.set,
                   "name=value, repeatable or comma-separated: the model's overrides, or the "
                   "built-in's parameters (A, B, e, T; sleigh m, I, a, L; ball k2, r; disk m, R, "
                   "I, J)")
      ->delimiter(',');
  density_cmd
      ->add_option("--range", density.range,
                   "Grid extent XLO XHI YLO YHI (default for --system: the table)")
      ->expected(4);
  density_cmd->add_option("--maps", density.maps, "Binned time-1 maps, all trajectories together")
      ->capture_default_str();
  density_cmd
      ->add_option("--discard", density.discard, "Maps not binned at each trajectory's start")
      ->capture_default_str();
  density_cmd->add_option("--grid", density.grid, "Boxes NX NY")
      ->expected(2)
      ->capture_default_str();
  density_cmd->add_option("--vars", density.vars, "Two coordinates X,Y (x, y, theta, ...)")
      ->delimiter(',')
      ->expected(2)
      ->capture_default_str();
  density_cmd
      ->add_option("--trajectories", density.trajectories,
                   "Independent trajectories (the result does not depend on --threads)")
      ->capture_default_str();
  density_cmd->add_option("--threads,-j", density.threads, "Threads (default: every core)");
  density_cmd->add_option("--seed", density.seed, "Seed of the initial states")
      ->capture_default_str();
  density_cmd->add_option("--rtol", density.rtol, "DOP853 relative tolerance")
      ->capture_default_str();
  density_cmd->add_option("--out,-o", density.out_dir, "Output folder (created, or replaced)")
      ->capture_default_str();
  density_cmd->add_flag("!--no-plot", density.plot, "Do not write density.png");
  density_cmd->footer(
      "Examples:\n"
      "  saltus density --system sleigh --maps 1000000 --discard 1000 --grid 100 100 --out fig7\n"
      "  saltus density --system disk --set B=1.2,R=0.3 --grid 200 200 --vars x,y --out fig8\n"
      "  saltus density models/chaplygin_sleigh.toml --range -2 2 -1 1 --out sleigh\n"
      "Initial states (--seed): --system: configuration uniform over the table, kinetic energy T;\n"
      "MODEL: the model's start, then its configuration with random admissible velocities of\n"
      "the same kinetic energy. Model states are binned as they are (angles not wrapped).\n"
      "Energy and constraints are kept by projection after every step (DOP853, --rtol). A\n"
      "MODEL's energy must be conserved: [mechanics] forces, or a kinetic_energy or\n"
      "potential_energy that reads t, are refused (exit 1). With a potential (or a term of T\n"
      "without velocities) nothing is projected: E = T + V is kept by DOP853 alone and its\n"
      "largest relative error (to the start's kinetic energy) is reported.\n"
      "Exit status: 0 ok, 1 bad input (nothing run), 2 a trajectory stopped early, 3 output "
      "error.");

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
  sens_cmd
      ->add_option("--parameters,-p", sens.parameters,
                   "Also d x(t_end) / d p for these parameters (comma-separated): "
                   "parameter_sensitivity in sensitivity.json (mechanical and Hamiltonian "
                   "models: d/dp by central differences of the model reloaded at p +- h)")
      ->delimiter(',');
  sens_cmd->footer(
      "Examples:\n"
      "  saltus sensitivity models/bouncing_ball.toml --out out/ball --t-end 1.5\n"
      "  saltus sensitivity models/jumping_ball.toml --parameters k --out out/dk\n"
      "  saltus sensitivity models/bouncing_rod.toml --parameters e,ell --numerical-resets\n"
      "      --t-end 0.5 --out out/rod_dp\n"
      "  saltus sensitivity models/filippov_crossing.toml --out out/filippov\n"
      "Writes DIR/sensitivity.json (key flow_map_jacobian; docs/ANALYSIS.md) beside\n"
      "trajectory.csv, events.csv and summary.json.\n"
      "Exit status: 0 ok, 1 model problems, 2 failed run or no derivative (grazing, Zeno point,\n"
      "a reset without derivative: sensitivity.json says which event and why), 3 output error.");

  saltus::cli::OrbitArguments orbit;
  CLI::App* orbit_cmd = app.add_subcommand(
      "orbit",
      "Find a periodic orbit (Newton shooting on a stroboscopic or Poincare map) with its Floquet "
      "multipliers; optionally continue it in a parameter with fold, period-doubling, "
      "Neimark-Sacker and grazing detection and switch to the period-2 branch at a period "
      "doubling (orbit.json, branch.csv, bifurcations.csv, period2.csv, floquet.png, branch.png)");
  orbit_cmd->add_option("model", orbit.model, "Model file (TOML); its initial state is the guess")
      ->required();
  orbit_cmd->add_option("--out,-o", orbit.out_dir, "Output folder")->capture_default_str();
  orbit_cmd->add_option("--set,-s", orbit.set, "Override: name=value (repeatable)");
  orbit_cmd->add_option("--period", orbit.period,
                        "Forcing period T: fixed point of the time-T map from t_start");
  orbit_cmd->add_option("--section", orbit.section,
                        "Poincare section: the NAME of one of the model's [[sections]], or EXPR or "
                        "LHS=RHS, then ,+ (rising, default) or ,- "
                        "(falling), e.g. \"v=0,+\" (autonomous systems)");
  orbit_cmd->add_option("--min-time", orbit.min_time,
                        "Section: time before the section counts again (> 0: leave it first; "
                        "default: half-way between leaving the section and the start's first "
                        "return)");
  orbit_cmd->add_option("--horizon", orbit.horizon,
                        "Section: longest return time (default: the model's t_end - t_start)");
  orbit_cmd->add_option("--continue", orbit.continuation,
                        "NAME=A:B: continue the orbit from NAME = A towards B (NAME: a parameter "
                        "of the file or a state with rate 0, e.g. sigma of "
                        "models/impact_oscillator.toml)");
  orbit_cmd->add_option("--curve", orbit.curve,
                        "NAME=C:D with --continue: each fold, period doubling and grazing of "
                        "the branch followed in the plane of the two parameters over NAME in "
                        "[C, D] (curves.csv, curves.png)");
  orbit_cmd->add_option("--points", orbit.points, "Continuation: most branch points")
      ->capture_default_str();
  orbit_cmd->add_option("--step", orbit.step, "Continuation: first arclength step")
      ->capture_default_str();
  orbit_cmd->add_option("--max-step", orbit.max_step, "Continuation: largest arclength step")
      ->capture_default_str();
  orbit_cmd->add_flag("--switch-at-pd", orbit.switch_at_pd,
                      "Continuation: at the first period doubling found, start the period-2 "
                      "branch (both points of the orbit; period2.csv) and continue it");
  orbit_cmd->add_flag("--numerical-resets", orbit.numerical_resets,
                      "Allow central differences for resets without an exact derivative");
  orbit_cmd
      ->add_option("--tol", orbit.tolerance,
                   "Newton: converged when max|P(x) - x| <= TOL (1 + max|x|)")
      ->capture_default_str();
  orbit_cmd->add_option("--max-iterations", orbit.max_iterations, "Newton: most iterations")
      ->capture_default_str();
  orbit_cmd->add_option("--cyclic", orbit.cyclic,
                        "States left out of the periodicity condition (orbits modulo their "
                        "translation, e.g. a walker's progress); their drift per period is "
                        "reported");
  orbit_cmd->add_option("--show", orbit.show,
                        "Continuation: the state branch.png draws (default: the first that "
                        "changes along the branch)");
  orbit_cmd->add_flag("!--no-plot", orbit.plot, "Do not write floquet.png and branch.png");
  orbit_cmd->footer(
      "Examples:\n"
      "  saltus orbit models/impact_oscillator.toml --period 2.5132741228718345 --out out/orbit\n"
      "  saltus orbit models/impact_oscillator.toml --period 2.5132741228718345 \\\n"
      "      --continue sigma=0:0.3 --out out/branch\n"
      "  saltus orbit models/impact_oscillator.toml --period 2.5132741228718345 \\\n"
      "      --continue sigma=0:0.12 --switch-at-pd --out out/period2\n"
      "  saltus orbit models/forced_damped_oscillator.toml --period 2.5132741228718345 \\\n"
      "      --continue c=0.4:-0.4 --out out/neimark_sacker\n"
      "  saltus orbit models/vibrating_table.toml --period 1 --continue A=0.5:0.05 \\\n"
      "      --curve e=0.3:0.9 --out out/table_curves\n"
      "  saltus orbit models/impact_oscillator_dae.toml --period 2.5132741228718345 --out out/dae\n"
      "Exit status: 0 ok, 1 bad model or options, 2 no orbit (orbit.json: status, residual),\n"
      "a continuation whose corrector failed before the end of NAME's range, max --points or a\n"
      "grazing (orbit.json: status \"corrector failed\", partial, failure; the points found are\n"
      "kept in branch.csv), or no period-2 branch for --switch-at-pd (orbit.json: period_2),\n"
      "3 output error.\n"
      "docs/ANALYSIS.md describes the files.");

  saltus::cli::BifurcationArguments bif;
  CLI::App* bif_cmd = app.add_subcommand(
      "bifurcation",
      "Brute-force bifurcation diagram: for each parameter value discard K section crossings and "
      "record M (bifurcation.csv, bifurcation.png)");
  bif_cmd->add_option("model", bif.model, "Model file (TOML)")->required();
  bif_cmd
      ->add_option("--vary", bif.vary,
                   "NAME=A:B:N: N values of a parameter (kept at run time) or a state with "
                   "rate 0")
      ->required();
  bif_cmd->add_option("--period", bif.period, "Stroboscopic section: every T from t_start");
  bif_cmd->add_option("--section", bif.section,
                      "Poincare section NAME or EXPR[,+|-] (as for orbit)");
  bif_cmd->add_option("--discard", bif.discard, "Crossings discarded per value (transients)")
      ->capture_default_str();
  bif_cmd->add_option("--keep", bif.keep, "Crossings recorded per value")->capture_default_str();
  bif_cmd->add_option("--horizon", bif.horizon,
                      "Longest run per value (time; default: (discard + keep + 10) periods, or "
                      "twice that many section returns as timed at the first value)");
  bif_cmd->add_option("--set,-s", bif.set, "Override: name=value (repeatable)");
  bif_cmd->add_option("--out,-o", bif.out_dir, "Output folder")->capture_default_str();
  bif_cmd->add_option("--show", bif.show, "State plotted against the parameter");
  bif_cmd->add_flag("--restart", bif.restart,
                    "Start every value from the model's initial state and time (needed when the "
                    "parameter enters with t, as the belt speed of models/frictional_bounce.toml)");
  bif_cmd->add_flag("!--no-plot", bif.plot, "Do not write bifurcation.png");
  bif_cmd->footer(
      "Examples:\n"
      "  saltus bifurcation models/impact_oscillator.toml --vary sigma=0:0.15:200 \\\n"
      "      --period 2.5132741228718345 --discard 200 --keep 32 --out out/diagram\n"
      "  saltus bifurcation models/frictional_bounce.toml --vary v_b=0.1:2:96 --restart \\\n"
      "      --section apex --discard 40 --keep 12 --show y --out out/fbm\n"
      "Each value starts at t_start from the mode and state of the previous value's last section\n"
      "crossing (the attractor is followed, time restarts) unless --restart; values ending in a\n"
      "failure (Painleve) restart from the last good start. bifurcation.csv has the mode of\n"
      "each point.\n"
      "Exit status: 0 ok, 1 bad input, 2 some values gave fewer points (why: stderr and the\n"
      "status column), 3 output error.");

  saltus::cli::LyapunovArguments lyap;
  CLI::App* lyap_cmd = saltus::cli::add_lyapunov_subcommand(app, lyap);

  saltus::cli::EquilibriumArguments equilibrium;
  CLI::App* equilibrium_cmd = saltus::cli::add_equilibrium_subcommand(app, equilibrium);

  CLI11_PARSE(app, argc, argv);
  if (*equilibrium_cmd) return saltus::cli::equilibrium_command(equilibrium);
  if (*density_cmd) return saltus::cli::density_command(density);
  if (*orbit_cmd) return saltus::cli::orbit_command(orbit);
  if (*bif_cmd) return saltus::cli::bifurcation_command(bif);
  if (*lyap_cmd) return saltus::cli::lyapunov_command(lyap);
  sens.has_t_end = sens_cmd->count("--t-end") > 0;
  if (*sens_cmd) return saltus::cli::sensitivity_command(sens);
  sweep.random = random_opt->count() > 0;
  if (*sweep_cmd) return saltus::cli::sweep_command(sweep);
  run.has_t_end = run_cmd->count("--t-end") > 0;
  if (*run_cmd) return saltus::cli::run_command(run);
  if (*check_cmd) return saltus::cli::check_command(check_models, check_set);
  if (*plot_cmd) return saltus::cli::plot_command(plot_dir, plot_phase);
  if (*animate_cmd) return saltus::cli::animate_command(animate);
  return 1;
}

}  // namespace saltus::cli
