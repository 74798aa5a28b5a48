// Cost of differentiating a whole hybrid run (issue 13): wall time of
// analysis::flow_map_sensitivity (the run, then the variational arcs and saltation matrices)
// against the plain run, medians of 21 interleaved repetitions (run, sensitivity, sensitivity
// with one direction per Jacobian pass, run, ...), for systems with n = 1, 2 and 6 states. The
// variational ODE has n (1 + n) components, so ~(n + 1) plus one run is the expected ratio. The
// third timing is the column-by-column Jacobian (JacobianPasses::OneDirection) that the chunked
// passes of core/flow.hpp replace. Then the pseudo-arclength continuation of the period-1
// orbit of models/impact_oscillator.toml in sigma, 200 points (median of 3).
//
//   sensitivity_bench     prints one line per system: plain us, sensitivity us, ratio, n + 1,
//                         and the sensitivity with one direction per pass
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "saltus/analysis/hybrid_sensitivity.hpp"
#include "saltus/analysis/orbit_continuation.hpp"
#include "saltus/mech/bouncing_rod.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/model/model_system.hpp"
#include "saltus/run/rebuilt_parameter_sensitivity.hpp"
#include "saltus/systems/bouncing_ball.hpp"

namespace {

using namespace saltus;
using Clock = std::chrono::steady_clock;

double microseconds(const std::function<void()>& work) {
  const auto start = Clock::now();
  work();
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void compare(const char* name, const HybridSystem& sys, ModeId mode, const Vector& x0, double t_end,
             const SimulationOptions& options, const analysis::SaltationOptions& saltation = {}) {
  SimulationOptions plain = options;
  plain.output.record_events = true;
  long events = 0;
  bool ok = true;
  std::vector<double> run_us, sens_us, columns_us;
  const auto sensitivity = [&] {
    ok = ok &&
         analysis::flow_map_sensitivity(sys, mode, 0.0, x0, t_end, options, Vector(), saltation)
             .ok();
  };
  for (int r = 0; r < 21; ++r) {
    run_us.push_back(
        microseconds([&] { events = simulate(sys, mode, 0.0, x0, t_end, plain).events.size(); }));
    sens_us.push_back(microseconds(sensitivity));
    columns_us.push_back(microseconds([&] {
      const ScopedJacobianPasses by_columns(JacobianPasses::OneDirection);
      sensitivity();
    }));
  }
  const double run = median(run_us), sens = median(sens_us), columns = median(columns_us);
  std::printf(
      "%-28s n = %ld  events %3ld  run %9.1f us  sensitivity %9.1f us  ratio %5.2f  "
      "(n + 1 = %ld; one direction per pass: %9.1f us, ratio %5.2f)%s\n",
      name, static_cast<long>(x0.size()), events, run, sens, sens / run,
      static_cast<long>(x0.size()) + 1, columns, columns / run, ok ? "" : "  FAILED");
}

void continuation() {
  auto m = std::make_shared<const model::Model>(
      model::load_model_file(SALTUS_MODELS_DIR "/impact_oscillator.toml"));
  const HybridSystem sys = model::build_hybrid_system(m);
  const double period = 2.0 * 3.14159265358979323846 / 2.5;
  const analysis::ReturnMap map =
      analysis::stroboscopic_map(sys, m->initial_mode, 0.0, period, m->options);
  analysis::ContinuationOptions c;
  c.parameter = 2;
  c.p_min = 0.0;
  c.p_max = 0.3;
  c.max_step = 5e-4;
  c.initial_step = 5e-4;
  c.max_points = 200;
  std::vector<double> ms;
  size_t points = 0;
  std::string stop;
  for (int r = 0; r < 3; ++r) {
    ms.push_back(1e-3 * microseconds([&] {
                   const analysis::Branch b = analysis::continue_orbit(map, m->initial_state(), c);
                   points = b.points.size();
                   stop = b.stop_reason;
                 }));
  }
  std::printf("impact oscillator continuation: %zu points in %.1f ms (median of 3; %s)\n", points,
              median(ms), stop.c_str());
}

// models/bouncing_rod.toml (Routh-Poisson law, to t = 0.5: one impact, its own DOP853 settings):
// the plain run of the loaded system against d x / d x0 and against d x / d (e, mu, ell) (the file
// loaded three times per parameter, then the augmented run), medians of 21 interleaved repetitions.
void rod_model_file() {
  const std::vector<std::string> overrides = {"t_end=0.5"};
  auto m = std::make_shared<const model::Model>(
      model::load_model_file(SALTUS_MODELS_DIR "/bouncing_rod.toml", overrides));
  model::ModelRun prepared;
  const model::ModelStart start = model::prepare_model_run(m, prepared);
  analysis::SaltationOptions allowed;
  allowed.allow_numerical_derivatives = true;
  compare("rod model file (Routh-Poisson)", prepared.system, start.mode, start.x0, 0.5, m->options,
          allowed);
  const run::ModelLoad load = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> all = overrides;
    all.insert(all.end(), extra.begin(), extra.end());
    return model::load_model_file(SALTUS_MODELS_DIR "/bouncing_rod.toml", all);
  };
  SimulationOptions plain = m->options;
  plain.output.record_events = true;
  std::vector<double> run_us, sens_us, load_us;
  bool ok = true;
  for (int r = 0; r < 21; ++r) {
    run_us.push_back(microseconds(
        [&] { (void)simulate(prepared.system, start.mode, 0.0, start.x0, 0.5, plain); }));
    load_us.push_back(microseconds([&] {  // what the parameter path loads and builds: 1 + 2 x 3
      for (int k = 0; k < 7; ++k) {
        model::ModelRun built;
        (void)model::prepare_model_run(std::make_shared<const model::Model>(load({})), built);
      }
    }));
    sens_us.push_back(microseconds([&] {
      ok = run::rebuilt_parameter_sensitivity(load, {"e", "mu", "ell"}, allowed).sensitivity.ok();
    }));
  }
  std::printf(
      "rod model file d/d(e, mu, ell): run %9.1f us  parameter sensitivity %9.1f us  "
      "ratio %5.2f (7 loads and builds alone %9.1f us)%s\n",
      median(run_us), median(sens_us), median(sens_us) / median(run_us), median(load_us),
      ok ? "" : "  FAILED");
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
  analysis::SaltationOptions allowed;  // the impact law has no exact derivative yet
  allowed.allow_numerical_derivatives = true;
  compare("rod (Newton law), DOP853", rod.system, rod.free, q0, 0.25, tight, allowed);
  rod_model_file();

  auto dae = std::make_shared<const model::Model>(
      model::load_model_file(SALTUS_MODELS_DIR "/dae_mode_switch.toml"));
  const HybridSystem dae_system = model::build_hybrid_system(dae);
  compare("DAE mode switch, Radau5", dae_system, dae->initial_mode, dae->initial_state(), 1.2,
          dae->options);
  continuation();
  return 0;
}
