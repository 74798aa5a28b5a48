#!/usr/bin/env bash
# Issue 48's cube drop with Coulomb friction in the peer tools: Siconos 4.4 Moreau-Jean with fc3d
# (bench/peers/siconos_cube.py) and MuJoCo 2.2.2 (bench/peers/mujoco_cube.c, built here with plain
# cc into ${SALTUS_PEERS_BUILD:-build/peers}), at (mu, e) = (0.5, 0.5) and (0.3, 0), h = 1e-3 and
# 1e-4 (--full: Siconos also at h = 1e-5, ~2 min per case on one core), plus the frictionless
# e = 1 first impact against its closed form. Writes the JSON lines to bench/results/cube_peers/
# (not committed) and prints bench/peers/cube_peers_table.py's table of them.
# Needs Debian's python3-siconos and libmujoco-dev (apt-get install python3-siconos libmujoco-dev).
# Usage: bench/peers/run_cube_peers.sh [--full]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${SALTUS_PEERS_BUILD:-$root/build/peers}
out="$root/bench/results/cube_peers"
mkdir -p "$build" "$out"
cc -O2 -o "$build/mujoco_cube" "$root/bench/peers/mujoco_cube.c" -lmujoco -lm
steps=1e-3,1e-4
[[ "${1:-}" == "--full" ]] && steps=1e-3,1e-4,1e-5
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start" >&2
for cfg in "0.5 0.5" "0.3 0"; do
  read -r mu e <<<"$cfg"
  tag="mu${mu}_e${e}"
  "$build/mujoco_cube" --mu "$mu" --e "$e" --h 1e-3,1e-4 >"$out/mujoco_$tag.jsonl"
  # Siconos reports every unconverged fc3d solve on stderr: keep it in a log
  /usr/bin/python3 "$root/bench/peers/siconos_cube.py" --mu "$mu" --e "$e" --h "$steps" \
    >"$out/siconos_$tag.jsonl" 2>"$out/siconos_$tag.log"
done
# frictionless, elastic: the first impact against the closed form (one corner, free fall)
"$build/mujoco_cube" --mu 0 --e 1 --h 1e-3,1e-4 --t-end 0.3 >"$out/mujoco_mu0_e1.jsonl"
/usr/bin/python3 "$root/bench/peers/siconos_cube.py" --mu 0 --e 1 --h "$steps" --t-end 0.3 \
  >"$out/siconos_mu0_e1.jsonl" 2>"$out/siconos_mu0_e1.log"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" >&2
/usr/bin/python3 "$root/bench/peers/cube_peers_table.py" "$out"/*.jsonl
