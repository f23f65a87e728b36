#!/usr/bin/env bash
# Installs the Debian packages ptovp needs, only those that are missing.
# Idempotent; run as root (or with sudo available).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config python3
  libsystemc-dev libboost-dev libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev libgmp-dev libmpfr-dev
  verilator clang clang-format clang-tidy python3-matplotlib  # verilator >= 5: PTOVP_RTL
  parallel slurm-wlm munge
  gdb-multiarch lldb            # debuggers for `ptovp run --gdb` (docs/debugging.md)
  pybind11-dev python3-dev python3-pytest  # the Python API and its tests (docs/python.md)
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
