#!/usr/bin/env bash
# Builds the model-file fuzzer with clang-14 (-fsanitize=fuzzer,address,undefined) into
# ${1:-build-fuzz}/model_fuzzer. -DNDEBUG: toml++ 3.3.0's internal debug assertions are off (the
# ones fuzzing reached are listed in docs/FUZZING.md); sanitizers stay on. Run it with the corpus:
#   build-fuzz/model_fuzzer -max_total_time=600 build-fuzz/corpus tests/model/fuzz_corpus
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$root/build-fuzz}
mkdir -p "$out"
cd "$root"
mapfile -t srcs < <(find src -name '*.cpp' | sort)
srcs+=(tests/model/fuzz/model_fuzzer.cpp)
clang++-14 -std=c++20 -O1 -g -DNDEBUG -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -Iinclude -isystem /usr/include/eigen3 "${srcs[@]}" -o "$out/model_fuzzer"
echo "built $out/model_fuzzer"
