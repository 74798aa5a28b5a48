#!/usr/bin/env bash
# `mpirun -n N saltus sweep` equals the threaded sweep byte for byte (sweep.csv), a failing point
# included; more ranks than points runs and says which ranks stay idle.
# Usage: mpi_sweep_test.sh SALTUS MPIEXEC MODELS_DIR WORK_DIR
set -euo pipefail
saltus=$1 mpiexec=$2 models=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
# Root in CI containers: OpenMPI refuses root unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
fail() { echo "FAIL: $*" >&2; exit 1; }
mpi() { "$mpiexec" -n "$1" --oversubscribe "${@:2}"; }

args=("$models/bouncing_ball.toml" --vary e=0.2:0.8:4 --vary h0=-0.5:2:3
      --collect zeno_time,events.count,final.x --set t_end=20 --no-plot)
set +e
"$saltus" sweep "${args[@]}" --threads 2 --out "$work/threads" >"$work/threads.log" 2>&1
threads_rc=$?
mpi 2 "$saltus" sweep "${args[@]}" --out "$work/mpi2" >"$work/mpi2.log" 2>&1
mpi2_rc=$?
set -e
# h0 = -0.5 fails (invalid-input) at 4 points: exit status 2 both ways, rows kept.
[[ $threads_rc == 2 ]] || fail "threaded sweep exit $threads_rc: $(cat "$work/threads.log")"
[[ $mpi2_rc == 2 ]] || fail "mpirun -n 2 sweep exit $mpi2_rc: $(cat "$work/mpi2.log")"
[[ $(grep -c invalid-input "$work/threads/sweep.csv") == 4 ]] || fail "failed rows missing"
[[ $(wc -l <"$work/threads/sweep.csv") == 13 ]] || fail "threaded table is not 12 points"
cmp "$work/threads/sweep.csv" "$work/mpi2/sweep.csv" || fail "MPI table differs from threaded"
grep -q "1 MPI worker rank" "$work/mpi2.log" || fail "no MPI report: $(cat "$work/mpi2.log")"

# 4 ranks (3 workers) for 2 points: runs, says rank 3 has nothing to run, same table.
small=("$models/bouncing_ball.toml" --vary e=0.3:0.6:2 --collect zeno_time --no-plot)
"$saltus" sweep "${small[@]}" --threads 1 --out "$work/small_threads" >/dev/null
mpi 4 "$saltus" sweep "${small[@]}" --out "$work/small_mpi" >"$work/small.log" 2>&1 ||
  fail "mpirun -n 4 for 2 points: $(cat "$work/small.log")"
grep -q "4 ranks for 2 point(s)" "$work/small.log" || fail "no idle-rank message: $(cat "$work/small.log")"
cmp "$work/small_threads/sweep.csv" "$work/small_mpi/sweep.csv" || fail "small table differs"

# Bad input under MPI: refused once (rank 0 speaks), nothing written.
set +e
mpi 2 "$saltus" sweep "$models/bouncing_ball.toml" --vary nope=0:1:2 --collect zeno_time \
  --out "$work/never" >"$work/bad.log" 2>&1
bad_rc=$?
set -e
[[ $bad_rc != 0 ]] || fail "unknown parameter accepted under MPI"
[[ $(grep -c "'nope' is not a parameter" "$work/bad.log") == 1 ]] || fail "bad input: $(cat "$work/bad.log")"
[[ ! -e "$work/never" ]] || fail "a refused sweep wrote its folder"
echo "mpi sweep: threaded and MPI tables identical (12 and 2 points)"
