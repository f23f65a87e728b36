#!/usr/bin/env bash
# clang-tidy with the project's checks (.clang-tidy) over every source of
# modules/ and platform/, in parallel, against a configured build's
# compile_commands.json. Any finding fails (WarningsAsErrors).
#   scripts/tidy.sh [BUILD_DIR]      default build/release
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
[[ -f "$build/compile_commands.json" ]] || { echo "tidy: no $build/compile_commands.json" >&2; exit 2; }
# Generated tables are data; the rest is ours. pybind11 compiles the Python
# module with GCC's LTO flags, which clang does not know: not a finding.
run-clang-tidy -quiet -p "$build" -j "$(nproc)" \
  -extra-arg=-Wno-ignored-optimization-argument \
  "$PWD/(modules|platform)/(?!isa/generated/).*\.cpp$"
