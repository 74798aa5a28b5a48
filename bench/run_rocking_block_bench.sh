#!/usr/bin/env bash
# Issue 11's rocking block: saltus (bench/rocking_block_bench.cpp, event-driven, index-set modes)
# against Siconos Moreau-Jean time stepping (bench/peers/siconos_rocking_block.py) on the same
# problem, alternating the two REPEATS times (interleaved, so that load on a shared machine hits
# both alike), then the table of bench/compare_rocking_block.py: impact times against the
# reference (saltus rtol 1e-12, itself checked against a closed form), settling time, energies,
# and the medians of the per-run CPU times. Each repeat runs every saltus tolerance and every
# Siconos step once; repeat 0 also records what Siconos observes (impacts, energies).
# Needs a built rocking_block_bench (Release) in ${SALTUS_BUILD_DIR:-build} and Debian's
# python3-siconos (SALTUS_WITH_PEERS=1 bash scripts/install_deps.sh) and cc (for the plugin).
# Usage: bench/run_rocking_block_bench.sh [--quick]   (SALTUS_BENCH_REPEATS, default 7;
#        --quick: Siconos h = 1e-3, 1e-4 only, 5 repeats)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
exe="$build/bench/rocking_block_bench"
[[ -x "$exe" ]] || { echo "run_rocking_block_bench: $exe not found; build target rocking_block_bench first" >&2; exit 1; }
out="$root/bench/results/rocking_block"  # the JSON lines of every run (not committed)
rm -rf "$out"
mkdir -p "$out"
repeats=${SALTUS_BENCH_REPEATS:-7}
steps=1e-3,1e-4,1e-5
if [[ "${1:-}" == "--quick" ]]; then
  steps=1e-3,1e-4
  repeats=${SALTUS_BENCH_REPEATS:-5}
fi
t_end=2
# (rtol, Zeno hand-over tolerance): the model's 1e-4, tighter ones, the reference 1e-12:1e-7 and
# its checks (rtol 1e-13; hand-over 1e-9)
runs=1e-8:1e-4,1e-12:1e-4,1e-8:1e-6,1e-9:1e-6,1e-10:1e-6,1e-12:1e-6,1e-10:1e-7,1e-12:1e-7,1e-13:1e-7,1e-12:1e-9
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start" >&2
for ((r = 0; r < repeats; ++r)); do
  "$exe" --t-end "$t_end" --runs "$runs" >"$out/saltus_$r.jsonl"
  observe=()
  ((r == 0)) && observe=(--observe)
  /usr/bin/python3 "$root/bench/peers/siconos_rocking_block.py" --t-end "$t_end" --h "$steps" \
    "${observe[@]}" >"$out/siconos_$r.jsonl"
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" >&2
/usr/bin/python3 "$root/bench/compare_rocking_block.py" "$out" "$repeats"
