// saltus side of the rocking-block comparison with Siconos (issue 11; peer:
// bench/peers/siconos_rocking_block.py, both run by bench/run_rocking_block_bench.sh).
//
//   rocking_block_bench [--law L] [--t-end T] [--runs RTOL:HANDOVER,...] [--no-timing]
//
// models/rocking_block.toml with the anchors set by overrides (the same strings `saltus
// run --set` takes): e = 0.5, mu = 0.5, theta0 = 0.2 and y such that the lowest (left) corner
// starts 0.1 m above the floor, at rest; a = 0.25, h = 0.5, m = 1, g = 9.81 are the model's.
// The contact law is routh_newton by default (the issue asks for Newton restitution; the model
// file uses routh_poisson). For each run (rtol, atol = 1e-2 rtol, zeno_handover_tolerance) one
// JSON line: every impact (time, corner, energy after), the events, the status and message, the
// settling time (the last event of the run, after which nothing changes mode), the energy at the
// end, the lowest corner at any event, and the CPU time of one run: CLOCK_PROCESS_CPUTIME_ID around
// Simulator::run only (the model loaded and its hybrid system built before; one Simulator reused,
// after one untimed run), and separately the CPU time of loading the file and building the system.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "model_run_timing.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/sim/simulator.hpp"

namespace {

using namespace saltus;

constexpr double kA = 0.25, kH = 0.5, kM = 1.0, kG = 9.81, kTheta0 = 0.2, kDrop = 0.1;
constexpr double kIc = kM * (kA * kA + kH * kH) / 3.0;

// State (x, y, theta, x', y', theta').
double energy(ConstVectorRef s) {
  return 0.5 * kM * (s[3] * s[3] + s[4] * s[4]) + 0.5 * kIc * s[5] * s[5] + kM * kG * s[1];
}

// The lower of the two corner gaps (the model's contact expressions).
double lowest_corner(ConstVectorRef s) {
  const double c = std::cos(s[2]), sn = std::sin(s[2]);
  return std::min(s[1] - kA * sn - kH * c, s[1] + kA * sn - kH * c);
}

// "R1:Z1,R2:Z2,...": (rtol, Zeno hand-over tolerance) pairs.
std::vector<std::pair<double, double>> parse_runs(const char* list) {
  std::vector<std::pair<double, double>> out;
  const char* p = list;
  while (*p != '\0') {
    char* end = nullptr;
    const double rtol = std::strtod(p, &end);
    if (end == p || *end != ':') return {};
    p = end + 1;
    const double handover = std::strtod(p, &end);
    if (end == p || (*end != ',' && *end != '\0')) return {};
    out.emplace_back(rtol, handover);
    p = *end == ',' ? end + 1 : end;
  }
  return out;
}

std::vector<std::string> overrides(const std::string& law, double t_end, double rtol,
                                   double handover) {
  char buf[64];
  std::vector<std::string> o = {"e=0.5", "mu=0.5", "theta0=0.2"};
  std::snprintf(buf, sizeof buf, "y=%.17g",
                kDrop + kA * std::sin(kTheta0) + kH * std::cos(kTheta0));
  o.emplace_back(buf);
  o.push_back("contacts.left.law=" + law);
  o.push_back("contacts.right.law=" + law);
  std::snprintf(buf, sizeof buf, "solver.t_end=%.17g", t_end);
  o.emplace_back(buf);
  std::snprintf(buf, sizeof buf, "solver.rtol=%.17g", rtol);
  o.emplace_back(buf);
  std::snprintf(buf, sizeof buf, "solver.atol=%.17g", 1e-2 * rtol);
  o.emplace_back(buf);
  std::snprintf(buf, sizeof buf, "solver.zeno_handover_tolerance=%.17g", handover);
  o.emplace_back(buf);
  return o;
}

std::string guard_name(const HybridSystem& sys, const EventRecord& r) {
  if (r.guard == kZenoHandoverGuard) return "zeno";
  return sys.modes()[static_cast<size_t>(r.mode_before)].guards[static_cast<size_t>(r.guard)].name;
}

// One run of the model at (rtol, hand-over tolerance): its JSON line.
nlohmann::json run_once(const std::string& law, double t_end, double rtol, double handover,
                        bool timing) {
  const std::string file = std::string(SALTUS_MODELS_DIR) + "/rocking_block.toml";
  const double c0 = bench::cpu_seconds();
  auto model = std::make_shared<const model::Model>(
      model::load_model_file(file, overrides(law, t_end, rtol, handover)));
  model::ModelRun run;
  const model::ModelStart start = model::prepare_model_run(model, run);
  const double load_cpu = bench::cpu_seconds() - c0;
  const double cpu = bench::run_model_timed(run, start, timing, false);
  const SimulationResult& r = run.result;
  const auto mode_name = [&](ModeId m) { return run.system.modes()[static_cast<size_t>(m)].name; };
  nlohmann::json impacts = nlohmann::json::array(), events = nlohmann::json::array();
  double lowest = std::min(lowest_corner(start.x0), lowest_corner(r.x_final));
  for (long i = 0; i < r.events.size(); ++i) {
    const EventRecord& ev = r.events[i];
    if (ev.observation) continue;
    const std::string g = guard_name(run.system, ev);
    const double e_after = energy(r.events.x_after(i));
    const double low =
        std::min(lowest_corner(r.events.x_before(i)), lowest_corner(r.events.x_after(i)));
    lowest = std::min(lowest, low);
    events.push_back({{"t", ev.t},
                      {"guard", g},
                      {"mode_after", mode_name(ev.mode_after)},
                      {"energy", e_after},
                      {"lowest_corner", low},
                      {"chained", ev.chained}});
    if (g.rfind("impact:", 0) == 0) {
      // chained: fired at the same instant as the previous event (the other corner's guard
      // right after an impact's reset); the comparison keeps such impacts apart
      impacts.push_back({{"t", ev.t},
                         {"corner", g.substr(7)},
                         {"energy", e_after},
                         {"energy_change", e_after - energy(r.events.x_before(i))},
                         {"chained", ev.chained}});
    }
  }
  char setting[80];
  std::snprintf(setting, sizeof setting, "rtol=%.0e,atol=%.0e,handover=%.0e", rtol, 1e-2 * rtol,
                handover);
  nlohmann::json line;
  line["tool"] = "saltus";
  line["setting"] = setting;
  line["rtol"] = rtol;
  line["law"] = law;
  line["handover_tolerance"] = handover;
  line["status"] = run.status();
  line["message"] = run.message();
  line["t_final"] = r.t_final;
  line["final_mode"] = mode_name(r.final_mode);
  line["impacts"] = impacts;
  line["events"] = events;
  line["settle_t"] = events.empty() ? 0.0 : events.back()["t"].get<double>();
  line["energy_end"] = energy(r.x_final);
  line["state_end"] = std::vector<double>(r.x_final.data(), r.x_final.data() + r.x_final.size());
  line["min_gap"] = lowest;
  line["steps"] = r.summary.stepper.accepted_steps;
  line["cpu_s"] = cpu;
  line["load_cpu_s"] = load_cpu;
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  std::string law = "routh_newton";
  double t_end = 2.0;
  std::vector<std::pair<double, double>> runs = {{1e-10, 1e-4}, {1e-12, 1e-4}, {1e-12, 1e-7}};
  bool timing = true, ok = true;
  for (int i = 1; i < argc && ok; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--law" && has_value) {
      law = argv[++i];
    } else if (a == "--t-end" && has_value) {
      t_end = std::atof(argv[++i]);
    } else if (a == "--runs" && has_value) {
      runs = parse_runs(argv[++i]);
      ok = !runs.empty();
    } else if (a == "--no-timing") {
      timing = false;
    } else {
      ok = false;
    }
  }
  if (!ok) {
    std::fprintf(stderr,
                 "usage: %s [--law L] [--t-end T] [--runs RTOL:HANDOVER,...] [--no-timing]\n",
                 argv[0]);
    return 2;
  }
  for (const auto& [rtol, handover] : runs) {
    std::printf("%s\n", run_once(law, t_end, rtol, handover, timing).dump().c_str());
    std::fflush(stdout);
  }
  return 0;
}
