// `saltus equilibrium`: the equilibria of a model's modes (pseudo-equilibria on the sliding
// modes of flows written with sign()), each with its eigenvalues, stability and admissibility,
// and with --continue their branches in a parameter with folds, Hopf points and
// boundary-equilibrium bifurcations (analysis/equilibrium_branch.hpp does the work; this parses,
// prints and writes equilibria.json and, continuing, branches.csv).
//   0  at least one equilibrium was found (and, continuing, every branch was continued)
//   1  model problems or bad options (nothing solved)
//   2  no equilibrium found from the start, or a branch stopped before the range's end:
//      equilibria.json says which and why
//   3  output could not be written
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace saltus::cli {

struct EquilibriumArguments {
  std::string model;
  std::string out_dir = "equilibria";
  std::vector<std::string> set;
  std::vector<std::string> modes;  // empty: every mode
  std::string continuation;        // NAME=A:B
  double max_step = 5e-2;          // scaled arclength (a twentieth of the range)
  bool plot = true;                // with --continue: branches.png unless --no-plot
  std::string show;                // --show: the state plotted (default: the first that moves)
};

CLI::App* add_equilibrium_subcommand(CLI::App& app, EquilibriumArguments& args);
int equilibrium_command(const EquilibriumArguments& args);

}  // namespace saltus::cli
