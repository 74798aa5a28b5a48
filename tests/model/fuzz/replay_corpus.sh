#!/usr/bin/env bash
# Replays tests/model/fuzz_corpus through the parser and expression compiler under
# AddressSanitizer and UndefinedBehaviorSanitizer (g++ or clang++, no libFuzzer needed).
# Called by scripts/test.sh; set SALTUS_SKIP_FUZZ_REPLAY=1 to skip. Takes about a minute to build.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${SALTUS_FUZZ_REPLAY_DIR:-$root/build-fuzz-replay}
cxx=${CXX:-g++}
mkdir -p "$out"
srcs=(src/model/expression_compiler.cpp src/model/expression_graph.cpp src/model/operations.cpp
      src/model/tape.cpp src/model/model_system.cpp src/core/hybrid_system.cpp
      src/model/diagnostic.cpp src/model/model.cpp src/model/model_loader.cpp src/sim/simulation_options.cpp src/events/event_options.cpp
      src/events/zeno_monitor.cpp src/ode/stepper_options.cpp tests/model/fuzz/model_fuzzer.cpp
      tests/model/fuzz/replay_main.cpp)
cd "$root"
"$cxx" -std=c++20 -O1 -g -DNDEBUG -fsanitize=address,undefined -fno-sanitize-recover=undefined \
  -fno-omit-frame-pointer -Iinclude -isystem /usr/include/eigen3 "${srcs[@]}" \
  -o "$out/model_fuzz_replay"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$out/model_fuzz_replay" "$root/tests/model/fuzz_corpus" "$root/models" "$root/tests/model/data"
