// The subcommands of `saltus`: each returns the process exit status.
//   0  success
//   1  the model file (or an override) has problems; every problem is printed; nothing is run
//   2  the run failed (non-finite value, Newton failure, ...); the output folder holds the run up
//      to the failure, its summary.json says why
//   3  output could not be written (the output folder is left as it was) or plotted
#pragma once

#include <string>
#include <vector>

namespace saltus::cli {

struct RunArguments {
  std::string model;
  std::string out_dir = "out";
  std::vector<std::string> set;
  double t_end = 0.0;
  bool has_t_end = false;
  bool plot = false;
  bool animate = false;
  std::string phase;  // "x,y": the phase portrait's variables ("" = the default)
};

struct AnimateArguments {
  std::string dir;
  int frames = 200;
  int fps = 25;
};

int run_command(const RunArguments& args);
int check_command(const std::vector<std::string>& models, const std::vector<std::string>& set);
// `phase`: "x,y" for the phase portrait, "" for the default (q against q' for a mechanical
// model, else the first two states).
int plot_command(const std::string& dir, const std::string& phase = "");
int animate_command(const AnimateArguments& args);

}  // namespace saltus::cli
