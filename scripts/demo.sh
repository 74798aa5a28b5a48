#!/usr/bin/env bash
# The main job: installs what is missing, builds the saltus command, runs the model file
# models/bouncing_ball.toml (dropped from 1 m, e = 0.8) through its Zeno point to rest, prints
# the summary, and writes out/trajectory.csv, out/events.csv, out/summary.json and the plots
# out/states.png, out/phase.png, out/hybrid_time.png, out/forces.png.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install_deps.sh" demo
build=${SALTUS_BUILD_DIR:-$root/build}
# The command alone: no tests, benchmarks, examples or Python package (scripts/test.sh turns
# them on again in the same folder).
SALTUS_BUILD_DIR=$build SALTUS_CMAKE_ARGS="-DSALTUS_BUILD_TESTS=OFF -DSALTUS_BUILD_BENCH=OFF \
  -DSALTUS_BUILD_EXAMPLES=OFF -DSALTUS_BUILD_PYTHON=OFF ${SALTUS_CMAKE_ARGS:-}" \
  bash "$root/scripts/build.sh" saltus_cli >/dev/null
out=${1:-$root/out}
"$build/apps/saltus" run "$root/models/bouncing_ball.toml" --out "$out" --plot
