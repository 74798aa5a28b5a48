#!/usr/bin/env bash
# Issue 32 item 4: the Moreau-Jean bridge against Siconos where the Painleve paradox acts. The
# Frictional Bounce Model (models/frictional_bounce.toml) at mu = 0.55 > mu_P(theta0) = 0.511:
# every transition from stick into slip is a Painleve point with two consistent motions, where
# saltus takes the free one (the tip leaves the belt; bridge/bridged_run.hpp, the lift-off choice).
# saltus (bench/fbm_bench --bridged, as `saltus run` runs it) and Siconos Moreau-Jean time
# stepping (bench/peers/siconos_fbm.py --mu 0.55) side by side at v_b = 0.3 and 1.0, then the
# tables of bench/compare_fbm_painleve.py:
#   1. the event times from the model's start to 0.6 s: each Painleve point (saltus: its
#      lift-off there; Siconos: the lift-off nearest it, the first step with P_N = 0 after
#      contact), apexes and landings, each of saltus's at rtol 1e-14 matched to the tool's nearest
#      within 1 ms; Siconos h = 1e-4 to 1e-6 (1e-5 with --quick);
#   2. CPU time of the 2 s run: medians over REPEATS interleaved repeats (saltus rtol 1e-8, 1e-10,
#      1e-12; Siconos h = 1e-3, 1e-4, 1e-5).
# Needs a built fbm_bench (Release) in ${SALTUS_BUILD_DIR:-build}, Debian's python3-siconos
# (SALTUS_WITH_PEERS=1 bash scripts/install_deps.sh) and cc (for the plugin).
# Usage: bench/run_fbm_painleve_bench.sh [--quick]   (SALTUS_BENCH_REPEATS, default 5; 3 quick)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
exe="$build/bench/fbm_bench"
[[ -x "$exe" ]] || { echo "run_fbm_painleve_bench: $exe not found; build target fbm_bench first" >&2; exit 1; }
out="$root/bench/results/fbm_painleve"  # the JSON lines of every run (not committed)
rm -rf "$out"
mkdir -p "$out"
export SALTUS_PEERS_BUILD=${SALTUS_PEERS_BUILD:-$build/peers}
peer="$root/bench/peers/siconos_fbm.py"
repeats=${SALTUS_BENCH_REPEATS:-5}
events_h=1e-4,1e-5,1e-6
if [[ "${1:-}" == "--quick" ]]; then
  repeats=${SALTUS_BENCH_REPEATS:-3}
  events_h=1e-4,1e-5
fi
mu=0.55
horizon=0.6
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start" >&2
"$exe" --v-b 0.3,1.0 --rtols 1e-8,1e-10,1e-12,1e-14 --t-end "$horizon" --set "mu=$mu" --bridged \
  --no-timing >"$out/saltus_events.jsonl"
/usr/bin/python3 "$peer" --v-b 0.3,1.0 --h "$events_h" --t-end "$horizon" --mu "$mu" --no-timing \
  >"$out/siconos_events.jsonl"
for ((r = 0; r < repeats; ++r)); do
  "$exe" --v-b 0.3,1.0 --rtols 1e-8,1e-10,1e-12 --t-end 2 --set "mu=$mu" --bridged \
    >"$out/saltus_time_$r.jsonl"
  /usr/bin/python3 "$peer" --v-b 0.3,1.0 --h 1e-3,1e-4,1e-5 --t-end 2 --mu "$mu" \
    >"$out/siconos_time_$r.jsonl"
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" >&2
/usr/bin/python3 "$root/bench/compare_fbm_painleve.py" "$out" "$repeats" "$horizon"
