#!/usr/bin/env bash
# 10^3 seeded random Frictional Bounce Models through the Painleve region (issue 32 item 5), run
# by tests/model/bridged_run_test.cpp's RandomFrictionalBounceRunsEndWithAStatusAndNoPenetration
# (CI runs 200): every run ends with a status, none with an event cap or a step-size underflow,
# no penetration after a hand-back or on the samples. Prints the counts of statuses and of the
# runs that went through Moreau-Jean stretches. Not a timing benchmark.
# Usage: bench/run_random_fbm.sh [N, default 1000]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
exe="$build/tests/saltus_model_tests"
[[ -x "$exe" ]] || { echo "run_random_fbm: $exe not found; build saltus_model_tests" >&2; exit 1; }
SALTUS_RANDOM_FBM=${1:-1000} "$exe" --gtest_filter='BridgedRun.RandomFrictionalBounce*'
