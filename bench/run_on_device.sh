#!/usr/bin/env bash
# Runs the benchmarks on the GPU machine (see docs/benchmarks.md): the binaries are built
# on a Debian 12 machine and carried in .device/, the Vulkan loader in .gl/.
# Usage on the device machine, from the repository root: bash bench/run_on_device.sh [bench...]
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
out=${OUT:-/tmp/bench-out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(.device/bench_*)
for b in "${benches[@]}"; do
  name=$(basename "$b")
  echo "== $name"
  "$b" 2>&1 | tee "$out/$name.txt"
done
