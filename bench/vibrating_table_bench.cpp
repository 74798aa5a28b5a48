// saltus on N random vibrating tables (issue 43; peers: bench/vibrating_table_peers.py and
// bench/peers/vibrating_table_cvode.c, all three run by bench/run_vibrating_table_peers.sh).
//
//   vibrating_table_bench [--tables N=200] [--seed S=43] [--guard-samples K]
//
// Table k is vibrating_table_case(S, k) of tests/support/vibrating_table_reference.hpp, run as
// `saltus run models/vibrating_table.toml --set A=.. --set e=.. --set y0=.. --set v0=..` does
// (simulate_model_run) and checked flight by flight as tests/model/vibrating_table_events_test.cpp
// checks it: from the start and from the run's own state after each impact, the reference's next
// impact (table_next_impact) must be the run's next one within 1e-9 s. A table has a miss when a
// flight's impact is missing or later (missed), earlier or extra (spurious), or the run ends other
// than at t_end or a Zeno point (failed). Comparison stops where the reference cannot decide
// (a graze) or where its next impact is at or past the run's end (its Zeno point); a run's last
// impact there that is off by > 1e-9 s is printed as a note, not counted (the test skips it). CPU:
// process CPU time of simulate_model_run alone (models loaded and built before; after the checked
// run, which warms up), summed over the tables, median of 5 repeats of the whole ensemble; per
// impact: over the impacts the runs located.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "model_run_timing.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/vibrating_table_reference.hpp"

namespace {

using namespace saltus;
using testing::TableCrossing;
using testing::VibratingTableCase;

std::string setting(const char* key, double v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s=%.17g", key, v);
  return buf;
}

struct Table {
  VibratingTableCase c;
  model::ModelRun run;
  model::ModelStart start;
};

// Flight by flight as the test; "" when every checked flight is right, else what went wrong.
std::string check(long k, const Table& tb, long& checked) {
  const VibratingTableCase& c = tb.c;
  const SimulationResult& res = tb.run.result;
  char buf[160];
  if (res.summary.termination != Termination::EndTimeReached &&
      res.summary.termination != Termination::Zeno) {
    return "failed: " + tb.run.message();
  }
  const EventLog& log = res.events;
  double t = c.t0, y = c.y0, v = c.v0;
  for (long next = 0, flight = 0;; ++next, ++flight) {
    const TableCrossing ref = testing::table_next_impact(c.A, c.w, c.g, t, y, v, c.t_end);
    while (next < log.size() && log[next].guard < 0) ++next;
    const bool run_has = next < log.size();
    if (ref.kind == TableCrossing::graze) return "";
    const double t_ref = t + ref.tau;
    if (ref.kind == TableCrossing::none || t_ref >= res.summary.t_final) {
      if (ref.kind == TableCrossing::none && run_has) {
        std::snprintf(buf, sizeof buf, "spurious: flight %ld from t = %.17g: run %.17g, none",
                      flight, t, log[next].t);
        return buf;
      }
      // The test does not compare an impact at the run's end (its Zeno stop): noted, not counted.
      if (run_has && std::abs(log[next].t - t_ref) > 1e-9) {
        std::printf(
            "note, table %ld: its last impact (flight %ld from t = %.17g) is at %.17g, the "
            "reference's at %.17g (not counted, as in the test)\n",
            k, flight, t, log[next].t, t_ref);
      }
      return "";
    }
    if (!run_has || std::abs(log[next].t - t_ref) > 1e-9) {
      const bool missed = !run_has || log[next].t > t_ref;
      std::snprintf(buf, sizeof buf, "%s: flight %ld from t = %.17g: reference %.17g, run %.17g",
                    missed ? "missed" : "spurious", flight, t, t_ref, run_has ? log[next].t : kNaN);
      return buf;
    }
    t = log[next].t;
    y = log.x_after(next)[0];
    v = log.x_after(next)[1];
    ++checked;
  }
}

}  // namespace

int main(int argc, char** argv) {
  long n = 200;
  unsigned long long seed = 43;
  std::vector<std::string> extra;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 < argc && a == "--tables") {
      n = std::atol(argv[++i]);
    } else if (i + 1 < argc && a == "--seed") {
      seed = std::strtoull(argv[++i], nullptr, 0);
    } else if (i + 1 < argc && a == "--guard-samples") {
      extra.push_back(std::string("solver.guard_samples=") + argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--tables N] [--seed S] [--guard-samples K]\n", argv[0]);
      return 2;
    }
  }
  const std::string file = std::string(SALTUS_MODELS_DIR) + "/vibrating_table.toml";
  std::vector<Table> tables(static_cast<size_t>(n));
  for (long k = 0; k < n; ++k) {
    Table& tb = tables[static_cast<size_t>(k)];
    tb.c = testing::vibrating_table_case(seed, static_cast<std::uint64_t>(k));
    std::vector<std::string> sets = {setting("A", tb.c.A), setting("e", tb.c.e),
                                     setting("y0", tb.c.y0), setting("v0", tb.c.v0)};
    sets.insert(sets.end(), extra.begin(), extra.end());
    tb.start = model::prepare_model_run(
        std::make_shared<const model::Model>(model::load_model_file(file, sets)), tb.run);
  }
  long with_miss = 0, checked = 0, impacts = 0, zeno = 0, enclosures = 0, guards = 0, roots = 0;
  for (long k = 0; k < n; ++k) {
    Table& tb = tables[static_cast<size_t>(k)];
    bench::run_model_timed(tb.run, tb.start, false, true);
    const SimulationSummary& s = tb.run.result.summary;
    const std::string what = check(k, tb, checked);
    if (!what.empty()) {
      ++with_miss;
      std::printf("table %ld (A %.17g, e %.17g, y0 %.17g, v0 %.17g): %s\n", k, tb.c.A, tb.c.e,
                  tb.c.y0, tb.c.v0, what.c_str());
    }
    if (!s.sampled_guards.empty()) std::printf("table %ld: guard sampled, not searched\n", k);
    for (long i = 0; i < tb.run.result.events.size(); ++i) {
      impacts += tb.run.result.events[i].guard >= 0;
    }
    zeno += s.termination == Termination::Zeno;
    enclosures += s.enclosure_evaluations;
    guards += s.guard_evaluations;
    roots += s.root_evaluations;
  }
  std::vector<double> totals;  // 5 repeats of the whole ensemble
  for (int r = 0; r < 5; ++r) {
    double total = 0.0;
    for (Table& tb : tables) {
      const double c0 = bench::cpu_seconds();
      model::simulate_model_run(tb.run, tb.start);
      total += bench::cpu_seconds() - c0;
    }
    totals.push_back(total);
  }
  std::sort(totals.begin(), totals.end());
  const double cpu = totals[2];
  std::printf("saltus, seed %llu%s%s; a miss: an impact missing, extra, or off by > 1e-9 s\n", seed,
              extra.empty() ? "" : ", ", extra.empty() ? "" : extra[0].c_str());
  std::printf(
      "| tables | runs with a miss | impacts checked | impacts located | Zeno stops | CPU ms "
      "(median of 5) | us / impact | enclosure evaluations | guard evaluations | root "
      "evaluations |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::printf("| %ld | %ld | %ld | %ld | %ld | %.2f | %.2f | %ld | %ld | %ld |\n", n, with_miss,
              checked, impacts, zeno, 1e3 * cpu,
              1e6 * cpu / static_cast<double>(std::max(impacts, 1L)), enclosures, guards, roots);
  return 0;
}
