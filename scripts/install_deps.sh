#!/usr/bin/env bash
# Installs, from Debian, everything saltus needs to build, test and benchmark; with the argument
# `demo`, only what the main job needs (scripts/demo.sh). Idempotent: packages already present
# are not fetched again. Run as root.
set -euo pipefail

# What the main job (scripts/demo.sh) needs to build the saltus command and draw its plots.
packages=(
  build-essential cmake pkg-config
  libeigen3-dev           # linear algebra
  libceres-dev            # ceres/jet.h: forward-mode automatic differentiation
  nlohmann-json3-dev      # summaries and tables in JSON
  libtomlplusplus-dev     # model files (TOML)
  libcli11-dev            # the saltus command line
  libgccjit-12-dev        # native code for model tapes (lang/native_tape.hpp)
  python3 python3-matplotlib # plots (pulls numpy)
)
# The rest: tests, the Python package, MPI sweeps, formatting (scripts/test.sh).
if [[ "${1:-}" != "demo" ]]; then
  packages+=(
    git
    libgtest-dev googletest # unit tests
    libbenchmark-dev        # benchmarks
    clang-format
    python3-numpy python3-scipy # SciPy peer; the hull of a body in `saltus animate` (3-D)
    python3-pil             # figure test (reads the PNGs), GIF animations (saltus animate)
    python3-dev pybind11-dev python3-pytest python3-pandas # the Python package and its tests
    libopenmpi-dev openmpi-bin                            # `mpirun -n N saltus sweep`
  )
fi
if [[ "${SALTUS_WITH_PEERS:-0}" == "1" ]]; then
  packages+=(libsundials-dev python3-siconos python3-mpmath) # peers for side-by-side benchmarks
  packages+=(libsiconos-numerics-dev) # Siconos C API: bench/peers/siconos_lcp_bench.cpp
  packages+=(python3-numba) # closed-form sleigh peer of bench/run_sleigh_bench.sh (pulls llvmlite)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "saltus: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
