#!/usr/bin/env bash
# Installs the Debian packages MaxGraph needs (only those missing), then
# configures and builds the given CMake preset (default: "default").
#   scripts/setup.sh [preset]
set -euo pipefail
preset=${1:-default}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

packages=(cmake ninja-build python3 clang-22 lld-22 llvm-22-dev llvm-22-tools
          libmlir-22-dev mlir-22-tools libclang-rt-22-dev
          libgtest-dev libbenchmark-dev)
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
      grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
    --no-install-recommends "${missing[@]}"
fi

cd "$root"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
