// saltus side of the cube drop with friction against Siconos Moreau-Jean (fc3d) and MuJoCo (issue
// 48; peers: bench/peers/siconos_cube.py, bench/peers/mujoco_cube.c; all three run by
// bench/run_cube_bench.sh, tables by bench/compare_cube.py).
//
//   cube_drop_bench [--rtols R,...] [--t-end T] [--rest-rel F] [--sample DT] [--no-timing]
//
// models/cube_drop_friction.toml as it is (a = 0.1, m = 1, mu = 0.5, e = 0.5, quaternion of the
// ZXZ angles (0.1, 0.7, 0.4), centre at z = 0.5) with the solver's rtol (atol = 1e-2 rtol, as
// the other JSON-lines benches) and t_end set by overrides (the strings `saltus run --set`
// takes). Per rtol one JSON line:
// - every impact (guard impact:cK): time, corner, chained, the reset's outputs (impulse_t =
//   |P_T|, impulse_n = P_N, energy_change) and the body's linear impulse m (v+ - v-) (for a
//   single-corner impact = (P_Tx, P_Ty, P_N) of that corner), the corner's normal velocity before;
// - rest_t = the time of the last event (no event follows: the final mode keeps every closed
//   contact sticking), with final_mode, final_all_stick and, from the observation run, how far
//   any corner moves after rest_t and its largest speed there (both should be round-off);
// - rest_t_threshold = the peers' definition applied to saltus's trajectory: the first sample
//   from which every corner speed |v + w x (R p)| stays below rest_rel (1e-3) x |v_N-| of the
//   first impact until t_end (resolution: --sample, 1e-5 s);
// - the state and the centre at t_end, status, steps, events;
// - cpu_s: the CPU time (CLOCK_PROCESS_CPUTIME_ID) of one run as `saltus run` runs it (bridged
//   when the model is: simulate_model_run; the model loaded and its system built before, one
//   untimed run first; bench/model_run_timing.hpp), load_cpu_s that of loading and building.
// The observation needs dense samples: a second, untimed run of the same model with
// output.sample_interval = --sample (the timed run keeps the file's 1e-3 s, as `saltus run`);
// sampling does not move the steps, which observe_event_diff checks (max |t| difference over
// the events of the two runs, and whether their counts agree).

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "model_run_timing.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/sim/simulator.hpp"

