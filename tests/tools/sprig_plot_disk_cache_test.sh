#!/bin/sh
# A second sprig-plot process takes every kernel's SPIR-V from the disk cache the first one
# filled (and its driver pipelines, which the output cannot show), and a damaged cache only
# costs a warning. Usage: sprig_plot_disk_cache_test.sh <sprig-plot> <scratch directory>
set -u
tool=$1
scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
export SPRIG_CACHE_DIR="$scratch/cache"
bench() { "$tool" bench --k 15 --records 1 --in-flight 1 > "$scratch/$1.out" 2> "$scratch/$1.err"; }

bench first || { cat "$scratch/first.out" "$scratch/first.err"; exit 1; }
cat "$scratch/first.out"
grep -Eq 'start-up to the first 1 records: [0-9.]+ s .*; 0 of [1-9][0-9]* kernels' "$scratch/first.out" || exit 1

bench second || { cat "$scratch/second.out" "$scratch/second.err"; exit 1; }
cat "$scratch/second.out"
# "N of N kernels' SPIR-V from the disk cache", with the same N twice.
grep -Eq '; ([0-9]+) of \1 kernels' "$scratch/second.out" || exit 1
[ -s "$scratch/second.err" ] && { echo "unexpected warnings:"; cat "$scratch/second.err"; exit 1; }

# Damage every cached file: the run still succeeds, warns, and rebuilds what it needs.
for f in $(find "$SPRIG_CACHE_DIR" -type f); do printf 'damaged' | dd of="$f" bs=1 seek=50 conv=notrunc 2> /dev/null; done
bench damaged || { cat "$scratch/damaged.out" "$scratch/damaged.err"; exit 1; }
grep -q 'sprig: warning: ignoring cache file' "$scratch/damaged.err" || { echo "no warning for damaged files"; exit 1; }
grep -Eq '; 0 of [1-9][0-9]* kernels' "$scratch/damaged.out" || exit 1
echo "disk cache: reused, and damaged files ignored with a warning"
