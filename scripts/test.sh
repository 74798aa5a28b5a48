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
