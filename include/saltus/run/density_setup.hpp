// What `saltus density` integrates, from a built-in billiard (--system, systems/
// billiard_catalogue.hpp) or from a model file with [mechanics] constraints (MODEL): the compiled
// system with energy and constraints kept by projection, the starts, the grid and the energy.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "saltus/analysis/invariant_density.hpp"
#include "saltus/core/hybrid_system.hpp"

namespace saltus::run {

// What `saltus density` was asked for (docs/ANALYSIS.md).
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

struct DensitySetup {
  std::string label;                                       // the system's name or the model file
  std::vector<std::pair<std::string, double>> parameters;  // every parameter with its value
  HybridSystem system;
  ModeId mode = 0;
  std::vector<Vector> starts;
  // The energy of a state x = (q, qdot), a first integral of the flow: T for the built-in
  // billiards and for models without a potential, T2 + V(q) - T(q, 0) for models with one.
  std::function<double(ConstVectorRef x)> energy;
  // The kinetic energy 1/2 qdot^T M(q) qdot: the scale of the reported relative energy error.
  std::function<double(ConstVectorRef x)> kinetic_energy;
  // Energy (kinetic only) and constraints kept by projection after every step; false for a model
  // with a potential, whose energy the integrator alone keeps (the error is reported).
  bool projected = true;
  bool elastic = true;  // every wall has e = 1: the energy must be kept
  analysis::DensityAxis x_axis, y_axis;
  std::function<Eigen::Vector2d(ConstVectorRef x)> observable;
};

// Throws saltus::Error naming the system, model, parameter, coordinate or range at fault; a
// model whose energy is not conserved ([mechanics] forces, T or V reading t) is refused naming
// each such term.
DensitySetup builtin_density_setup(const DensityArguments& args);
DensitySetup model_density_setup(const DensityArguments& args);

}  // namespace saltus::run
