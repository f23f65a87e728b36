#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, configures and builds the
# out-of-tree testbench against it (find_package(ptovp)) and runs it.
#     package_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" > "$scratch/install.log"
test -f "$scratch/prefix/lib/cmake/ptovp/ptovpConfig.cmake"
test -f "$scratch/prefix/include/ptovp/fpatr/fpatr_backend.hpp"
cmake -S "$source/tests/package" -B "$scratch/tb" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" > "$scratch/configure.log"
cmake --build "$scratch/tb" > "$scratch/build.log" || { cat "$scratch/build.log"; exit 1; }
cd "$scratch/tb"
./testbench
