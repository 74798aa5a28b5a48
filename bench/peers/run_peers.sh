#!/usr/bin/env bash
# Builds and runs the peer benchmarks (SUNDIALS CVODE, SciPy solve_ivp, Siconos) on the
# bouncing-ball problems and writes one JSON object per line to a file.
#
#   bench/peers/run_peers.sh [OUTPUT.jsonl] [--quick]
#
# OUTPUT defaults to bench/results/peers.jsonl (not committed).  --quick: fewer repetitions
# and a sparser ensemble (for trying the script, not for numbers).  The peers run one after
# another so that their timings do not disturb each other; the whole run takes about 3
# minutes on an idle 2-core machine (6 when others compile).  Peer programs' stderr goes to
# $BUILD/*.log.  Needs: SALTUS_WITH_PEERS=1 scripts/install_deps.sh (libsundials-dev,
# python3-scipy, python3-siconos, python3-mpmath).  A peer whose packages are missing is
# skipped with a warning; the exit status is 1 if any peer was skipped or failed.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/bench/results/peers.jsonl"
quick=()
for a in "$@"; do
  case "$a" in
    --quick) quick=(--quick) ;;
    -h | --help)
      sed -n '2,13p' "${BASH_SOURCE[0]}"
      exit 0
      ;;
    *) out="$a" ;;
  esac
done
build="${SALTUS_PEERS_BUILD:-$root/build-peers}"
py=/usr/bin/python3 # Debian's python: it sees python3-scipy and python3-siconos
cc="${CC:-cc}"
mkdir -p "$build" "$(dirname "$out")"
tmp="$(mktemp "$build/peers.XXXXXX.jsonl")"
trap 'rm -f "$tmp"' EXIT
status=0

note() { echo "run_peers: $*" >&2; }

ref="$here/drag_reference.json"
if [[ ! -s "$ref" ]]; then
  note "regenerating $ref"
  "$py" "$here/drag_reference.py" "$ref" --check || status=1
fi

# SUNDIALS CVODE (C) ---------------------------------------------------------------------
if [[ -f /usr/include/cvode/cvode.h ]]; then
  note "building cvode_ball"
  if "$cc" -O2 -std=c11 -Wall -Wextra -o "$build/cvode_ball" "$here/cvode_ball.c" \
    -lsundials_cvode -lsundials_nvecserial -lm; then
    note "running CVODE"
    "$build/cvode_ball" "$ref" "${quick[@]}" >>"$tmp" 2>"$build/cvode.log" ||
      {
        note "cvode_ball failed (see $build/cvode.log)"
        status=1
      }
  else
    note "cvode_ball did not build"
    status=1
  fi
else
  note "libsundials-dev missing: CVODE skipped"
  status=1
fi

# SciPy solve_ivp -------------------------------------------------------------------------
if "$py" -c "import scipy" 2>/dev/null; then
  note "running SciPy"
  "$py" "$here/scipy_ball.py" --reference "$ref" "${quick[@]}" >>"$tmp" \
    2>"$build/scipy.log" || {
    note "scipy_ball.py failed (see $build/scipy.log)"
    status=1
  }
else
  note "python3-scipy missing: SciPy skipped"
  status=1
fi

# Siconos ---------------------------------------------------------------------------------
if "$py" -c "import siconos.kernel" 2>/dev/null; then
  note "running Siconos"
  "$py" "$here/siconos_ball.py" --reference "$ref" "${quick[@]}" >>"$tmp" \
    2>"$build/siconos.log" || {
    note "siconos_ball.py failed (see $build/siconos.log)"
    status=1
  }
else
  note "python3-siconos missing: Siconos skipped"
  status=1
fi

# keep only well-formed JSON lines, then put the file in place in one move
"$py" - "$tmp" <<'EOF' || status=1
import json, sys
path = sys.argv[1]
good = []
with open(path) as f:
    for line in f:
        try:
            json.loads(line)
            good.append(line)
        except ValueError:
            print("run_peers: dropped a line that is not JSON: " + line[:80], file=sys.stderr)
with open(path, "w") as f:
    f.writelines(good)
EOF
mv "$tmp" "$out"
trap - EXIT
note "wrote $(wc -l <"$out") lines to $out"
exit "$status"
