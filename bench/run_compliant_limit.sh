#!/usr/bin/env bash
# Issue 32 item 4(a): the compliant limit of saltus's rigid impulsive resolutions
# (bench/compliant_limit.py): the Frictional Bounce Model's Painleve landings at v_b = 1.0 and 1.5
# and the Painleve rod's dynamic jam (Lecornu's impact without collision), each resolved by the
# rigid law and by a Kelvin-Voigt contact (force release, c = tau k, tau = 1e-3 s) of stiffness
# k = 1e6 to 1e10 from the same state 1 ms before; impulses and velocities after against the rigid
# ones, with the observed rate. Needs the saltus command in ${SALTUS_BUILD_DIR:-build}/apps.
# Usage: bench/run_compliant_limit.sh [--quick]   (--quick: k = 1e7 to 1e9; about 3 s)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
exe="$build/apps/saltus"
[[ -x "$exe" ]] || { echo "run_compliant_limit: $exe not found; build target saltus_cli first" >&2; exit 1; }
out="$root/bench/results/compliant_limit"  # the JSON lines (not committed)
mkdir -p "$out"
ks=1e6,1e7,1e8,1e9,1e10
[[ "${1:-}" == "--quick" ]] && ks=1e7,1e8,1e9
/usr/bin/python3 "$root/bench/compliant_limit.py" "$exe" --cases fbm-1.0,fbm-1.5,rod-jam --k "$ks" \
  --json "$out/compliant_limit.jsonl"
