#!/usr/bin/env bash
# The main job: installs what is missing, builds the saltus command, runs the model file
# models/bouncing_ball.toml (dropped from 1 m, e = 0.8) through its Zeno point to rest, prints
# the summary, and writes out/trajectory.csv, out/events.csv, out/summary.json and the plots
# out/states.png, out/phase.png, out/hybrid_time.png, out/forces.png.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install_deps.sh"
build=${SALTUS_BUILD_DIR:-$root/build}
SALTUS_BUILD_DIR=$build bash "$root/scripts/build.sh" saltus_cli >/dev/null
out=${1:-$root/out}
"$build/apps/saltus" run "$root/models/bouncing_ball.toml" --out "$out" --plot
