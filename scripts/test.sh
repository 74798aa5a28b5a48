#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs every test (unit + validation)
# and checks formatting.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install_deps.sh"
bash "$root/scripts/build.sh"
bash "$root/scripts/check_format.sh"
cd "${SALTUS_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j "${SALTUS_JOBS:-$(nproc)}"
# Model-file parser and expression compiler: replay the fuzz corpus under ASan + UBSan.
# LCP layer (Lemke, enumeration, matrix classes): replay its fuzz corpus the same way.
if [[ "${SALTUS_SKIP_FUZZ_REPLAY:-0}" != "1" ]]; then
  bash "$root/tests/model/fuzz/replay_corpus.sh"
  bash "$root/tests/mech/fuzz/replay_corpus.sh"
fi
