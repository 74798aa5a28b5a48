#!/usr/bin/env bash
# Configures and builds saltus into build/ (Release, warnings as errors).
#   scripts/build.sh [TARGET...]     builds the given targets (default: all)
# SALTUS_BUILD_DIR chooses the folder, SALTUS_JOBS the parallel jobs, SALTUS_CMAKE_ARGS adds
# configure options (e.g. -DSALTUS_SANITIZER_REPLAYS=ON, as scripts/test.sh does).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
jobs=${SALTUS_JOBS:-$(nproc)}
read -r -a extra <<<"${SALTUS_CMAKE_ARGS:-}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSALTUS_WERROR=ON "${extra[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" -j "$jobs" "${targets[@]}"
