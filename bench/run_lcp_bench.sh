#!/usr/bin/env bash
# Runs the saltus LCP benchmark (bench/lcp_bench.cpp) and the Siconos peers on the same
# problems, alternating them REPEATS times (interleaved, so that load on a shared machine hits
# all alike): bench/peers/siconos_lcp_bench.cpp (Siconos' C API, in-process like saltus; built
# here with g++ -O3 -DNDEBUG, the Release flags) and bench/peers/siconos_lcp.py (the Python
# binding: enumeration, and the binding's overhead). Each run keeps its best of 5 passes
# (Google Benchmark: 5 repetitions; Python: 5 timed passes), and the tables give the medians
# of those over the repeats with the ratio Siconos / saltus (> 1: saltus faster) and the range
# of the per-repeat ratios, on wall time and on CPU time (on a loaded machine wall time also
# counts time spent descheduled). Needs a built lcp_bench (Release) in
# ${SALTUS_BUILD_DIR:-build} and Debian's python3-siconos and libsiconos-numerics-dev
# (SALTUS_WITH_PEERS=1 bash scripts/install_deps.sh).
# Usage: bench/run_lcp_bench.sh [--quick]     (SALTUS_BENCH_REPEATS, default 5)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
exe="$build/bench/lcp_bench"
[[ -x "$exe" ]] || { echo "run_lcp_bench: $exe not found; build target lcp_bench first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
peer="$tmp/siconos_lcp_bench"
[[ -f /usr/include/siconos/numerics/LCP_Solvers.h ]] || {
  echo "run_lcp_bench: Siconos' C headers not found; SALTUS_WITH_PEERS=1 bash scripts/install_deps.sh" >&2
  exit 1
}
g++ -std=c++17 -O3 -DNDEBUG -Wall -Wextra -Werror -isystem /usr/include/siconos \
  -isystem /usr/include/siconos/numerics "$root/bench/peers/siconos_lcp_bench.cpp" -o "$peer" \
  -lsiconos_numerics -lbenchmark -lpthread
repeats=${SALTUS_BENCH_REPEATS:-5}
min_time=0.5
[[ "${1:-}" == "--quick" ]] && min_time=0.1
for ((r = 0; r < repeats; ++r)); do
  # 5 repetitions, best kept below: the same statistic as the peer's "best of 5 passes".
  "$exe" --benchmark_min_time="$min_time" --benchmark_repetitions=5 \
    --benchmark_report_aggregates_only=false --benchmark_format=json >"$tmp/saltus_$r.json"
  "$peer" --benchmark_min_time="$min_time" --benchmark_repetitions=5 \
    --benchmark_report_aggregates_only=false --benchmark_format=json >"$tmp/siconos_c_$r.json"
  /usr/bin/python3 "$root/bench/peers/siconos_lcp.py" ${1:-} >"$tmp/siconos_$r.jsonl"
done
/usr/bin/python3 - "$tmp" "$repeats" <<'PY'
import json, statistics, sys
tmp, repeats = sys.argv[1], int(sys.argv[2])
ours, peer, peer_c = [], [], []  # per repeat: {(name, n): benchmark}, {(solver, n): record}
def best_of(path, clock):
    best = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue  # aggregates (mean, median, stddev)
        key = (b["name"].split("/")[0], int(b["name"].split("/")[1]))
        if key not in best or b[clock] < best[key][clock]:
            best[key] = b
    return best
for r in range(repeats):
    ours.append(best_of(f"{tmp}/saltus_{r}.json", "real_time"))
    peer_c.append({clock: best_of(f"{tmp}/siconos_c_{r}.json", clock)
                   for clock in ("real_time", "cpu_time")})
    ours[-1]["cpu"] = best_of(f"{tmp}/saltus_{r}.json", "cpu_time")
    recs = [json.loads(l) for l in open(f"{tmp}/siconos_{r}.jsonl") if l.strip()]
    peer.append({(p["solver"], p["n"]): p for p in recs})
med = statistics.median
def ours_time(name, n):
    return [o[(name, n)]["real_time"] for o in ours if (name, n) in o]  # microseconds
def ours_clock(clock, n):
    src = (lambda o: o) if clock == "real_time" else (lambda o: o["cpu"])
    return [src(o)[("BM_LemkeSaltus", n)][clock] for o in ours]
def peer_c_time(clock, n):
    return [p[clock][("BM_LemkeSiconos", n)][clock] for p in peer_c]
def peer_time(solver, n):
    return [p[(solver, n)]["time_us"] for p in peer if (solver, n) in p]
overhead = med([p[("lexicolemke", 2)]["overhead_us"] for p in peer])
print(f"{repeats} interleaved repeats; medians. Siconos binding: a trivial solve (q >= 0) costs"
      f" {overhead:.3f} us per call from Python (included in its times)")
print()
print("| n | saltus Lemke (us) | pivots | Siconos lexicolemke (us) | ratio Siconos/saltus |"
      " per-repeat ratios | saltus enum (us) | Siconos enum (us) | z checksum equal |")
print("|---|---|---|---|---|---|---|---|---|")
for n in (2, 4, 8, 16, 32):
    t, s = ours_time("BM_LemkeSaltus", n), peer_time("lexicolemke", n)
    ratios = sorted(b / a for a, b in zip(t, s))
    lem = ours[0][("BM_LemkeSaltus", n)]
    p0 = peer[0][("lexicolemke", n)]
    same = abs(lem["z_checksum"] - p0["z_checksum"]) <= 1e-10 * abs(lem["z_checksum"])
    en, sen = ours_time("BM_EnumerationSaltus", n), peer_time("enum", n)
    en_s = f"{med(en):.2f}" if en else "-"
    sen_s = f"{med(sen):.2f}" if sen else "-"
    print(f"| {n} | {med(t):.3f} | {lem['pivots']:.2f} | {med(s):.3f} | {med(s) / med(t):.2f} |"
          f" {ratios[0]:.2f}-{ratios[-1]:.2f} | {en_s} | {sen_s} | {'yes' if same else 'NO'} |")
print()
print("Siconos lcp_lexicolemke through its C API (bench/peers/siconos_lcp_bench.cpp), in-process"
      " like saltus: medians (us) of the per-repeat best of 5, wall and CPU time")
print()
print("| n | saltus wall | Siconos C wall | ratio | per-repeat ratios | saltus CPU | Siconos C CPU |"
      " ratio | per-repeat ratios | z checksum equal |")
print("|---|---|---|---|---|---|---|---|---|---|")
for n in (2, 4, 8, 16, 32):
    cells = []
    for clock in ("real_time", "cpu_time"):
        t, s = ours_clock(clock, n), peer_c_time(clock, n)
        ratios = sorted(b / a for a, b in zip(t, s))
        cells.append(f"{med(t):.3f} | {med(s):.3f} | {med(s) / med(t):.2f} |"
                     f" {ratios[0]:.2f}-{ratios[-1]:.2f}")
    lem = ours[0][("BM_LemkeSaltus", n)]["z_checksum"]
    sic = peer_c[0]["real_time"][("BM_LemkeSiconos", n)]["z_checksum"]
    same = abs(lem - sic) <= 1e-10 * abs(lem)
    print(f"| {n} | " + " | ".join(cells) + f" | {'yes' if same else 'NO'} |")
print()
print("What the parts cost (saltus, medians, us): n | default | no equilibration | no refinement")
for n in (2, 4, 8):
    cols = [ours_time(name, n) for name in
            ("BM_LemkeSaltus", "BM_LemkeSaltusNoEquilibration", "BM_LemkeSaltusNoRefinement")]
    print(f"| {n} | " + " | ".join(f"{med(c):.3f}" if c else "-" for c in cols) + " |")
PY
