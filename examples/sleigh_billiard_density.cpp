// The Chaplygin sleigh in an elliptical table (seed 003, Sec. 8.1 and Fig. 7): bins the blade's
// position (x, y) after each time-1 map on a 100 x 100 grid and writes the fractions as CSV to
// stdout (ix,iy,x,y,fraction); `saltus density --system sleigh` does the same with files and a
// plot. Usage:
//   sleigh_billiard_density [maps=10000] [discard=1000] [A=2] [B=1] [a=0.3] [L=0.3] > density.csv
#include <cstdio>
#include <cstdlib>

#include "saltus/analysis/invariant_density.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"

int main(int argc, char** argv) {
  using namespace saltus;
  auto arg = [&](int i, double fallback) { return argc > i ? std::atof(argv[i]) : fallback; };
  const systems::EllipticTable table{arg(3, 2.0), arg(4, 1.0)};
  const systems::ChaplyginSleigh sleigh{1.0, 0.1, arg(5, 0.3), arg(6, 0.3)};
  const mech::NonholonomicModel model = systems::chaplygin_sleigh(sleigh, table);
  // Energy and the blade constraint kept by projection after every step (10^6 maps stay within
  // ~1e-11 relative energy error at rtol 1e-9; without it the integrator's drift accumulates).
  mech::NonholonomicModel::CompileOptions keep;
  keep.project_invariants = true;
  const auto compiled = model.compile(keep);

  analysis::DensityOptions o;
  o.maps = static_cast<long>(arg(1, 1e4));
  o.discard = static_cast<long>(arg(2, 1e3));
  o.x_axis = {0, -table.A, table.A, 100};
  o.y_axis = {1, -table.B, table.B, 100};
  o.simulation.integrator = Integrator::Dop853;
  o.simulation.stepper.rtol = 1e-9;
  o.simulation.stepper.atol = 1e-11;
  const Vector x0 = systems::sleigh_state(0.0, 0.0, 0.3, 1.0, 0.5);
  compiled.initial_mode(x0);  // throws a saltus::Error naming the problem for a bad start
  const analysis::DensityResult r =
      analysis::invariant_density(compiled.system, compiled.mode, {x0}, o);
  const auto& t = r.trajectories[0];
  if (t.termination != Termination::EndTimeReached) {
    std::fprintf(stderr, "stopped after %ld maps: %s\n", t.maps_done, t.message.c_str());
  }
  const double T0 = model.kinetic_energy(x0.head(3), x0.tail(3));
  std::fprintf(stderr, "%ld maps, relative energy change %.3g\n", t.maps_done,
               (model.kinetic_energy(t.x_final.head(3), t.x_final.tail(3)) - T0) / T0);
  std::printf("ix,iy,x,y,fraction\n");
  const auto& h = r.histogram;
  for (int iy = 0; iy < h.ny; ++iy) {
    for (int ix = 0; ix < h.nx; ++ix) {
      const double x = o.x_axis.lo + (ix + 0.5) * (o.x_axis.hi - o.x_axis.lo) / h.nx;
      const double y = o.y_axis.lo + (iy + 0.5) * (o.y_axis.hi - o.y_axis.lo) / h.ny;
      std::printf("%d,%d,%.6g,%.6g,%.9g\n", ix, iy, x, y, h.fraction(ix, iy));
    }
  }
  return t.termination == Termination::EndTimeReached ? 0 : 1;
}
