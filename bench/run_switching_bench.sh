#!/usr/bin/env bash
# Issue 45: flows written with sign(), the relay (models/relay_sign.toml) and the dry-friction
# oscillator (models/dry_friction_sign.toml), in saltus, SciPy and Siconos side by side, against
# their closed forms (docs/BENCHMARKS.md "Flows written with sign()"):
#   bench/peers/scipy_switching.py  saltus (the `saltus` command on the files), SciPy solve_ivp
#                                   with np.sign in the rhs and with the modes by hand;
#   bench/peers/siconos_relay.py    Siconos's relay formulation (EulerMoreauOSI + Relay, fixed
#                                   steps h = 1e-2 to 1e-5; its plugin compiled with cc).
# Prints both Markdown tables (the first table of each has the same columns). The SciPy runs with
# np.sign are cut at 60 s each, so the whole takes about 10 minutes on the 2-core machine.
# A peer whose Python package is missing (Debian python3-scipy, python3-siconos:
# SALTUS_WITH_PEERS=1 scripts/install_deps.sh) is skipped with a note; saltus's rows come with
# the SciPy script, so they need python3-scipy too. saltus is not built here: it needs
# ${SALTUS_BUILD_DIR:-build}/apps/saltus (bash scripts/build.sh saltus).
# Usage: bench/run_switching_bench.sh [REPEATS]   (default 3; interleaved repeats, medians)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
repeats=${1:-3}
py=/usr/bin/python3 # Debian's python: it sees python3-scipy and python3-siconos
export SALTUS_PEERS_BUILD=${SALTUS_PEERS_BUILD:-$root/build-peers}
status=0
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start" >&2
if ! "$py" -c "import scipy" 2>/dev/null; then
  echo "run_switching_bench: python3-scipy missing: SciPy and saltus rows skipped" >&2
  status=1
elif [[ ! -x "$build/apps/saltus" ]]; then
  echo "run_switching_bench: $build/apps/saltus not found (bash scripts/build.sh saltus):" \
    "SciPy and saltus rows skipped" >&2
  status=1
else
  echo "## saltus and SciPy (bench/peers/scipy_switching.py)"
  echo
  "$py" "$root/bench/peers/scipy_switching.py" "$build/apps/saltus" "$root/models" "$repeats"
  echo
fi
if ! "$py" -c "import siconos.kernel" 2>/dev/null; then
  echo "run_switching_bench: python3-siconos missing: Siconos rows skipped" >&2
  status=1
elif ! command -v cc >/dev/null; then
  echo "run_switching_bench: no C compiler for Siconos's plugin: Siconos rows skipped" >&2
  status=1
else
  echo "## Siconos relay (bench/peers/siconos_relay.py)"
  echo
  "$py" "$root/bench/peers/siconos_relay.py" "$repeats"
fi
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" >&2
exit "$status"
