// Cost of differentiating a whole hybrid run (issue 13): wall time of
// analysis::flow_map_sensitivity (the run, then the variational arcs and saltation matrices)
// against the plain run, best of several repetitions, for systems with n = 1, 2 and 6 states.
// The variational ODE has n (1 + n) components, so ~(n + 1) plus one run is the expected ratio.
//
//   sensitivity_bench     prints one line per system: plain us, sensitivity us, ratio, n + 1
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>

#include "saltus/analysis/hybrid_sensitivity.hpp"
#include "saltus/mech/bouncing_rod.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_system.hpp"
#include "saltus/systems/bouncing_ball.hpp"

namespace {

using namespace saltus;
using Clock = std::chrono::steady_clock;

double best_microseconds(const std::function<void()>& work, int repetitions) {
  double best = 1e300;
  for (int r = 0; r < repetitions; ++r) {
    const auto start = Clock::now();
    work();
    best = std::min(best, std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  return best;
}

void compare(const char* name, const HybridSystem& sys, ModeId mode, const Vector& x0, double t_end,
             const SimulationOptions& options) {
  SimulationOptions plain = options;
  plain.output.record_events = true;
  long events = 0;
  const double run_us = best_microseconds(
      [&] { events = simulate(sys, mode, 0.0, x0, t_end, plain).events.size(); }, 20);
  bool ok = true;
  const double sens_us = best_microseconds(
      [&] { ok = analysis::flow_map_sensitivity(sys, mode, 0.0, x0, t_end, options).ok(); }, 20);
  std::printf(
      "%-28s n = %ld  events %3ld  run %9.1f us  sensitivity %9.1f us  ratio %5.2f  "
      "(n + 1 = %ld)%s\n",
      name, static_cast<long>(x0.size()), events, run_us, sens_us, sens_us / run_us,
      static_cast<long>(x0.size()) + 1, ok ? "" : "  FAILED");
}

}  // namespace

int main() {
  SimulationOptions tight;
  tight.integrator = Integrator::Dop853;
  tight.stepper.rtol = 1e-12;
  tight.stepper.atol = 1e-14;

  systems::BouncingBall ball;
  ball.drag = 0.5;
  ball.with_rest_mode = false;
  const HybridSystem ball_system = ball.build();
  compare("ball with drag, DOP853", ball_system, ball.flight, (Vector(2) << 1.0, 0.0).finished(),
          3.0, tight);

  const auto rod = mech::bouncing_rod_model(mech::BouncingRodParameters{}).compile();
  Vector q0(6);
  q0 << 0.0, 0.2, 0.7, 0.3, -1.0, 2.0;
  compare("rod (Newton law), DOP853", rod.system, rod.free, q0, 0.25, tight);

  auto dae = std::make_shared<const model::Model>(
      model::load_model_file(SALTUS_MODELS_DIR "/dae_mode_switch.toml"));
  const HybridSystem dae_system = model::build_hybrid_system(dae);
  compare("DAE mode switch, Radau5", dae_system, dae->initial_mode, dae->initial_state(), 1.2,
          dae->options);
  return 0;
}
