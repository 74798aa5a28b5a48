#!/usr/bin/env bash
# Issue 12: the sleigh billiard's time-1 maps, saltus against its two anchors in the same run:
# SciPy solve_ivp DOP853 (rtol 1e-10, event restart; bench/peers/scipy_sleigh.py) and a numba
# closed-form code (bench/peers/numba_sleigh.py; Debian python3-numba, installed by
# SALTUS_WITH_PEERS=1 scripts/install_deps.sh). Same sleigh (m 1, I 0.1, a 0.3, L 0.3), table
# (A 2, B 1) and start in all three. Repeats are interleaved (saltus, numba, scipy, ...) so load
# on the machine hits all alike; prints the medians of us per map and their ratios, and each
# tool's relative energy error after its run. saltus runs as `saltus density` does (DOP853
# rtol 1e-9, energy and constraints kept by projection), on 1 thread (the ratios) and on 2; and
# the same sleigh from models/chaplygin_sleigh.toml at rtol 1e-6 (the density is the same to
# within sampling noise: bench/run_density_tolerance_check.sh), on 1 and 2 threads, with 10x the
# maps (the native tapes compile in the first ~0.3 s; amortised over 10^6 maps).
#
#   bench/run_sleigh_bench.sh [REPEATS] [MAPS] [SCIPY_MAPS]     (defaults: 5, 10000, 300)
# (the numba peer gets stuck from this start after 17464 maps: an impact found again at the
# start of its own arc; it stops and says so, failing the run)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
repeats=${1:-5}
maps=${2:-10000}
scipy_maps=${3:-300}
bash "$root/scripts/build.sh" sleigh_maps_bench >/dev/null
py=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for ((r = 0; r < repeats; ++r)); do
  "$build/bench/sleigh_maps_bench" "$maps" 1 1 1e-9 dop853 project >>"$work/saltus1.jsonl"
  "$build/bench/sleigh_maps_bench" "$maps" 2 2 1e-9 dop853 project >>"$work/saltus2.jsonl"
  "$build/bench/sleigh_maps_bench" "$((10 * maps))" 1 1 1e-6 dop853 project "$root/models/chaplygin_sleigh.toml" \
    >>"$work/file1.jsonl"
  "$build/bench/sleigh_maps_bench" "$((10 * maps))" 2 2 1e-6 dop853 project "$root/models/chaplygin_sleigh.toml" \
    >>"$work/file2.jsonl"
  "$py" "$root/bench/peers/numba_sleigh.py" "$maps" >>"$work/numba.jsonl"
  "$py" "$root/bench/peers/scipy_sleigh.py" "$scipy_maps" >>"$work/scipy.jsonl"
done
"$py" - "$work" <<'PY'
import json, statistics, sys, os
work = sys.argv[1]
rows = {}
for name in ("saltus1", "saltus2", "file1", "file2", "numba", "scipy"):
    with open(os.path.join(work, name + ".jsonl")) as f:
        rows[name] = [json.loads(line) for line in f if line.strip()]
med = {k: statistics.median(r["us_per_map"] for r in v) for k, v in rows.items()}
err = {k: max(r["energy_rel_error"] for r in v) for k, v in rows.items()}
label = {"saltus1": "saltus, 1 thread", "saltus2": "saltus, 2 threads (us per map overall)",
         "file1": "saltus, model file, rtol 1e-6, 1 thread",
         "file2": "saltus, model file, rtol 1e-6, 2 threads",
         "numba": "numba closed form", "scipy": "SciPy solve_ivp DOP853"}
for k in rows:
    print(f"{label[k]:40s} median {med[k]:10.2f} us/map  (max energy error {err[k]:.1e}; "
          f"{len(rows[k])} repeats, {rows[k][0]['maps']} maps)")
print(f"ratio numba / saltus (1 thread):  {med['numba'] / med['saltus1']:.2f}")
print(f"ratio scipy / saltus (1 thread):  {med['scipy'] / med['saltus1']:.1f}")
print(f"ratio numba / saltus (model file, rtol 1e-6, 1 thread):  {med['numba'] / med['file1']:.2f}")
print(f"ratio scipy / saltus (model file, rtol 1e-6, 1 thread):  {med['scipy'] / med['file1']:.1f}")
print(f"10^6 maps on 2 threads would take {med['saltus2']:.1f} s at this speed (target 5 s)")
print(f"10^6 maps on 2 threads, model file at rtol 1e-6: {med['file2']:.1f} s")
PY
