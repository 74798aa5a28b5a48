#!/usr/bin/env bash
# Replays tests/model/fuzz_corpus (plus models/ and the malformed-model test files) through the
# model loader, the expression graph, the tapes and the built hybrid systems under
# AddressSanitizer and UndefinedBehaviorSanitizer (g++ or clang++, no libFuzzer needed).
# Called by scripts/test.sh; set SALTUS_SKIP_FUZZ_REPLAY=1 to skip. Compiles the library sources
# in parallel (a few minutes on 2 cores), then replays in seconds.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${SALTUS_FUZZ_REPLAY_DIR:-$root/build-fuzz-replay}
export SALTUS_CXX=${CXX:-g++}
export SALTUS_FUZZ_OBJ=$out/obj
mkdir -p "$SALTUS_FUZZ_OBJ"
cd "$root"
mapfile -t srcs < <(find src -name '*.cpp' | sort)
srcs+=(tests/model/fuzz/model_fuzzer.cpp tests/model/fuzz/replay_main.cpp)
compile_one() {
  "$SALTUS_CXX" -std=c++20 -O1 -g -DNDEBUG -fsanitize=address,undefined \
    -fno-sanitize-recover=undefined -fno-omit-frame-pointer -Iinclude -isystem /usr/include/eigen3 \
    -c "$1" -o "$SALTUS_FUZZ_OBJ/$(echo "$1" | tr / _).o"
}
export -f compile_one
printf '%s\n' "${srcs[@]}" | xargs -P "$(nproc)" -n 1 bash -c 'compile_one "$0"'
objs=()
for s in "${srcs[@]}"; do objs+=("$SALTUS_FUZZ_OBJ/$(echo "$s" | tr / _).o"); done
"$SALTUS_CXX" -fsanitize=address,undefined "${objs[@]}" -o "$out/model_fuzz_replay"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$out/model_fuzz_replay" "$root/tests/model/fuzz_corpus" "$root/models" "$root/tests/model/data"
