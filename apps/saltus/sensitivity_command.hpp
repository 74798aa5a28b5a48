// `saltus sensitivity`: runs a model and writes the Jacobian of its hybrid flow map with every
// event's saltation matrix (run/model_sensitivity.hpp does the work; this parses and prints).
//   0  the run and its derivative are defined; 1  model problems (nothing run); 2  the run failed
//   or is not differentiable (grazing, Zeno point, a reset without derivative): the files are
//   written, sensitivity.json says why and has no matrix; 3  output could not be written
#pragma once

#include <string>
#include <vector>

namespace saltus::cli {

struct SensitivityArguments {
  std::string model;
  std::string out_dir = "sensitivity";
  std::vector<std::string> set;
  double t_end = 0.0;
  bool has_t_end = false;
  bool numerical_resets = false;
  std::vector<std::string> parameters;  // --parameters: d x(t_end) / d p for these
};

int sensitivity_command(const SensitivityArguments& args);

}  // namespace saltus::cli
