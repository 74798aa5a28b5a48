#!/usr/bin/env bash
# Runs saltus and its peers (CVODE, SciPy, Siconos) on the bouncing-ball problems of issue 2 in
# one run and prints the side-by-side table with time ratios (bench/compare_ball.py).
#
#   bench/run_ball_bench.sh [--quick]
#
# Results go to bench/results/ (not committed). Needs SALTUS_WITH_PEERS=1 scripts/install_deps.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
quick=()
[[ "${1:-}" == "--quick" ]] && quick=(--quick)
SALTUS_WITH_PEERS=1 bash "$root/scripts/install_deps.sh"
bash "$root/scripts/build.sh" hybrid_ball_bench >/dev/null
mkdir -p "$root/bench/results"
"${SALTUS_BUILD_DIR:-$root/build}/bench/hybrid_ball_bench" "$root/bench/peers/drag_reference.json" \
  "${quick[@]}" >"$root/bench/results/saltus.jsonl"
bash "$root/bench/peers/run_peers.sh" "$root/bench/results/peers.jsonl" "${quick[@]}" || true
/usr/bin/python3 "$root/bench/compare_ball.py" "$root/bench/results/saltus.jsonl" \
  "$root/bench/results/peers.jsonl"
