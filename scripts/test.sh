#!/usr/bin/env bash
# Installs what is missing, builds sprig with its tests and runs the whole suite through
# ctest, on lavapipe with the Khronos validation layer on.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPRIG_WERROR=ON
cmake --build build-test -j "$(nproc)"
ctest --test-dir build-test --output-on-failure -j "$(nproc)" --timeout 900
