#!/usr/bin/env bash
# Issue 48's cube drop with friction: saltus (bench/cube_drop_bench.cpp, event-driven, on
# models/cube_drop_friction.toml) against Siconos 4.4 Moreau-Jean with fc3d
# (bench/peers/siconos_cube.py) and MuJoCo 2.2.2 soft contacts (bench/peers/mujoco_cube.c) on the
# same problem, the three alternated REPEATS times (interleaved, so that load on a shared machine
# hits all alike), then the tables of bench/compare_cube.py: the first impacts and the rest time
# against the reference (saltus rtol 1e-12, checked against rtol 1e-13, 1e-14 and a closed form),
# the errors of each setting, and the medians of the per-run CPU times with their ratios at equal
# accuracy. Every repeat runs every setting once (each peer also observes its run once more).
# Needs a built cube_drop_bench (Release) in ${SALTUS_BUILD_DIR:-build}, Debian's python3-siconos
# and libmujoco-dev, and cc (mujoco_cube is built here into ${SALTUS_PEERS_BUILD:-build/peers}).
# Usage: bench/run_cube_bench.sh [--quick]   (SALTUS_BENCH_REPEATS, default 5; --quick: Siconos at
#        h = 1e-3, 1e-4 only (h = 1e-5 takes ~1.5 min per repeat), 3 repeats)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
peers_build=${SALTUS_PEERS_BUILD:-$root/build/peers}
exe="$build/bench/cube_drop_bench"
[[ -x "$exe" ]] || { echo "run_cube_bench: $exe not found; build target cube_drop_bench first" >&2; exit 1; }
mkdir -p "$peers_build"
cc -O2 -o "$peers_build/mujoco_cube" "$root/bench/peers/mujoco_cube.c" -lmujoco -lm
out="$root/bench/results/cube"  # the JSON lines of every run (not committed)
rm -rf "$out"
mkdir -p "$out"
repeats=${SALTUS_BENCH_REPEATS:-5}
siconos_steps=1e-3,1e-4,1e-5
if [[ "${1:-}" == "--quick" ]]; then
  siconos_steps=1e-3,1e-4
  repeats=${SALTUS_BENCH_REPEATS:-3}
fi
# MuJoCo is cheap: 1e-5 too, to show whether a finer step brings it closer
mujoco_steps=1e-3,1e-4,1e-5
# the issue's 1e-8, 1e-10, 1e-12 (the reference), the ones between, and the reference's checks
rtols=1e-8,1e-9,1e-10,1e-11,1e-12,1e-13,1e-14
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start" >&2
for ((r = 0; r < repeats; ++r)); do
  "$exe" --rtols "$rtols" >"$out/saltus_$r.jsonl"
  # mujoco_cube's CPU: the best of 5 loops of the run (a 1500-step loop takes ~4 ms)
  "$peers_build/mujoco_cube" --h "$mujoco_steps" --repeat 5 >"$out/mujoco_$r.jsonl"
  # Siconos reports every unconverged fc3d solve on stderr: keep it in a log
  /usr/bin/python3 "$root/bench/peers/siconos_cube.py" --h "$siconos_steps" \
    >"$out/siconos_$r.jsonl" 2>"$out/siconos_$r.log"
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" >&2
/usr/bin/python3 "$root/bench/compare_cube.py" "$out" "$repeats"
