// Issue 12: the sleigh billiard's time-1 maps through analysis::invariant_density with the
// general integrator (what `saltus density --system sleigh` runs). Prints one JSON line: the
// wall time per map, and the relative energy error and constraint value of every trajectory's
// final state (the flow and the impact map both keep T and eta qdot exactly).
//   sleigh_maps_bench [maps=100000] [trajectories=2] [threads=2] [rtol=1e-12] [integrator=dop853]
//                      [project|noproject] [MODEL]
// MODEL: a model file of the same sleigh and table (models/chaplygin_sleigh.toml) run instead of
// the C++ catalogue's sleigh, from the same starts; energy and constraint are still measured
// with the catalogue's model (the same T and eta).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "saltus/analysis/invariant_density.hpp"
#include "saltus/model/mechanical_system.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"

int main(int argc, char** argv) {
  using namespace saltus;
  auto arg = [&](int i, const char* fallback) {
    return std::string(argc > i ? argv[i] : fallback);
  };
  const long maps = std::atol(arg(1, "100000").c_str());
  const int trajectories = std::atoi(arg(2, "2").c_str());
  const int threads = std::atoi(arg(3, "2").c_str());
  const double rtol = std::atof(arg(4, "1e-12").c_str());
  const std::string integrator = arg(5, "dop853");
  const bool project = arg(6, "project") == "project";

  const systems::EllipticTable table{2.0, 1.0};
  const systems::ChaplyginSleigh sleigh{1.0, 0.1, 0.3, 0.3};
  const mech::NonholonomicModel model = systems::chaplygin_sleigh(sleigh, table);
  const std::string model_file = arg(7, "");
  const auto compiled = model_file.empty()
                            ? model.compile(mech::NonholonomicModel::CompileOptions{project})
                            : model::nonholonomic_model(std::make_shared<const model::Model>(
                                                            model::load_model_file(model_file, {})))
                                  .compile(mech::NonholonomicModel::CompileOptions{project});
  analysis::DensityOptions o;
  o.maps = maps;
  o.discard = 0;
  o.threads = threads;
  o.x_axis = {0, -table.A, table.A, 100};
  o.y_axis = {1, -table.B, table.B, 100};
  o.simulation.integrator = integrator == "dopri5" ? Integrator::Dopri5 : Integrator::Dop853;
  o.simulation.stepper.rtol = rtol;
  o.simulation.stepper.atol = rtol * 1e-2;
  std::vector<Vector> starts;
  for (int k = 0; k < trajectories; ++k) {
    starts.push_back(systems::sleigh_state(0.1 * k, 0.0, 0.3 + 0.7 * k, 1.0, 0.5));
  }
  const auto t0 = std::chrono::steady_clock::now();
  const analysis::DensityResult r =
      analysis::invariant_density(compiled.system, compiled.mode, starts, o);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double worst_energy = 0.0, worst_constraint = 0.0;
  long done = 0;
  for (size_t k = 0; k < starts.size(); ++k) {
    const Vector& x0 = starts[k];
    const Vector& x1 = r.trajectories[k].x_final;
    done += r.trajectories[k].maps_done;
    const double T0 = model.kinetic_energy(x0.head(3), x0.tail(3));
    const double T1 = model.kinetic_energy(x1.head(3), x1.tail(3));
    worst_energy = std::max(worst_energy, std::abs(T1 - T0) / T0);
    worst_constraint =
        std::max(worst_constraint, std::abs(model.constraint_values(x1.head(3), x1.tail(3))[0]));
  }
  std::printf(
      "{\"maps\": %ld, \"trajectories\": %d, \"threads\": %d, \"rtol\": %g, \"integrator\": "
      "\"%s\", \"projection\": %s, \"wall_s\": %.4f, \"us_per_map\": %.3f, \"energy_rel_error\": "
      "%.3e, "
      "\"constraint\": %.3e}\n",
      done, trajectories, r.threads_used, rtol, integrator.c_str(), project ? "true" : "false",
      wall, 1e6 * wall / static_cast<double>(done), worst_energy, worst_constraint);
  return done == maps * trajectories ? 0 : 1;
}
