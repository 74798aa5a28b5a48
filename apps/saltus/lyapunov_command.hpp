// `saltus lyapunov`: the Lyapunov spectrum of a model's run (analysis/lyapunov.hpp does the
// work; this parses, prints the exponents and writes lyapunov.json).
//   0  the exponents are defined; 1  model problems or bad options (nothing run); 2  the run
//   ended without exponents (a Zeno point, a grazing impact, simultaneous resets, a failed run):
//   lyapunov.json says which event and why and has no exponents; 3  output could not be written
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace saltus::cli {

struct LyapunovArguments {
  std::string model;
  std::string out_dir = "lyapunov";
  std::vector<std::string> set;
  double t_end = 0.0;
  bool has_t_end = false;
  double window = 0.0;
  bool has_window = false;  // without --window: (t_end - t_start) / 1000
  double transient = 0.0;
  int max_events = 8;
  bool numerical_resets = false;
};

// Adds `lyapunov` with its options (bound to `args`) to the command line of `app`.
CLI::App* add_lyapunov_subcommand(CLI::App& app, LyapunovArguments& args);
int lyapunov_command(const LyapunovArguments& args);

}  // namespace saltus::cli
