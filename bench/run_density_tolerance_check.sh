#!/usr/bin/env bash
# Issue 12: does the integrator tolerance change the sleigh billiard's density (Fig. 7)?
# Runs `saltus density --system sleigh` (A 2, B 1, L 0.3; 100 x 100 boxes, 1000 maps discarded
# per trajectory) at a reference rtol and at looser ones, each with two seeds (different random
# starts), and prints L1 distances sum |p - q| between the normalised histograms:
#   noise(rtol)     = L1(seed 1, seed 2) at that rtol: the sampling noise of MAPS maps;
#   vs_reference    = L1(rtol seed s, reference seed s) for s = 1, 2: same starts, other rtol
#                     (chaos makes the two runs independent samples after a few impacts).
# A tolerance leaves the statistic unchanged at this sample size when vs_reference is within the
# range of the noise. Also prints each run's wall time, maps per second and energy error
# (summary.json), so the speed gained by a looser rtol is read off the same run.
#
#   bench/run_density_tolerance_check.sh [MAPS=1000000] [TRAJECTORIES=8] [REFERENCE=1e-10]
#                                        [RTOLS="1e-9 1e-7 1e-6 1e-5"]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
maps=${1:-1000000}
trajectories=${2:-8}
reference=${3:-1e-10}
rtols=${4:-"1e-9 1e-7 1e-6 1e-5"}
bash "$root/scripts/build.sh" saltus_cli >/dev/null
exe="$build/apps/saltus"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for rtol in "$reference" $rtols; do
  for seed in 1 2; do
    "$exe" density --system sleigh --set A=2,B=1,L=0.3 --maps "$maps" --discard 1000 \
      --grid 100 100 --trajectories "$trajectories" --seed "$seed" --rtol "$rtol" --no-plot \
      --out "$work/r${rtol}_s${seed}" >/dev/null
  done
done
/usr/bin/python3 - "$work" "$reference" $rtols <<'PY'
import json, os, sys
import numpy as np
work, reference, rtols = sys.argv[1], sys.argv[2], sys.argv[3:]
def hist(rtol, seed):
    h = np.load(os.path.join(work, f"r{rtol}_s{seed}", "density.npy")).astype(float)
    return h / h.sum()
def l1(a, b):
    return float(np.abs(a - b).sum())
ref = {s: hist(reference, s) for s in (1, 2)}
print(f"reference rtol {reference}: noise L1(seed 1, seed 2) = {l1(ref[1], ref[2]):.4f}")
for rtol in [reference] + rtols:
    h = {s: hist(rtol, s) for s in (1, 2)}
    summary = {}
    for s in (1, 2):
        with open(os.path.join(work, f"r{rtol}_s{s}", "summary.json")) as f:
            summary[s] = json.load(f)
    wall = [summary[s]["wall_seconds"] for s in (1, 2)]
    energy = max(summary[s]["max_relative_energy_error"] for s in (1, 2))
    rate = sum(summary[s]["maps_done"] for s in (1, 2)) / sum(wall)
    print(f"rtol {rtol:>6}: noise {l1(h[1], h[2]):.4f}  vs reference (seed 1, 2) "
          f"{l1(h[1], ref[1]):.4f} {l1(h[2], ref[2]):.4f}  wall {wall[0]:.1f} {wall[1]:.1f} s "
          f"({rate / 1e6:.3f} M maps/s, {summary[1]['threads']} threads)  "
          f"max energy error {energy:.1e}")
PY
