// The subcommands of `saltus`: each returns the process exit status.
//   0  success
//   1  the model file (or an override) has problems; every problem is printed; nothing is run
//   2  the run failed (non-finite value, Newton failure, ...); the output folder holds the run up
//      to the failure, its summary.json says why
//   3  output could not be written (the output folder is left as it was) or plotted
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "saltus/model/model.hpp"
#include "saltus/model/model_loader.hpp"

namespace saltus::cli {

struct RunArguments {
  std::string model;
  std::string out_dir = "out";
  std::vector<std::string> set;
  double t_end = 0.0;
  bool has_t_end = false;
  bool plot = false;
  bool animate = false;
  bool strict = false;  // a degraded run (Moreau-Jean stretches) exits 4
  std::string phase;    // "x,y": the phase portrait's variables ("" = the default)
};

struct AnimateArguments {
  std::string dir;
  int frames = 200;
  int fps = 25;
};

// `set` plus solver.t_end=T (17 digits) when --t-end was given.
std::vector<std::string> overrides_with_t_end(std::vector<std::string> set, bool has_t_end,
                                              double t_end);
// The model file loaded with `overrides`, or nullptr after printing every problem and
// "nothing was run" (exit status 1).
std::shared_ptr<const model::Model> load_model_for_command(
    const std::string& path, const std::vector<std::string>& overrides,
    const model::LoadOptions& options = {});

int run_command(const RunArguments& args);
int check_command(const std::vector<std::string>& models, const std::vector<std::string>& set);
// `phase`: "x,y" for the phase portrait, "" for the default (q against q' for a mechanical
// model, else the first two states).
int plot_command(const std::string& dir, const std::string& phase = "");
int animate_command(const AnimateArguments& args);

}  // namespace saltus::cli
