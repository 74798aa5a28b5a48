#!/usr/bin/env bash
# Issue 43: how many random vibrating tables do peer solvers get wrong? Builds the CVODE peer
# (bench/peers/vibrating_table_cvode.c, plain cc, into build-peers/ or $SALTUS_PEERS_BUILD)
# and runs bench/vibrating_table_peers.py: SciPy RK45 and DOP853 and CVODE Adams and BDF
# (rtol 1e-10, atol 1e-12) against the certified reference on N tables (default 200, seed 43),
# printing a Markdown table. Per-table rows go to bench/results/vibrating_table_peers.jsonl
# (not committed). Needs python3-scipy and libsundials-dev (SALTUS_WITH_PEERS=1
# scripts/install_deps.sh); without libsundials-dev CVODE is skipped with a warning.
# Then saltus on the same N tables and seed: build/bench/vibrating_table_bench (or
# $SALTUS_BUILD/bench/...; cmake --build build --target vibrating_table_bench), skipped with a
# warning when not built.
# Usage: bench/run_vibrating_table_peers.sh [N] [extra vibrating_table_peers.py options]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_PEERS_BUILD:-$root/build-peers}
n=${1:-200}
shift || true
seed=43  # the peers' default; --seed S among the extra options goes to saltus too
args=("$@")
for ((i = 0; i < ${#args[@]}; ++i)); do
  case ${args[i]} in
    --seed) seed=${args[i + 1]:-43} ;;
    --seed=*) seed=${args[i]#--seed=} ;;
  esac
done
mkdir -p "$build" "$root/bench/results"
cvode=()
if [[ -f /usr/include/cvode/cvode.h ]]; then
  "${CC:-cc}" -O2 -std=c11 -Wall -Wextra -o "$build/vibrating_table_cvode" \
    "$root/bench/peers/vibrating_table_cvode.c" -lsundials_cvode -lsundials_nvecserial -lm
  cvode=(--cvode "$build/vibrating_table_cvode")
else
  echo "run_vibrating_table_peers: libsundials-dev missing: CVODE skipped" >&2
fi
/usr/bin/python3 "$root/bench/vibrating_table_peers.py" --tables "$n" "${cvode[@]}" \
  --json "$root/bench/results/vibrating_table_peers.jsonl" "$@"
saltus=${SALTUS_BUILD:-$root/build}/bench/vibrating_table_bench
if [[ -x $saltus ]]; then
  echo
  "$saltus" --tables "$n" --seed "$seed"
else
  echo "run_vibrating_table_peers: $saltus not built: saltus skipped" >&2
fi
