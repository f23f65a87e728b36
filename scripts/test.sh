#!/usr/bin/env bash
# Builds ptovp and runs every test: the Release suite, clang-tidy over
# modules/ and platform/ (scripts/tidy.sh, .clang-tidy), then the same suite
# again under AddressSanitizer + UndefinedBehaviorSanitizer (what CI runs),
# warnings as errors (PTOVP_WERROR) and the layer matrix checked by ctest.
#   scripts/test.sh                 Release, then ASan + UBSan
#   scripts/test.sh --release-only  Release only (a quicker local check)
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

jobs=$(nproc)
run_preset() {
  local preset=$1
  cmake --preset "$preset" -DPTOVP_WERROR=ON >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs"
}

run_preset release
bash scripts/tidy.sh build/release
if [[ "${1:-}" != "--release-only" ]]; then
  run_preset asan
fi
