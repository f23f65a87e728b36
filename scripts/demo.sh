#!/usr/bin/env bash
# One command from a fresh Debian machine: install what is missing, build,
# and run the demo.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target ptovp
ptovp=build/release/platform/ptovp

echo "== ptovp: checking the public conformance vectors =="
"$ptovp" vectors tests/vectors/*.vec
