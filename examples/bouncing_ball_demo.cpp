// Main-job demo: the bouncing ball (x0 = 1 m, e = 0.8) through its Zeno point to rest.
// Prints the events, the predicted and closed-form Zeno times, the run summary, and writes
// out/trajectory.csv and out/events.csv (atomically, saltus/sim/csv_writer.hpp); plot them
// with `saltus plot OUT` (scripts/plot_run.py). The same system as models/bouncing_ball.toml,
// written in C++.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "saltus/sim/csv_writer.hpp"
#include "saltus/sim/simulator.hpp"
#include "saltus/systems/bouncing_ball.hpp"

int main(int argc, char** argv) {
  using namespace saltus;
  const std::filesystem::path out_dir = argc > 1 ? argv[1] : "out";
  systems::BouncingBall ball;
  const HybridSystem sys = ball.build();
  const double x0 = 1.0;
  const double t_inf = std::sqrt(2 * x0 / ball.g) * (1 + ball.e) / (1 - ball.e);
  SimulationOptions o;
  o.stepper.rtol = 1e-12;
  o.stepper.atol = 1e-14;
  for (int i = 0; i <= 2000; ++i) o.output.sample_times.push_back((t_inf + 1.0) * i / 2000);
  Vector s0(2);
  s0 << x0, 0.0;
  const SimulationResult r = simulate(sys, ball.flight, 0.0, s0, t_inf + 1.0, o);

  std::printf("bouncing ball: x0 = %g m, e = %g, g = %g m/s^2\n", x0, ball.e, ball.g);
  std::printf("%5s %22s %22s %12s\n", "j", "t (s)", "closed form (s)", "rel. error");
  double t_exact = std::sqrt(2 * x0 / ball.g), worst = 0.0;
  const double v1 = std::sqrt(2 * ball.g * x0);
  long impacts = 0;
  for (long i = 0; i < r.events.size(); ++i) {
    const EventRecord& e = r.events[i];
    if (e.guard == kZenoHandoverGuard) {
      std::printf("%5ld %22.16f   Zeno hand-over -> '%s'\n", e.j, e.t,
                  sys.mode(e.mode_after).name.c_str());
      continue;
    }
    const double err = std::abs(e.t - t_exact) / t_exact;
    worst = std::max(worst, err);
    if (i < 8 || i + 3 >= r.events.size()) {
      std::printf("%5ld %22.16f %22.16f %12.2e\n", e.j, e.t, t_exact, err);
    } else if (i == 8) {
      std::printf("  ...\n");
    }
    ++impacts;
    t_exact += 2 * std::pow(ball.e, static_cast<double>(impacts)) * v1 / ball.g;
  }
  std::printf("\nimpacts resolved before hand-over: %ld (worst relative error %.2e)\n", impacts,
              worst);
  std::printf("Zeno time: predicted %.16f, closed form %.16f (rel. error %.2e)\n",
              r.summary.zeno_time, t_inf, std::abs(r.summary.zeno_time - t_inf) / t_inf);
  std::printf("\n%s", r.summary.full_report(&sys).c_str());

  std::filesystem::create_directories(out_dir);
  CsvColumns columns;
  columns.x_names = {"x", "v"};
  columns.z_names = {"lambda"};
  write_file_atomically(out_dir / "trajectory.csv", trajectory_csv(sys, r, columns));
  write_file_atomically(out_dir / "events.csv", events_csv(sys, r, columns));
  std::printf("wrote %s and %s\n", (out_dir / "trajectory.csv").c_str(),
              (out_dir / "events.csv").c_str());
  return r.summary.ok() ? 0 : 1;
}
