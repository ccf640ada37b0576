#!/usr/bin/env bash
# Installs what is missing, builds sprig and runs the demo: kernels on the best Vulkan
# device (lavapipe when there is no GPU) and the same kernels on the simulator; then plots
# a proof-of-space record (K = 18) with sprig-plot and verifies its proofs on the device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPRIG_BUILD_TESTS=OFF -DSPRIG_BUILD_BENCH=OFF
cmake --build build --target demo sprig-plot -j "$(nproc)"
./build/examples/demo "$@"
plot=$(mktemp -d)/record.plot
./build/tools/sprig-plot/sprig-plot plot --seed 23023404333717545b0a6f0c0dde9710e4d3fe2d5cc6cc0a090a0b818bab0f17 --k 18 --output "$plot"
./build/tools/sprig-plot/sprig-plot verify --input "$plot"
