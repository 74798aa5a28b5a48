#!/usr/bin/env bash
# Configures and builds saltus into build/ (Release, warnings as errors).
#   scripts/build.sh [TARGET...]     builds the given targets (default: all)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
jobs=${SALTUS_JOBS:-$(nproc)}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSALTUS_WERROR=ON >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" -j "$jobs" "${targets[@]}"
