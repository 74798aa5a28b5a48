// saltus side of the Frictional Bounce Model comparison with Siconos (issue 32 item 4(b); peer:
// bench/peers/siconos_fbm.py, both run by bench/run_fbm_bench.sh).
//
//   fbm_bench [--v-b V,...] [--t-end T] [--rtols R,...] [--set K=V]... [--no-timing]
//             [--state-at T0] [--bridged]
//
// models/frictional_bounce.toml with v_b and the solver's rtol (atol = 1e-2 rtol) set by
// overrides (the strings `saltus run --set` takes; --set adds more, e.g. contacts.tip.law=...).
// For each (v_b, rtol) one JSON line: every landing (impact:tip: time, impulses (P_T, P_N) and the
// velocities after it), every impact without collision (painleve:tip, Lecornu), the lift-offs, the
// apexes (the model's `apex` section in mode free), the status and message, the state at the end,
// the accepted steps, and the CPU time of one run: CLOCK_PROCESS_CPUTIME_ID around Simulator::run
// only (the model loaded and its hybrid system built before; one Simulator reused, after one
// untimed run), and separately the CPU time of loading the file and building the system. Each
// landing also has the state before it and the Painleve coefficient of its slip there,
// B = 1/m + L^2 (cos^2 th + mu s sin th cos th) / J with s = sign of the tip's sliding speed
// x' + L sin th th' (FORMULAS.md 11.1 for this geometry): B < 0 is a Painleve landing (its first
// slip phase has dv_n/dP_n < 0).
// --state-at T0: instead, one line per v_b with the state at T0 of the run at the smallest rtol
// ({"tool": "saltus", "v_b", "rtol", "t", "state"}; the start of bench/peers/siconos_fbm.py
// --start, so that both resolve a landing from the same state).
// --bridged: each run as `saltus run` runs it, through lift-offs and Moreau-Jean stretches where
// the event-driven run stops (bridge/bridged_run.hpp; the Painleve points of mu > mu_P): the CPU
// time is then that of simulate_model_run (a Simulator built per run), a stretch that ends in
// `free` counts as a lift-off at its start, as does a painleve-lift-off record, and the line lists
// the stretches (t_start, t_end, reason) and the Painleve points (the lift-off records' times and
// the painleve stretches' starts).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model_run_timing.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/sim/simulator.hpp"

