#!/usr/bin/env bash
# 10^4 seeded random drops (5000 boxes on four corners, 5000 rods on two ends; random size,
# orientation, spin, sliding speed, mu, e) through the invariant checks of
# tests/mech/random_drops_test.cpp (CI runs 500 of each): no contact below -1e-9 after any event
# or at the end, no impact raising the energy beyond round-off, every run ending with a status.
# Prints the count of each termination status. Then the same drops through the Moreau-Jean bridge
# (tests/model/bridged_drops_test.cpp, issue 32): those that stop with a status the bridge takes
# (event-cap, step-size-underflow, a Painleve or impact reset-failed) run again bridged, and the
# status counts before and after are printed. Not a timing benchmark.
# Usage: bench/run_random_drops.sh [N per body, default 5000]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
for exe in "$build/tests/saltus_mech_tests" "$build/tests/saltus_model_tests"; do
  [[ -x "$exe" ]] || { echo "run_random_drops: $exe not found; build $(basename "$exe")" >&2; exit 1; }
done
SALTUS_RANDOM_DROPS=${1:-5000} "$build/tests/saltus_mech_tests" --gtest_filter='RandomDrops.*'
SALTUS_RANDOM_DROPS=${1:-5000} "$build/tests/saltus_model_tests" --gtest_filter='BridgedDrops.*'
