#!/usr/bin/env bash
# Issue 32 item 4(b): the Frictional Bounce Model (models/frictional_bounce.toml) in saltus
# (bench/fbm_bench.cpp: event-driven, Routh's process along its whole path at the Painleve
# landings) and in Siconos Moreau-Jean time stepping (bench/peers/siconos_fbm.py) side by side,
# at the belt speeds v_b = 1.0 and 1.5 (Painleve landings) and 0.3 (the model's, regular
# landings), then the tables of bench/compare_fbm.py:
#   1. each v_b's first Painleve landing (0.3: its first landing after a flight) resolved by both
#      from the same state, saltus's at 1 ms before it: landing time, impulses P_N, P_T, velocities
#      after it, and the next landing (the end of the hop that follows), for Siconos h = 1e-4 to
#      1e-7 (1e-6 with --quick);
#   2. the whole run from the model's start to 2 s (Siconos h = 1e-3 to 1e-6; to 1e-4 with
#      --quick): the landing times against saltus's (in order, until they part by more than
#      1 ms) and the apexes (tops of the hops in flight) in 2 s;
#   3. CPU time of the 2 s run: medians over REPEATS interleaved repeats (saltus rtol 1e-8, 1e-10,
#      1e-12 of one process; Siconos h = 1e-3, 1e-4, 1e-5), so that load on a shared machine hits
#      both alike.
# saltus's reference is its own run at rtol 1e-14 (atol 1e-16), checked against rtol 1e-13 (every
# landing within 1.5e-10 s; the near-grazing landings of the short hops make the landing times
# sensitive: at rtol 1e-12 one at v_b = 1.0 moves by 6e-8 s, and the times after it by 3e-7 s).
# Needs a built fbm_bench (Release) in ${SALTUS_BUILD_DIR:-build}, Debian's
# python3-siconos (SALTUS_WITH_PEERS=1 bash scripts/install_deps.sh) and cc (for the plugin).
# Usage: bench/run_fbm_bench.sh [--quick]   (SALTUS_BENCH_REPEATS, default 5; --quick: 3 repeats,
#        the whole-run comparison at h = 1e-3 and 1e-4 only, the landing down to h = 1e-6)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SALTUS_BUILD_DIR:-$root/build}
exe="$build/bench/fbm_bench"
[[ -x "$exe" ]] || { echo "run_fbm_bench: $exe not found; build target fbm_bench first" >&2; exit 1; }
out="$root/bench/results/fbm"  # the JSON lines of every run (not committed)
rm -rf "$out"
mkdir -p "$out"
export SALTUS_PEERS_BUILD=${SALTUS_PEERS_BUILD:-$build/peers}
peer="$root/bench/peers/siconos_fbm.py"
repeats=${SALTUS_BENCH_REPEATS:-5}
whole=1e-3,1e-4,1e-5,1e-6
landing=1e-4,1e-5,1e-6,1e-7
if [[ "${1:-}" == "--quick" ]]; then
  repeats=${SALTUS_BENCH_REPEATS:-3}
  whole=1e-3,1e-4
  landing=1e-4,1e-5,1e-6
fi
v_bs=(0.3 1.0 1.5)
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start" >&2
# saltus's runs (landings, apexes) at three tolerances
"$exe" --v-b 0.3,1.0,1.5 --rtols 1e-8,1e-10,1e-12,1e-13,1e-14 --t-end 2.5 --no-timing \
  >"$out/saltus_ref.jsonl"
# 1. the landings from the same state
for v_b in "${v_bs[@]}"; do
  t_land=$(/usr/bin/python3 "$root/bench/compare_fbm.py" --landing-time "$out/saltus_ref.jsonl" "$v_b")
  t0=$(/usr/bin/python3 -c "print(repr($t_land - 1e-3))")
  t1=$(/usr/bin/python3 -c "print(repr($t_land + 0.1))")
  "$exe" --v-b "$v_b" --rtols 1e-14 --state-at "$t0" >"$out/start_$v_b.jsonl"
  start=$(/usr/bin/python3 -c "import json; d = json.loads(open('$out/start_$v_b.jsonl').readline()); print(','.join(repr(x) for x in [d['t']] + d['state']))")
  /usr/bin/python3 "$peer" --v-b "$v_b" --h "$landing" --t-end "$t1" --start "$start" --no-timing \
    >"$out/siconos_landing_$v_b.jsonl"
done
# 2. the whole runs (observed once)
/usr/bin/python3 "$peer" --v-b 0.3,1.0,1.5 --h "$whole" --t-end 2 --no-timing >"$out/siconos_whole.jsonl"
# 3. CPU times, interleaved
for ((r = 0; r < repeats; ++r)); do
  "$exe" --v-b 0.3,1.0,1.5 --rtols 1e-8,1e-10,1e-12 --t-end 2 >"$out/saltus_time_$r.jsonl"
  /usr/bin/python3 "$peer" --v-b 0.3,1.0,1.5 --h 1e-3,1e-4,1e-5 --t-end 2 >"$out/siconos_time_$r.jsonl"
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" >&2
/usr/bin/python3 "$root/bench/compare_fbm.py" "$out" "$repeats"
