#!/usr/bin/env bash
# The main job: installs what is missing, builds, simulates the bouncing ball through its Zeno
# point, prints the events and summary, and writes out/trajectory.csv, out/events.csv and the
# plot out/bouncing_ball.png.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install_deps.sh"
SALTUS_BUILD_DIR=${SALTUS_BUILD_DIR:-$root/build} bash "$root/scripts/build.sh" bouncing_ball_demo >/dev/null
out=${1:-$root/out}
"${SALTUS_BUILD_DIR:-$root/build}/examples/bouncing_ball_demo" "$out"
/usr/bin/python3 "$root/scripts/plot_demo.py" "$out"
