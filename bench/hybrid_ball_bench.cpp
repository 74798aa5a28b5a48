// saltus side of the bouncing-ball benchmarks of issue 2 (peers: bench/peers/). Prints one JSON
// object per line in the schema of bench/peers/run_peers.sh, so bench/compare_ball.py can put
// saltus and each peer side by side and report ratios.
//
//   hybrid_ball_bench DRAG_REFERENCE.json [--quick] [--only ball|drag|ensemble|ball-zeno]
//                     [--sampled]   (the impact guard without its enclosure: the certified
//                                    search's cost is the difference)
//
// Problems (g = 9.81, x' = v, v' = -g - c v, impact at x = 0 moving down, v+ = -e v-):
//   ball      x0 = 1, e = 0.8, until 0.9 t_inf (10 impacts), closed-form impact times
//   drag      c = 0.5, 20 impacts, rtol 1e-6 / 1e-9 / 1e-12 (atol = 1e-3 rtol), 40-digit reference
//   ensemble  10^4 balls, x0_i = 0.5 + 1.5 frac((i+1) phi^-1), e_i = 0.5 + 0.45
//   frac((i+1)(sqrt2-1)),
//             20 impacts each, closed-form reference
//   ball-zeno x0 = 1, e = 0.8 through the Zeno point to t_inf + 1 (hand-over to rest)
// Wall time is measured around the simulation loop only (one Simulator reused, as an ensemble
// user would), best of several repetitions.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "saltus/sim/simulator.hpp"
#include "saltus/systems/bouncing_ball.hpp"

namespace {

using namespace saltus;
using Clock = std::chrono::steady_clock;

struct Line {
  std::string tool = "saltus-dopri5";
  std::string problem, setting, note;
  long impacts = 0;
  double max_error = 0.0;
  long rhs = 0;
  double wall = 0.0;
  bool penetration = false;
};

void print(const Line& l) {
  nlohmann::json j;
  j["tool"] = l.tool;
  j["problem"] = l.problem;
  j["setting"] = l.setting;
  j["impacts"] = l.impacts;
  j["max_impact_time_error"] = l.max_error;
  j["rhs_evals"] = l.rhs;
  j["wall_s"] = l.wall;
  j["us_per_impact"] = l.impacts > 0 ? 1e6 * l.wall / static_cast<double>(l.impacts) : 0.0;
  j["penetration"] = l.penetration;
  j["hung"] = false;
  j["note"] = l.note;
  std::printf("%s\n", j.dump().c_str());
  std::fflush(stdout);
}

// Closed-form impact times of a ball dropped from rest (FORMULAS.md 5.1).
std::vector<double> closed_form_impacts(double x0, double g, double e, int n) {
  std::vector<double> t(n);
  const double v1 = std::sqrt(2 * g * x0);
  double tk = std::sqrt(2 * x0 / g), ek = 1.0;
  for (int k = 0; k < n; ++k) {
    t[k] = tk;
    ek *= e;
    tk += 2 * ek * v1 / g;
  }
  return t;
}

SimulationOptions options(double rtol, double atol) {
  SimulationOptions o;
  o.stepper.rtol = rtol;
  o.stepper.atol = atol;
  o.output.reserve_events = 256;
  return o;
}

Vector drop(double x0) {
  Vector s(2);
  s << x0, 0.0;
  return s;
}

// Runs `once` (which simulates and returns impacts) `reps` times; returns the best wall time.
template <class F>
double best_of(int reps, F&& once) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    once();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return best;
}

void check_events(const SimulationResult& r, const std::vector<double>& ref, Line& l) {
  for (long i = 0; i < r.events.size() && i < static_cast<long>(ref.size()); ++i) {
    if (r.events[i].guard == kZenoHandoverGuard) break;
    l.max_error = std::max(l.max_error, std::abs(r.events[i].t - ref[i]));
    if (r.events.x_before(i)[0] < -1e-12) l.penetration = true;
  }
}

