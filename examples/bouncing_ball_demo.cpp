// Main-job demo: the bouncing ball (x0 = 1 m, e = 0.8) through its Zeno point to rest.
// Prints the events, the predicted and closed-form Zeno times, the run summary, and writes
// out/trajectory.csv and out/events.csv (atomically) for scripts/plot_demo.py.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "saltus/sim/simulator.hpp"
#include "saltus/systems/bouncing_ball.hpp"

namespace {

// Writes `text` to `path` through a temporary file and a rename: never a half-written file.
void write_atomically(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace

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
  std::string traj = "t,j,mode,x,v\n";
  char line[256];
  for (long i = 0; i < r.trajectory.size(); ++i) {
    std::snprintf(line, sizeof line, "%.17g,%ld,%s,%.17g,%.17g\n", r.trajectory.t(i),
                  r.trajectory.j(i), sys.mode(r.trajectory.mode(i)).name.c_str(),
                  r.trajectory.x(i)[0], r.trajectory.x(i)[1]);
    traj += line;
  }
  std::string events = "t,j,guard,mode_before,mode_after,x_before,v_before,x_after,v_after\n";
  for (long i = 0; i < r.events.size(); ++i) {
    const EventRecord& e = r.events[i];
    const std::string guard = e.guard == kZenoHandoverGuard
                                  ? "zeno-handover"
                                  : sys.mode(e.mode_before).guards[e.guard].name;
    std::snprintf(line, sizeof line, "%.17g,%ld,%s,%s,%s,%.17g,%.17g,%.17g,%.17g\n", e.t, e.j,
                  guard.c_str(), sys.mode(e.mode_before).name.c_str(),
                  sys.mode(e.mode_after).name.c_str(), r.events.x_before(i)[0],
                  r.events.x_before(i)[1], r.events.x_after(i)[0], r.events.x_after(i)[1]);
    events += line;
  }
  write_atomically(out_dir / "trajectory.csv", traj);
  write_atomically(out_dir / "events.csv", events);
  std::printf("wrote %s and %s\n", (out_dir / "trajectory.csv").c_str(),
              (out_dir / "events.csv").c_str());
  return r.summary.ok() ? 0 : 1;
}
