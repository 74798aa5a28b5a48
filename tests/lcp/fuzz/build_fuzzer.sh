#!/usr/bin/env bash
# Builds the LCP-layer fuzzer with clang-14 (-fsanitize=fuzzer,address,undefined) into
# ${1:-build-fuzz}/lcp_fuzzer. Run it with the corpus (docs/FUZZING.md):
#   build-fuzz/lcp_fuzzer -max_total_time=600 build-fuzz/lcp_corpus tests/lcp/fuzz_corpus
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$root/build-fuzz}
mkdir -p "$out"
cd "$root"
srcs=(src/lcp/lcp.cpp src/lcp/lcp_scaling.cpp src/lcp/lemke.cpp src/lcp/lcp_enumeration.cpp
  src/lcp/matrix_classes.cpp tests/lcp/fuzz/lcp_fuzzer.cpp)
clang++-14 -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -Iinclude -isystem /usr/include/eigen3 "${srcs[@]}" -o "$out/lcp_fuzzer"
echo "built $out/lcp_fuzzer"
