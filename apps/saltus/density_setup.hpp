// What `saltus density` integrates, from a built-in billiard (--system, systems/
// billiard_catalogue.hpp) or from a model file with [mechanics] constraints (MODEL): the compiled
// system with energy and constraints kept by projection, the starts, the grid and the energy.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "density_command.hpp"
#include "saltus/analysis/invariant_density.hpp"
#include "saltus/core/hybrid_system.hpp"

namespace saltus::cli {

struct DensitySetup {
  std::string label;                                       // the system's name or the model file
  std::vector<std::pair<std::string, double>> parameters;  // every parameter with its value
  HybridSystem system;
  ModeId mode = 0;
  std::vector<Vector> starts;
  std::function<double(ConstVectorRef x)> energy;  // kinetic energy of a state (q, qdot)
  bool elastic = true;                             // every wall has e = 1: the energy must be kept
  analysis::DensityAxis x_axis, y_axis;
  std::function<Eigen::Vector2d(ConstVectorRef x)> observable;
};

// Throws saltus::Error naming the system, model, parameter, coordinate or range at fault.
DensitySetup builtin_density_setup(const DensityArguments& args);
DensitySetup model_density_setup(const DensityArguments& args);

}  // namespace saltus::cli
