#!/usr/bin/env bash
# Fails if any C++ file under include/ src/ tests/ bench/ examples/ apps/ is not clang-format clean.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mapfile -t files < <(git ls-files '*.hpp' '*.cpp' '*.h' '*.c' | grep -E '^(include|src|tests|bench|examples|apps|python)/')
((${#files[@]})) || exit 0
clang-format --dry-run --Werror "${files[@]}"
echo "clang-format: ${#files[@]} files clean"
