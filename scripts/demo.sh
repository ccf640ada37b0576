#!/usr/bin/env bash
# Installs what is missing, builds sprig and runs the demo: kernels on the best Vulkan
# device (lavapipe when there is no GPU) and the same kernels on the simulator.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPRIG_BUILD_TESTS=OFF -DSPRIG_BUILD_BENCH=OFF
cmake --build build --target demo -j "$(nproc)"
./build/examples/demo "$@"