void ball(int reps) {
  systems::BouncingBall b;
  b.with_rest_mode = false;
  const HybridSystem sys = b.build();
  const double t_inf = std::sqrt(2 / b.g) * (1 + b.e) / (1 - b.e);
  const std::vector<double> ref = closed_form_impacts(1.0, b.g, b.e, 40);
  for (double rtol : {1e-8, 1e-12}) {
    Simulator sim(sys, options(rtol, rtol * 1e-2));
    SimulationResult r;
    Line l;
    l.problem = "ball";
    l.setting = "rtol=" + std::to_string(rtol).substr(0, 5) + ",atol=rtol*1e-2";
    char buf[64];
    std::snprintf(buf, sizeof buf, "rtol=%g,atol=%g", rtol, rtol * 1e-2);
    l.setting = buf;
    l.wall = best_of(reps, [&] { sim.run(b.flight, 0.0, drop(1.0), Vector(), 0.9 * t_inf, r); });
    l.impacts = r.events.size();
    l.rhs = r.summary.stepper.rhs_evaluations;
    check_events(r, ref, l);
    print(l);
  }
}

void ball_zeno(int reps) {
  systems::BouncingBall b;
  const HybridSystem sys = b.build();
  const double t_inf = std::sqrt(2 / b.g) * (1 + b.e) / (1 - b.e);
  const std::vector<double> ref = closed_form_impacts(1.0, b.g, b.e, 400);
  Simulator sim(sys, options(1e-12, 1e-14));
  SimulationResult r;
  Line l;
  l.problem = "ball-zeno";
  l.setting = "rtol=1e-12,atol=1e-14";
  l.wall = best_of(reps, [&] { sim.run(b.flight, 0.0, drop(1.0), Vector(), t_inf + 1.0, r); });
  l.impacts = r.summary.events_before_zeno;
  l.rhs = r.summary.stepper.rhs_evaluations;
  check_events(r, ref, l);
  for (long i = 0; i < r.trajectory.size(); ++i) {
    if (r.trajectory.x(i)[0] < -1e-12) l.penetration = true;
  }
  char note[200];
  std::snprintf(note, sizeof note,
                "%s; Zeno time %.16g vs closed form %.16g; ends at rest (x = %g, v = %g)",
                to_string(r.termination()), r.summary.zeno_time, t_inf, r.x_final[0], r.x_final[1]);
  l.note = note;
  print(l);
}

void drag(const nlohmann::json& ref_file, int reps) {
  systems::BouncingBall b;
  b.drag = ref_file["c"];
  b.e = ref_file["e"];
  b.g = ref_file["g"];
  b.with_rest_mode = false;
  const HybridSystem sys = b.build();
  const std::vector<double> ref = ref_file["impact_times"].get<std::vector<double>>();
  const size_t n = std::min<size_t>(ref.size(), 20);
  const double t_end = ref[n - 1] + 0.5 * b.e * (ref[n - 1] - ref[n - 2]);  // before impact n+1
  // Dopri5 (the default) at every tolerance; DOP853 too at the tight ones, where its higher
  // order should need fewer flow evaluations for the same error (issue 10).
  for (const auto& [rtol, integrator] :
       std::vector<std::pair<double, Integrator>>{{1e-6, Integrator::Dopri5},
                                                  {1e-9, Integrator::Dopri5},
                                                  {1e-12, Integrator::Dopri5},
                                                  {1e-9, Integrator::Dop853},
                                                  {1e-12, Integrator::Dop853}}) {
    SimulationOptions o = options(rtol, rtol * 1e-3);
    o.integrator = integrator;
    Simulator sim(sys, o);
    SimulationResult r;
    Line l;
    l.tool = std::string("saltus-") + to_string(integrator);
    l.problem = "drag";
    char buf[64];
    std::snprintf(buf, sizeof buf, "rtol=%g,atol=%g", rtol, rtol * 1e-3);
    l.setting = buf;
    l.wall =
        best_of(reps, [&] { sim.run(b.flight, 0.0, drop(ref_file["x0"]), Vector(), t_end, r); });
    l.impacts = r.events.size();
    l.rhs = r.summary.stepper.rhs_evaluations;
    check_events(r, ref, l);
    print(l);
  }
}

