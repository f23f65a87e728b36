#!/usr/bin/env bash
# Builds ptovp and runs every test: the Release suite, then the same suite
# under AddressSanitizer + UndefinedBehaviorSanitizer.
#   scripts/test.sh            both configurations
#   scripts/test.sh --fast     Release only
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
if [[ "${1:-}" != "--fast" ]]; then
  run_preset asan
fi
