#!/usr/bin/env bash
# Builds ptovp and runs every test in the Release configuration.
#   scripts/test.sh              Release build, whole suite (what CI runs)
#   scripts/test.sh --sanitize   then the same suite again under
#                                AddressSanitizer + UndefinedBehaviorSanitizer
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

jobs=$(nproc)
run_preset() {
  local preset=$1
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs"
}

run_preset release
if [[ "${1:-}" == "--sanitize" ]]; then
  run_preset asan
fi
