#!/usr/bin/env bash
# Builds and runs the model-vs-C++ cost benchmark against a built libsaltus.a.
# Usage: build_and_run.sh [BUILD_DIR]   (default build-model)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build-model}
g++ -std=c++20 -O2 -DNDEBUG -DSALTUS_MODELS_DIR="\"$root/models\"" -I"$root/include" \
  -isystem /usr/include/eigen3 "$root/tests/model/bench/model_cost_bench.cpp" \
  "$build/libsaltus.a" -o "$build/model_cost_bench"
"$build/model_cost_bench"
