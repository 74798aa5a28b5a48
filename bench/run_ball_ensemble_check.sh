#!/usr/bin/env bash
# Issue 9's long ensemble (minutes, outside CI): 10^5 random bouncing balls per integrator and
# root finder, each checked against its closed form, with the counts of every kind of failure
# (late or lost impacts, wrong Zeno times, impacts on a ball moving up, penetration, runs
# without a hand-over, statuses). The seeded test tests/sim/ball_ensemble_test.cpp runs fewer.
#
#   bench/run_ball_ensemble_check.sh [N=100000] [seed=42]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-100000}
seed=${2:-42}
bash "$root/scripts/build.sh" ball_ensemble_check >/dev/null
bin="${SALTUS_BUILD_DIR:-$root/build}/bench/ball_ensemble_check"
for setting in "dopri5 brent" "dop853 brent" "radau5 brent" "dopri5 illinois" \
  "dopri5 anderson_bjorck" "dopri5 bisection" "dopri5 newton"; do
  # shellcheck disable=SC2086
  "$bin" "$n" "$seed" $setting 1e-10
done
