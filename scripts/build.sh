#!/usr/bin/env bash
# Configures and builds saltus into build/ (Release, warnings as errors).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
jobs=${SALTUS_JOBS:-$(nproc)}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSALTUS_WERROR=ON "$@" >/dev/null
cmake --build "$build" -j "$jobs"