bool g_sampled = false;  // --sampled

void ensemble(int stride, int reps) {
  const double phi = 0.6180339887498949, s2 = 0.41421356237309515;
  const int n_balls = 10000;
  for (double rtol : {1e-8, 1e-12}) {
    Line l;
    l.problem = "ensemble";
    char buf[64];
    std::snprintf(buf, sizeof buf, "rtol=%g,atol=%g", rtol, rtol * 1e-2);
    l.setting = buf;
    // Systems differ per ball (e); build them outside the timed loop, as a parameter sweep would.
    std::vector<systems::BouncingBall> balls;
    std::vector<HybridSystem> systems_;
    std::vector<double> x0s;
    for (int i = 0; i < n_balls; i += stride) {
      const double fx = std::fmod((i + 1) * phi, 1.0), fe = std::fmod((i + 1) * s2, 1.0);
      systems::BouncingBall b;
      b.e = 0.5 + 0.45 * fe;
      b.with_rest_mode = false;
      b.certified = !g_sampled;
      systems_.push_back(b.build());
      balls.push_back(b);
      x0s.push_back(0.5 + 1.5 * fx);
    }
    std::vector<Simulator> sims;
    std::vector<std::vector<double>> refs;
    for (size_t k = 0; k < systems_.size(); ++k) {
      sims.emplace_back(systems_[k], options(rtol, rtol * 1e-2));
      refs.push_back(closed_form_impacts(x0s[k], 9.81, balls[k].e, 21));
    }
    SimulationResult r;
    long impacts = 0, rhs = 0;
    double max_error = 0.0;
    bool penetration = false;
    l.wall = best_of(reps, [&] {
      impacts = rhs = 0;
      for (size_t k = 0; k < sims.size(); ++k) {
        const std::vector<double>& ref = refs[k];
        sims[k].run(balls[k].flight, 0.0, drop(x0s[k]), Vector(), 0.5 * (ref[19] + ref[20]), r);
        impacts += r.events.size();
        rhs += r.summary.stepper.rhs_evaluations;
        for (long i = 0; i < r.events.size(); ++i) {
          max_error = std::max(max_error, std::abs(r.events[i].t - ref[i]));
          if (r.events.x_before(i)[0] < -1e-12) penetration = true;
        }
      }
    });
    l.impacts = impacts;
    l.rhs = rhs;
    l.max_error = max_error;
    l.penetration = penetration;
    l.note = stride == 1 ? "all 10^4 balls" : "every " + std::to_string(stride) + "th ball";
    print(l);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DRAG_REFERENCE.json [--quick] [--only PROBLEM]\n", argv[0]);
    return 2;
  }
  bool quick = false;
  std::string only;  // --only PROBLEM: one problem (for a profile of it)
  for (int i = 2; i < argc; ++i) {
    if (std::string(argv[i]) == "--quick") quick = true;
    if (std::string(argv[i]) == "--sampled") g_sampled = true;
    if (std::string(argv[i]) == "--only" && i + 1 < argc) only = argv[++i];
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", argv[1]);
    return 2;
  }
  const nlohmann::json ref = nlohmann::json::parse(in);
  const int reps = quick ? 3 : 50;
  auto wanted = [&](const char* problem) { return only.empty() || only == problem; };
  if (wanted("ball")) ball(reps);
  if (wanted("drag")) drag(ref, reps);
  if (wanted("ensemble")) ensemble(quick ? 100 : 1, quick ? 1 : 3);
  if (wanted("ball-zeno")) ball_zeno(reps);
  return 0;
}
