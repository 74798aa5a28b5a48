// Cost of a model-file flow against the same flow written in C++ (docs/benchmarks_model.md).
// Build (after building libsaltus): see build_and_run.sh next to this file.
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>

#include "saltus/mech/bouncing_rod.hpp"
#include "saltus/model/mechanical_system.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_system.hpp"
#include "saltus/sim/simulator.hpp"
#include "saltus/systems/bouncing_ball.hpp"

using namespace saltus;

template <class F>
double ns_per_call(F&& f, long n) {
  for (long i = 0; i < n / 10; ++i) f(i);
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) f(i);
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
         static_cast<double>(n);
}

const char* kBall4 = R"toml(
[parameters]
g = 9.81
c = 0.1
[states]
x = 0.0
y = 1.0
vx = 1.0
vy = 0.0
[modes.free]
flow = ["x' = vx", "y' = vy", "vx' = -c*vx*sqrt(vx^2 + vy^2)", "vy' = -g - c*vy*sqrt(vx^2 + vy^2)"]
[[modes.free.guards]]
name = "impact"
value = "-y"
reset = ["vy = -0.8*vy"]
[solver]
t_end = 1.0
)toml";

int main() {
  const long n = 20000000;
  // ---- 2-state bouncing ball flow (models/bouncing_ball.toml vs systems::BouncingBall)
  auto model = std::make_shared<const model::Model>(
      model::load_model_file(SALTUS_MODELS_DIR "/bouncing_ball.toml", {"e=0.8"}));
  const HybridSystem ms = model::build_hybrid_system(model);
  systems::BouncingBall ball;
  const HybridSystem cs = ball.build();
  Vector x(2), z(0), xd(2);
  x << 0.5, -1.0;
  volatile double sink = 0;
  auto bench_flow = [&](const HybridSystem& s, Vector& xx, Vector& zz, Vector& out) {
    const Flow& f = s.mode(0).flow;
    return ns_per_call(
        [&](long i) {
          xx[0] = 1e-9 * static_cast<double>(i & 1023);
          f.rhs(0.1, xx, zz, out);
          sink = out[1];
        },
        n);
  };
  const double m2 = bench_flow(ms, x, z, xd), c2 = bench_flow(cs, x, z, xd);
  Matrix J(2, 2), Jz(2, 0);
  auto bench_jac = [&](const HybridSystem& s, Vector& xx, Vector& zz, Matrix& jj, Matrix& jz) {
    const Flow& f = s.mode(0).flow;
    return ns_per_call(
        [&](long i) {
          xx[0] = 1e-9 * static_cast<double>(i & 1023);
          f.rhs_jacobian(0.1, xx, zz, jj, jz);
          sink = jj(0, 1);
        },
        n / 4);
  };
  const double mj2 = bench_jac(ms, x, z, J, Jz), cj2 = bench_jac(cs, x, z, J, Jz);
  // ---- 4-state flow: planar ball with quadratic drag
  auto model4 = std::make_shared<const model::Model>(model::load_model_text(kBall4, "ball4"));
  const HybridSystem m4 = model::build_hybrid_system(model4);
  HybridSystem c4;
  const double g = 9.81, c = 0.1;
  c4.add_mode("free", ode_flow(4, [=](const auto&, const auto& s, auto& d) {
                using std::sqrt;
                using ceres::sqrt;
                const auto speed = sqrt(s[2] * s[2] + s[3] * s[3]);
                d[0] = s[2];
                d[1] = s[3];
                d[2] = -c * s[2] * speed;
                d[3] = -g - c * s[3] * speed;
              }));
  Vector x4(4), out4(4);
  x4 << 0.1, 1.0, 1.0, -0.5;
  const double m4n = bench_flow(m4, x4, z, out4), c4n = bench_flow(c4, x4, z, out4);
  Matrix J4(4, 4), J4z(4, 0);
  const double mj4 = bench_jac(m4, x4, z, J4, J4z), cj4 = bench_jac(c4, x4, z, J4, J4z);
  // ---- whole simulation of the bouncing ball through Zeno to rest (same options)
  SimulationOptions o = model->options;
  o.output.sample_times.clear();
  Vector x0(2);
  x0 << 1.0, 0.0;
  Simulator sm(ms, o), sc(cs, o);
  SimulationResult rm, rc;
  Vector z0(0);
  const long runs = 20000;
  const double sim_m = ns_per_call([&](long) { sm.run(0, 0.0, x0, z0, 5.0, rm); }, runs) * 1e-3;
  const double sim_c = ns_per_call([&](long) { sc.run(0, 0.0, x0, z0, 5.0, rc); }, runs) * 1e-3;
  // ---- mechanical model file: the bouncing rod (M, h derived from T, V) vs bouncing_rod.hpp
  auto rod_model = std::make_shared<const model::Model>(model::load_model_file(
      SALTUS_MODELS_DIR "/bouncing_rod.toml", {"contacts.tip.law=chatterjee_ruina"}));
  const HybridSystem rod_m = model::build_mechanical_system(rod_model).system;
  mech::BouncingRodParameters rp;
  rp.I_c = 1.0 / 12.0;
  rp.law = rod_model->mechanics->contacts[0].rigid_law;
  const HybridSystem rod_c = mech::bouncing_rod_model(rp).compile().system;
  Vector rx = rod_model->initial_state(), rxd(6);
  const double rf_m = bench_flow(rod_m, rx, z, rxd), rf_c = bench_flow(rod_c, rx, z, rxd);
  SimulationOptions ro = rod_model->options;
  ro.output.sample_times.clear();
  Simulator srm(rod_m, ro), src(rod_c, ro);
  SimulationResult rrm, rrc;
  const double rod_sim_m =
      ns_per_call([&](long) { srm.run(0, 0.0, rx, z0, 1.5, rrm); }, runs / 10) * 1e-3;
  const double rod_sim_c =
      ns_per_call([&](long) { src.run(0, 0.0, rx, z0, 1.5, rrc); }, runs / 10) * 1e-3;
  std::printf("| case | model file | C++ | ratio |\n|---|---|---|---|\n");
  std::printf("| 2-state ball flow f(t,x) | %.1f ns | %.1f ns | %.2f |\n", m2, c2, m2 / c2);
  std::printf(
      "| 2-state ball Jacobian (model: symbolic tape; C++: AD) | %.1f ns | %.1f ns | %.2f |\n", mj2,
      cj2, mj2 / cj2);
  std::printf("| 4-state drag-ball flow f(t,x) | %.1f ns | %.1f ns | %.2f |\n", m4n, c4n,
              m4n / c4n);
  std::printf(
      "| 4-state drag-ball Jacobian (model: symbolic tape; C++: AD) | %.1f ns | %.1f ns | %.2f |\n",
      mj4, cj4, mj4 / cj4);
  std::printf("| ball run to rest (%ld events, %ld steps) | %.1f us | %.1f us | %.2f |\n",
              rm.events.size(), rm.summary.stepper.accepted_steps, sim_m, sim_c, sim_m / sim_c);
  std::printf("| rod free flight qddot = M^-1 h (T, V in the file) | %.1f ns | %.1f ns | %.2f |\n",
              rf_m, rf_c, rf_m / rf_c);
  std::printf("| rod run, Chatterjee-Ruina (%ld events, %ld steps) | %.1f us | %.1f us | %.2f |\n",
              rrm.events.size(), rrm.summary.stepper.accepted_steps, rod_sim_m, rod_sim_c,
              rod_sim_m / rod_sim_c);
  return rm.events.size() == rc.events.size() && rrm.events.size() == rrc.events.size() ? 0 : 1;
}
