#!/usr/bin/env bash
# Replays tests/mech/fuzz_corpus through the LCP layer (Lemke, enumeration, matrix classes,
# certificate) under AddressSanitizer and UndefinedBehaviorSanitizer (g++ or clang++, no
# libFuzzer needed; the replay driver is the model fuzzer's). Called by scripts/test.sh; set
# SALTUS_SKIP_FUZZ_REPLAY=1 to skip. Compiles five library sources (well under a minute on 2
# cores), then replays in seconds.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${SALTUS_FUZZ_REPLAY_DIR:-$root/build-fuzz-replay}
cxx=${CXX:-g++}
obj=$out/lcp_obj
mkdir -p "$obj"
cd "$root"
srcs=(src/mech/lcp.cpp src/mech/lcp_scaling.cpp src/mech/lemke.cpp src/mech/lcp_enumeration.cpp
  src/mech/matrix_classes.cpp tests/mech/fuzz/lcp_fuzzer.cpp tests/model/fuzz/replay_main.cpp)
pids=()
for s in "${srcs[@]}"; do
  "$cxx" -std=c++20 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    -fno-omit-frame-pointer -Iinclude -isystem /usr/include/eigen3 \
    -c "$s" -o "$obj/$(echo "$s" | tr / _).o" &
  pids+=($!)
  if ((${#pids[@]} >= $(nproc))); then
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p"; done
objs=()
for s in "${srcs[@]}"; do objs+=("$obj/$(echo "$s" | tr / _).o"); done
"$cxx" -fsanitize=address,undefined "${objs[@]}" -o "$out/lcp_fuzz_replay"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$out/lcp_fuzz_replay" "$root/tests/mech/fuzz_corpus"
