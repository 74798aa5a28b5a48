#!/usr/bin/env bash
# 10^4 seeded random drops (5000 boxes on four corners, 5000 rods on two ends; random size,
# orientation, spin, sliding speed, mu, e) through the invariant checks of
# tests/mech/random_drops_test.cpp (CI runs 500 of each): no contact below -1e-9 after any event
# or at the end, no impact raising the energy beyond round-off, every run ending with a status.
# Prints the count of each termination status. Not a timing benchmark.
# Usage: bench/run_random_drops.sh [N per body, default 5000]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
exe="$build/tests/saltus_mech_tests"
[[ -x "$exe" ]] || { echo "run_random_drops: $exe not found; build saltus_mech_tests" >&2; exit 1; }
SALTUS_RANDOM_DROPS=${1:-5000} "$exe" --gtest_filter='RandomDrops.*'
