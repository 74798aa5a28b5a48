#!/usr/bin/env bash
# Issue 14: the 100-value Zeno-time sweep of models/bouncing_ball.toml (e = 0.05 .. 0.95),
# `saltus sweep` against a shell loop of `saltus run --set e=...` (what a user without the
# command writes). Repeats are interleaved (loop, sweep, loop, ...) so that load on the machine
# hits both alike; prints the medians and their ratio.
#
#   bench/run_sweep_bench.sh [REPEATS] [THREADS]      (defaults: 5 repeats, every core)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
repeats=${1:-5}
threads=${2:-$(nproc)}
bash "$root/scripts/build.sh" saltus_cli >/dev/null
saltus=$build/apps/saltus
model=$root/models/bouncing_ball.toml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The grid of `--vary e=0.05:0.95:100`, with 17 digits as the sweep passes them.
mapfile -t values < <(/usr/bin/python3 -c \
  'print("\n".join("%.17g" % (0.95 if k == 99 else 0.05 + 0.9 * k / 99) for k in range(100)))')

now() { date +%s.%N; }
loop_times=() sweep_times=()
for ((r = 0; r < repeats; ++r)); do
  start=$(now)
  for e in "${values[@]}"; do
    "$saltus" run "$model" --set "e=$e" --out "$work/run" >/dev/null
  done
  loop_times+=("$(echo "$(now) - $start" | bc)")
  start=$(now)
  "$saltus" sweep "$model" --vary e=0.05:0.95:100 --collect zeno_time,events.count \
    --threads "$threads" --no-plot --out "$work/sweep" >/dev/null
  sweep_times+=("$(echo "$(now) - $start" | bc)")
done
/usr/bin/python3 - "$threads" "${loop_times[*]}" "${sweep_times[*]}" <<'PY'
import statistics, sys
threads, loop, sweep = sys.argv[1], list(map(float, sys.argv[2].split())), list(map(float, sys.argv[3].split()))
ml, ms = statistics.median(loop), statistics.median(sweep)
print(f"shell loop of 100 `saltus run`: median {ml:.3f} s  ({', '.join(f'{t:.3f}' for t in loop)})")
print(f"saltus sweep, {threads} threads:  median {ms:.3f} s  ({', '.join(f'{t:.3f}' for t in sweep)})")
print(f"ratio loop / sweep: {ml / ms:.1f}")
PY
