#!/usr/bin/env bash
# Configures and builds saltus into build/ (Release, warnings as errors).
#   scripts/build.sh [TARGET...]     builds the given targets (default: all)
# SALTUS_BUILD_DIR chooses the folder, SALTUS_JOBS the parallel jobs, SALTUS_CMAKE_ARGS adds
# configure options (e.g. -DSALTUS_SANITIZER_REPLAYS=ON, as scripts/test.sh does),
# SALTUS_UNITY_BUILD=OFF compiles each source on its own.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
jobs=${SALTUS_JOBS:-$(nproc)}
read -r -a extra <<<"${SALTUS_CMAKE_ARGS:-}"
# A unity build (CMakeLists.txt, SALTUS_UNITY_BUILD) unless SALTUS_UNITY_BUILD=OFF: a third of
# the time on 2 cores from an empty folder; an incremental build recompiles a whole batch.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSALTUS_WERROR=ON \
  -DSALTUS_UNITY_BUILD="${SALTUS_UNITY_BUILD:-ON}" "${extra[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" -j "$jobs" "${targets[@]}"
