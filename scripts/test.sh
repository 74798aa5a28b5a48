#!/usr/bin/env bash
# The test command: installs what is missing, builds (library, command, Python package, tests,
# benchmarks and examples, and one ASan + UBSan library for the fuzz-corpus replays), checks
# formatting and runs every test with CTest: unit, validation, command-line, Python and the
# sanitizer replays (docs/TESTING.md).
#   scripts/test.sh            everything (what CI runs)
#   scripts/test.sh --quick    the tests labelled `quick` only, without the sanitizer build
# SALTUS_SKIP_FUZZ_REPLAY=1 leaves the sanitizer replays out.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
quick=0
[[ "${1:-}" == "--quick" ]] && quick=1
replays=ON
[[ "${SALTUS_SKIP_FUZZ_REPLAY:-0}" == "1" || $quick == 1 ]] && replays=OFF
bash "$root/scripts/install_deps.sh"
# Everything on, whatever the folder's cache says (the main job turns tests and the rest off).
SALTUS_CMAKE_ARGS="-DSALTUS_SANITIZER_REPLAYS=$replays -DSALTUS_BUILD_TESTS=ON \
-DSALTUS_BUILD_BENCH=ON -DSALTUS_BUILD_EXAMPLES=ON -DSALTUS_BUILD_PYTHON=ON ${SALTUS_CMAKE_ARGS:-}" \
  bash "$root/scripts/build.sh" all saltus_extras
bash "$root/scripts/check_format.sh"
cd "${SALTUS_BUILD_DIR:-$root/build}"
labels=()
((quick)) && labels=(-L quick)
ctest --output-on-failure -j "${SALTUS_JOBS:-$(nproc)}" "${labels[@]}"
