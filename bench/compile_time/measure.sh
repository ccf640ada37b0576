#!/usr/bin/env bash
# Times the compilation of the compile-time probes in this folder with g++ -O2, as a user's
# build compiles them: CPU seconds and peak memory, best of N runs, plus GCC's
# own split into parsing, template instantiation and optimisation for the last run. Times are
# user CPU seconds: the compiler's work, without the kernel's page-fault time, which varies
# from machine to machine.
#
#   bash bench/compile_time/measure.sh [runs=3] [probe.cpp ...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=${1:-3}
shift || true
probes=("$@")
[ ${#probes[@]} -gt 0 ] || probes=("$here"/*.cpp)
cxx=${CXX:-c++}
includes=()
for dir in include dsl/include compiler/include runtime/include runtime/vulkan/include simulator/include stdlib/include; do
  includes+=("-I$root/$dir")
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf '%-24s %10s %10s %10s %10s %10s\n' probe "user s" "parse s" "instant s" "codegen s" "peak MiB"
for probe in "${probes[@]}"; do
  best=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -f '%U %S %M' -o "$scratch/time" "$cxx" -std=c++20 -O2 -DNDEBUG "${includes[@]}" \
      -ftime-report -c "$probe" -o "$scratch/probe.o" 2> "$scratch/report"
    read -r user _ kib < "$scratch/time"
    if [ -z "$best" ] || awk -v a="$user" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$user; mem=$((kib / 1024)); fi
  done
  phase() { awk -v p="$1" -F: '$1 ~ p { split($2, f, " "); print f[1] }' "$scratch/report"; }
  printf '%-24s %10s %10s %10s %10s %10s\n' "$(basename "$probe" .cpp)" "$best" "$(phase 'phase parsing')" \
    "$(phase 'template instantiation')" "$(phase 'phase opt and generate')" "$mem"
done
