#!/usr/bin/env bash
# Installs the Debian 12 packages sprig needs to build, test and run on lavapipe, and
# only those missing. Runs apt-get through sudo when not root.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  spirv-headers spirv-tools libvulkan-dev libvulkan-volk-dev vulkan-validationlayers mesa-vulkan-drivers
  librange-v3-dev catch2 glslang-tools nlohmann-json3-dev
  libssl-dev libsodium-dev libgmp-dev b3sum oclgrind libcli11-dev
  # sprig-plot across the ranks of an mpirun job (SPRIG_WITH_MPI) and its mpirun tests.
  libopenmpi-dev openmpi-bin
  # The HTML report's browser test (tests/simulator/browser): headless Chromium, driven from Python.
  python3 chromium
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
