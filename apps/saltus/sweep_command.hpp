// `saltus sweep`: runs a model over a grid or a random set of parameter values
// (run/sweep.hpp does the work; this parses the options, shows progress and prints).
//   0  every point succeeded; 1  bad input (nothing run); 2  some points failed (their rows in
//   sweep.csv say why); 3  output could not be written or plotted
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace saltus::cli {

struct SweepArguments {
  std::string model;
  std::vector<std::string> vary;  // NAME=LO:HI:N
  std::vector<std::string> set;
  std::vector<std::string> collect;
  bool grid = false;
  bool random = false;  // --random N given
  long random_count = 0;
  std::uint64_t seed = 0;
  std::string out_dir = "sweep";
  int threads = 0;  // 0: every core
  bool plot = true;
};

int sweep_command(const SweepArguments& args);

}  // namespace saltus::cli