namespace {

using namespace saltus;

std::vector<double> parse_list(const char* list) {
  std::vector<double> out;
  const char* p = list;
  while (*p != '\0') {
    char* end = nullptr;
    const double v = std::strtod(p, &end);
    if (end == p || (*end != ',' && *end != '\0')) return {};
    out.push_back(v);
    p = *end == ',' ? end + 1 : end;
  }
  return out;
}

std::string setting(const char* key, double v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s=%.17g", key, v);
  return buf;
}

std::string guard_name(const HybridSystem& sys, const EventRecord& r) {
  if (const char* kind = record_kind_name(r)) return kind;
  return sys.modes()[static_cast<size_t>(r.mode_before)].guards[static_cast<size_t>(r.guard)].name;
}

std::vector<double> velocities(ConstVectorRef x) {
  return {x[3], x[4], x[5]};
}

double parameter(const model::Model& m, const std::string& name) {
  for (const model::Quantity& p : m.parameters) {
    if (p.name == name) return p.value;
  }
  return kNaN;
}

// The Painleve coefficient of the tip's slip at state x (x, y, th, x', y', th').
double painleve_B(const model::Model& m, ConstVectorRef x) {
  const double L = parameter(m, "L"), J = parameter(m, "J"), mu = parameter(m, "mu");
  const double c = std::cos(x[2]), sn = std::sin(x[2]);
  const double s = x[3] + L * sn * x[5] > 0.0 ? 1.0 : -1.0;
  return 1.0 / parameter(m, "m") + L * L * (c * c + mu * s * sn * c) / J;
}

model::Model load(double v_b, double t_end, double rtol, const std::vector<std::string>& extra) {
  const std::string file = std::string(SALTUS_MODELS_DIR) + "/frictional_bounce.toml";
  std::vector<std::string> sets = {setting("v_b", v_b), setting("solver.t_end", t_end),
                                   setting("solver.rtol", rtol),
                                   setting("solver.atol", 1e-2 * rtol)};
  sets.insert(sets.end(), extra.begin(), extra.end());
  return model::load_model_file(file, sets);
}

nlohmann::json state_at(double v_b, double t0, double rtol, const std::vector<std::string>& extra) {
  model::ModelRun run =
      model::run_model(std::make_shared<const model::Model>(load(v_b, t0, rtol, extra)));
  const Vector& x = run.result.x_final;
  return {{"tool", "saltus"},       {"v_b", v_b},
          {"rtol", rtol},           {"t", run.result.t_final},
          {"status", run.status()}, {"state", std::vector<double>(x.data(), x.data() + x.size())}};
}

nlohmann::json run_once(double v_b, double t_end, double rtol,
                        const std::vector<std::string>& extra, bool timing, bool bridged) {
  const double c0 = bench::cpu_seconds();
  auto model = std::make_shared<const model::Model>(load(v_b, t_end, rtol, extra));
  model::ModelRun run;
  const model::ModelStart start = model::prepare_model_run(model, run);
  const double load_cpu = bench::cpu_seconds() - c0;
  const double cpu = bench::run_model_timed(run, start, timing, bridged);
  const SimulationResult& r = run.result;
  const auto mode_name = [&](ModeId m) { return run.system.modes()[static_cast<size_t>(m)].name; };
  nlohmann::json landings = nlohmann::json::array(), lecornu = nlohmann::json::array();
  std::vector<double> liftoffs, apexes, painleve_points;
  double stretch_start = kNaN;
  for (long i = 0; i < r.events.size(); ++i) {
    const EventRecord& ev = r.events[i];
    const std::string g = guard_name(run.system, ev);
    if (g == "apex") {
      if (mode_name(ev.mode_before) == "free") apexes.push_back(ev.t);
      continue;
    }
    // A stretch that ends in free lifted the tip off where it started (the Painleve point); so
    // does the lift-off choice, at once.
    if (g == "bridge-start") stretch_start = ev.t;
    if (g == "lift-off:tip") liftoffs.push_back(ev.t);
    if (g == "bridge-end" && mode_name(ev.mode_after) == "free") liftoffs.push_back(stretch_start);
    if (g == "painleve-lift-off") {
      liftoffs.push_back(ev.t);
      painleve_points.push_back(ev.t);
    }
    if (g == "impact:tip" || g == "painleve:tip") {
      const auto out = r.events.outputs(i);  // impulse_t, impulse_n, energy_change
      nlohmann::json e = {{"t", ev.t},
                          {"P_T", out[0]},
                          {"P_N", out[1]},
                          {"energy_change", out[2]},
                          {"mode_after", mode_name(ev.mode_after)},
                          {"B", painleve_B(*model, r.events.x_before(i))},
                          {"v_before", velocities(r.events.x_before(i))},
                          {"v_after", velocities(r.events.x_after(i))}};
      (g == "impact:tip" ? landings : lecornu).push_back(e);
    }
  }
  nlohmann::json line;
  line["tool"] = "saltus";
  line["v_b"] = v_b;
  line["rtol"] = rtol;
  line["sets"] = extra;
  line["status"] = run.status();
  line["message"] = run.message();
  line["t_final"] = r.t_final;
  line["landings"] = landings;
  line["lecornu"] = lecornu;
  line["liftoffs"] = liftoffs;
  line["apexes"] = apexes;
  line["state_end"] = std::vector<double>(r.x_final.data(), r.x_final.data() + r.x_final.size());
  line["steps"] = r.summary.stepper.accepted_steps;
  line["events"] = r.events.size();
  nlohmann::json stretches = nlohmann::json::array();
  for (const bridge::BridgeStretch& s : run.bridge_log.stretches) {
    stretches.push_back({{"t_start", s.t_start}, {"t_end", s.t_end}, {"reason", s.reason}});
    if (s.reason == "painleve") painleve_points.push_back(s.t_start);
  }
  std::sort(painleve_points.begin(), painleve_points.end());
  line["stretches"] = stretches;
  line["painleve_points"] = painleve_points;
  line["cpu_s"] = cpu;
  line["load_cpu_s"] = load_cpu;
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<double> v_bs = {1.0, 1.5}, rtols = {1e-8, 1e-10, 1e-12};
  std::vector<std::string> extra;
  double t_end = 2.0, at = kNaN;
  bool timing = true, bridged = false, ok = true;
  for (int i = 1; i < argc && ok; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--v-b" && has_value) {
      v_bs = parse_list(argv[++i]);
      ok = !v_bs.empty();
    } else if (a == "--rtols" && has_value) {
      rtols = parse_list(argv[++i]);
      ok = !rtols.empty();
    } else if (a == "--t-end" && has_value) {
      t_end = std::atof(argv[++i]);
    } else if (a == "--set" && has_value) {
      extra.emplace_back(argv[++i]);
    } else if (a == "--state-at" && has_value) {
      at = std::atof(argv[++i]);
    } else if (a == "--no-timing") {
      timing = false;
    } else if (a == "--bridged") {
      bridged = true;
    } else {
      ok = false;
    }
  }
  if (!ok) {
    std::fprintf(stderr,
                 "usage: %s [--v-b V,...] [--t-end T] [--rtols R,...] [--set K=V]... "
                 "[--no-timing] [--state-at T0] [--bridged]\n",
                 argv[0]);
    return 2;
  }
  if (!std::isnan(at)) {
    const double rtol = *std::min_element(rtols.begin(), rtols.end());
    for (const double v_b : v_bs)
      std::printf("%s\n", state_at(v_b, at, rtol, extra).dump().c_str());
    return 0;
  }
  for (const double v_b : v_bs) {
    for (const double rtol : rtols) {
      try {
        std::printf("%s\n", run_once(v_b, t_end, rtol, extra, timing, bridged).dump().c_str());
      } catch (const std::exception& e) {
        const nlohmann::json line = {
            {"tool", "saltus"}, {"v_b", v_b}, {"rtol", rtol}, {"error", e.what()}};
        std::printf("%s\n", line.dump().c_str());
      }
      std::fflush(stdout);
    }
  }
  return 0;
}
