#!/usr/bin/env bash
# Runs the saltus LCP benchmark (bench/lcp_bench.cpp) and the Siconos peer
# (bench/peers/siconos_lcp.py) on the same problems in one run, and prints a table with the
# ratio Siconos / saltus (> 1: saltus faster). Needs a built lcp_bench (Release) in
# ${SALTUS_BUILD_DIR:-build} and Debian's python3-siconos.
# Usage: bench/run_lcp_bench.sh [--quick]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
exe="$build/bench/lcp_bench"
[[ -x "$exe" ]] || { echo "run_lcp_bench: $exe not found; build target lcp_bench first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
min_time=0.5
[[ "${1:-}" == "--quick" ]] && min_time=0.1
"$exe" --benchmark_min_time="$min_time" --benchmark_format=json >"$tmp/saltus.json"
/usr/bin/python3 "$root/bench/peers/siconos_lcp.py" ${1:-} >"$tmp/siconos.jsonl"
/usr/bin/python3 - "$tmp/saltus.json" "$tmp/siconos.jsonl" <<'PY'
import json, sys
saltus = json.load(open(sys.argv[1]))
peer = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
ours = {}
for b in saltus["benchmarks"]:
    name, n = b["name"].split("/")[:2]
    ours[(name, int(n))] = b
overhead = peer[0]["overhead_us"] if peer else float("nan")
print(f"Siconos binding: a trivial solve (q >= 0) costs {overhead:.3f} us per call from Python")
print()
print("| n | saltus Lemke (us) | pivots | Siconos lexicolemke (us) | ratio Siconos/saltus |"
      " saltus enum (us) | Siconos enum (us) | Siconos PGS 1e-12 (us) | z checksum equal |")
print("|---|---|---|---|---|---|---|---|---|")
for n in (2, 4, 8, 16, 32):
    lem = ours[("BM_LemkeSaltus", n)]
    t = lem["real_time"]  # microseconds (Unit kMicrosecond)
    p = {r["solver"]: r for r in peer if r["n"] == n}
    sic = p["lexicolemke"]["time_us"]
    en = ours.get(("BM_EnumerationSaltus", n))
    en_s = f"{en['real_time']:.2f}" if en else "-"
    sen = f"{p['enum']['time_us']:.2f}" if "enum" in p else "-"
    same = abs(lem["z_checksum"] - p["lexicolemke"]["z_checksum"]) <= 1e-10 * abs(lem["z_checksum"])
    print(f"| {n} | {t:.3f} | {lem['pivots']:.2f} | {sic:.3f} | {sic / t:.2f} | {en_s} | {sen} |"
          f" {p['pgs']['time_us']:.2f} | {'yes' if same else 'NO'} |")
PY
