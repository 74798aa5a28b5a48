// `saltus density`: the statistical density of a billiard's time-1 maps (Clark & Bloch eq. (27),
// Fig. 7 and 8; analysis/invariant_density.hpp does the work). The billiard is a model file with
// [mechanics] constraints (MODEL; --range required) or a built-in one (--system,
// systems/billiard_catalogue.hpp); density_setup.hpp builds either.
//   0  every trajectory ran all its maps; 1  bad input (nothing run); 2  a trajectory stopped
//   early (its maps so far are binned; summary.json says why); 3  output not written or plotted
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace saltus::cli {

struct DensityArguments {
  std::string model;             // a model file, or
  std::string system;            // a built-in billiard's name
  std::vector<std::string> set;  // name=value (the model's overrides or the billiard's parameters)
  std::vector<double> range;     // XLO XHI YLO YHI (empty: the built-in table's extent)
  long maps = 1000000;           // binned maps, all trajectories together
  long discard = 1000;           // maps not binned at the start of every trajectory
  std::vector<int> grid = {100, 100};
  std::vector<std::string> vars = {"x", "y"};
  int trajectories = 8;  // independent trajectories (the maps are split among them)
  int threads = 0;       // 0: every core
  std::uint64_t seed = 1;
  double rtol = 1e-9;  // DOP853, with energy and constraints kept by projection
  std::string out_dir = "density";
  bool plot = true;
};

int density_command(const DensityArguments& args);

}  // namespace saltus::cli