namespace {

using namespace saltus;

// State layout of models/cube_drop_friction.toml: x, y, z, q0..q3, then their derivatives.
constexpr int kNx = 14, kQ = 3, kV = 7, kQd = 10;

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

double parameter(const model::Model& m, const std::string& name) {
  for (const model::Quantity& p : m.parameters) {
    if (p.name == name) return p.value;
  }
  return kNaN;
}

struct Corners {
  double a = kNaN;
  // corner k (c1..c8) in body axes: x changes fastest, then y, then z (the model's order)
  Eigen::Vector3d body(int k) const {
    return {(k & 1) ? a : -a, (k & 2) ? a : -a, (k & 4) ? a : -a};
  }
};

// Rotation (body to world) of the quaternion (w, x, y, z), normalised.
Eigen::Matrix3d rotation(ConstVectorRef s) {
  return Eigen::Quaterniond(s[kQ], s[kQ + 1], s[kQ + 2], s[kQ + 3]).normalized().toRotationMatrix();
}

// World angular velocity w = 2 qdot q* (vector part), for a unit q.
Eigen::Vector3d omega_world(ConstVectorRef s) {
  const Eigen::Quaterniond q(s[kQ], s[kQ + 1], s[kQ + 2], s[kQ + 3]);
  const Eigen::Quaterniond qd(s[kQd], s[kQd + 1], s[kQd + 2], s[kQd + 3]);
  return 2.0 * (qd * q.conjugate()).vec();
}

Eigen::Vector3d corner_position(const Corners& c, ConstVectorRef s, int k) {
  return Eigen::Vector3d(s[0], s[1], s[2]) + rotation(s) * c.body(k);
}

Eigen::Vector3d corner_velocity(const Corners& c, ConstVectorRef s, int k) {
  return Eigen::Vector3d(s[kV], s[kV + 1], s[kV + 2]) +
         omega_world(s).cross(rotation(s) * c.body(k));
}

double max_corner_speed(const Corners& c, ConstVectorRef s) {
  double best = 0.0;
  for (int k = 0; k < 8; ++k) best = std::max(best, corner_velocity(c, s, k).norm());
  return best;
}

std::string guard_name(const HybridSystem& sys, const EventRecord& r) {
  if (const char* kind = record_kind_name(r)) return kind;
  return sys.modes()[static_cast<size_t>(r.mode_before)].guards[static_cast<size_t>(r.guard)].name;
}

std::string mode_name(const model::ModelRun& run, ModeId m) {
  if (m >= 0) return run.system.modes()[static_cast<size_t>(m)].name;
  const long k = kNoMode - 1 - m;  // a layer's mode (event_log.hpp layer_mode)
  const auto& names = run.result.layer_mode_names;
  return k >= 0 && k < static_cast<long>(names.size()) ? names[static_cast<size_t>(k)] : "none";
}

// "stick:c5&stick:c8": every closed contact of the mode sticks.
bool all_stick(const std::string& mode) {
  size_t from = 0;
  while (from <= mode.size()) {
    const size_t to = std::min(mode.find('&', from), mode.size());
    if (mode.compare(from, 6, "stick:") != 0) return false;
    from = to + 1;
  }
  return true;
}

std::vector<double> to_vector(ConstVectorRef v) {
  return std::vector<double>(v.data(), v.data() + v.size());
}

model::Model load(double rtol, double t_end, double sample) {
  const std::string file = std::string(SALTUS_MODELS_DIR) + "/cube_drop_friction.toml";
  std::vector<std::string> sets = {setting("solver.t_end", t_end), setting("solver.rtol", rtol),
                                   setting("solver.atol", 1e-2 * rtol)};
  if (sample > 0.0) sets.push_back(setting("output.sample_interval", sample));
  return model::load_model_file(file, sets);
}

// What the densely sampled run shows after the impacts: the threshold rest time, and how far
// the corners move after the last event.
struct Observed {
  double rest_t_threshold = kNaN, moved_after_rest = kNaN, speed_after_rest = kNaN;
  double event_diff = kNaN;
  bool same_event_count = false;
};

Observed observe(double rtol, double t_end, double sample, const Corners& c, double threshold,
                 const SimulationResult& timed) {
  model::ModelRun run =
      model::run_model(std::make_shared<const model::Model>(load(rtol, t_end, sample)));
  const SimulationResult& r = run.result;
  Observed o;
  o.same_event_count = r.events.size() == timed.events.size();
  o.event_diff = 0.0;
  for (long i = 0; i < std::min(r.events.size(), timed.events.size()); ++i) {
    o.event_diff = std::max(o.event_diff, std::abs(r.events[i].t - timed.events[i].t));
  }
  // the peers' rest time: the sample after the last one with a corner at or above threshold
  const Trajectory& tr = r.trajectory;
  long last_moving = -1;
  for (long i = 0; i < tr.size(); ++i) {
    if (max_corner_speed(c, tr.x(i).head(kNx)) >= threshold) last_moving = i;
  }
  if (max_corner_speed(c, r.x_final) < threshold && last_moving + 1 < tr.size()) {
    o.rest_t_threshold = tr.t(last_moving + 1);
  }
  // after the last event: corner displacement from the state it left, and corner speeds
  long last = r.events.size() - 1;
  while (last >= 0 && r.events[last].observation) --last;
  if (last >= 0) {
    const double t_rest = r.events[last].t;
    const auto x_rest = r.events.x_after(last);
    o.moved_after_rest = o.speed_after_rest = 0.0;
    for (long i = 0; i < tr.size(); ++i) {
      if (tr.t(i) <= t_rest) continue;
      const auto s = tr.x(i).head(kNx);
      for (int k = 0; k < 8; ++k) {
        o.moved_after_rest = std::max(
            o.moved_after_rest, (corner_position(c, s, k) - corner_position(c, x_rest, k)).norm());
      }
      o.speed_after_rest = std::max(o.speed_after_rest, max_corner_speed(c, s));
    }
  }
  return o;
}

// One run at rtol: its JSON line.
nlohmann::json run_once(double rtol, double t_end, double rest_rel, double sample, bool timing) {
  const double c0 = bench::cpu_seconds();
  auto model = std::make_shared<const model::Model>(load(rtol, t_end, 0.0));
  model::ModelRun run;
  const model::ModelStart start = model::prepare_model_run(model, run);
  const double load_cpu = bench::cpu_seconds() - c0;
  const bool bridged = model::runs_bridged(run, start);
  const double cpu = bench::run_model_timed(run, start, timing, bridged);
  const SimulationResult& r = run.result;
  if (r.x_final.size() != kNx) {
    throw std::runtime_error("cube_drop_bench: the model's state is not (x, y, z, q, their rates)");
  }
  const Corners c{parameter(*model, "a")};
  const double mass = parameter(*model, "m");

  nlohmann::json impacts = nlohmann::json::array();
  double first_vn = kNaN, rest_t = 0.0;
  long n_events = 0;
  for (long i = 0; i < r.events.size(); ++i) {
    const EventRecord& ev = r.events[i];
    if (ev.observation) continue;
    ++n_events;
    rest_t = ev.t;
    const std::string g = guard_name(run.system, ev);
    if (g.rfind("impact:", 0) != 0) continue;
    const auto xb = r.events.x_before(i), xa = r.events.x_after(i);
    const int k = std::atoi(g.c_str() + 8) - 1;  // "impact:cK"
    const double vn = k >= 0 && k < 8 ? corner_velocity(c, xb, k)[2] : kNaN;
    if (std::isnan(first_vn)) first_vn = vn;
    nlohmann::json e = {{"t", ev.t},
                        {"corner", g.substr(7)},
                        {"chained", ev.chained},
                        {"mode_after", mode_name(run, ev.mode_after)},
                        {"vN_before", vn},
                        {"linear_impulse",
                         {mass * (xa[kV] - xb[kV]), mass * (xa[kV + 1] - xb[kV + 1]),
                          mass * (xa[kV + 2] - xb[kV + 2])}}};
    const auto& names = run.system.modes()[static_cast<size_t>(ev.mode_before)]
                            .guards[static_cast<size_t>(ev.guard)]
                            .reset.output_names;
    const auto out = r.events.outputs(i);  // impulse_t, impulse_n, energy_change
    for (size_t n = 0; n < names.size() && static_cast<long>(n) < out.size(); ++n) {
      e[names[n]] = out[static_cast<long>(n)];
    }
    impacts.push_back(e);
  }
  const double threshold = rest_rel * std::abs(first_vn);
  const Observed o = observe(rtol, t_end, sample, c, threshold, r);

  char name[80];
  std::snprintf(name, sizeof name, "rtol=%.0e,atol=%.0e", rtol, 1e-2 * rtol);
  const std::string final_mode = mode_name(run, r.final_mode);
  nlohmann::json line;
  line["tool"] = "saltus";
  line["setting"] = name;
  line["rtol"] = rtol;
  line["atol"] = 1e-2 * rtol;
  line["bridged"] = bridged;
  line["status"] = run.status();
  line["message"] = run.message();
  line["t_final"] = r.t_final;
  line["impacts"] = impacts;
  line["events"] = n_events;
  line["rest_t"] = rest_t;
  line["final_mode"] = final_mode;
  line["final_all_stick"] = all_stick(final_mode);
  line["moved_after_rest"] = o.moved_after_rest;
  line["max_corner_speed_after_rest"] = o.speed_after_rest;
  line["rest_rel"] = rest_rel;
  line["rest_threshold"] = threshold;
  line["rest_t_threshold"] = o.rest_t_threshold;
  line["sample"] = sample;
  line["observe_event_diff"] = o.event_diff;
  line["observe_same_event_count"] = o.same_event_count;
  line["state_end"] = to_vector(r.x_final);
  line["centre_end"] = {r.x_final[0], r.x_final[1], r.x_final[2]};
  line["max_corner_speed_end"] = max_corner_speed(c, r.x_final);
  line["steps"] = r.summary.stepper.accepted_steps;
  line["cpu_s"] = cpu;
  line["load_cpu_s"] = load_cpu;
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<double> rtols = {1e-8, 1e-10, 1e-12};
  double t_end = 1.5, rest_rel = 1e-3, sample = 1e-5;
  bool timing = true, ok = true;
  for (int i = 1; i < argc && ok; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--rtols" && has_value) {
      rtols = parse_list(argv[++i]);
      ok = !rtols.empty();
    } else if (a == "--t-end" && has_value) {
      t_end = std::atof(argv[++i]);
    } else if (a == "--rest-rel" && has_value) {
      rest_rel = std::atof(argv[++i]);
    } else if (a == "--sample" && has_value) {
      sample = std::atof(argv[++i]);
      ok = sample > 0.0;
    } else if (a == "--no-timing") {
      timing = false;
    } else {
      ok = false;
    }
  }
  if (!ok) {
    std::fprintf(stderr,
                 "usage: %s [--rtols R,...] [--t-end T] [--rest-rel F] [--sample DT] "
                 "[--no-timing]\n",
                 argv[0]);
    return 2;
  }
  for (const double rtol : rtols) {
    std::printf("%s\n", run_once(rtol, t_end, rest_rel, sample, timing).dump().c_str());
    std::fflush(stdout);
  }
  return 0;
}
