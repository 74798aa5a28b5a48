#!/usr/bin/env bash
# Which motion the bridge takes at a Painleve start against the compliant limit (issue 32 item 2),
# on N seeded random states of the classical Painleve rod per regime (CI runs 20 each), by
# tests/model/painleve_compliant_branch_test.cpp: several motions (b > 0) and none (b < 0), the
# rigid bridged run against Kelvin-Voigt contacts of k = 1e6 ... 1e9 from the same state. Prints
# every none-regime case and the largest differences per k. Not a timing benchmark.
# Usage: bench/run_painleve_branches.sh [N, default 200]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
exe="$build/tests/saltus_model_tests"
[[ -x "$exe" ]] || { echo "run_painleve_branches: $exe not found; build saltus_model_tests" >&2; exit 1; }
SALTUS_PAINLEVE_BRANCH_CASES=${1:-200} "$exe" --gtest_filter='PainleveCompliantBranch.*'
