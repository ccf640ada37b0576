#!/bin/sh
# sprig-plot refuses bad command lines before touching a device or a file: exit status 2, a
# message on stderr that names the problem, and no output file or temporary file left.
# --help exits 0.
# Usage: sprig_plot_usage_test.sh SPRIG_PLOT WORK_DIR
set -u
plot=$1
dir=$2
mkdir -p "$dir" && cd "$dir" || exit 1
rm -f out.plot out.plot.partial*
seed=0101010101010101010101010101010101010101010101010101010101010101
failures=0

expect_refused() {  # MESSAGE ARGS...
  message=$1
  shift
  "$plot" "$@" > /dev/null 2> err.txt
  rc=$?
  if [ $rc -ne 2 ]; then
    echo "FAIL: sprig-plot $*: exit status $rc, expected 2"; failures=$((failures + 1))
  elif ! grep -qF -- "$message" err.txt; then
    echo "FAIL: sprig-plot $*: the error does not say '$message':"; cat err.txt; failures=$((failures + 1))
  elif ls out.plot out.plot.partial* > /dev/null 2>&1; then
    echo "FAIL: sprig-plot $*: left a file behind"; failures=$((failures + 1))
  else
    echo "ok: sprig-plot $*: $(cat err.txt)"
  fi
}

expect_refused "A subcommand is required"
expect_refused "not expected: --frob" plot --frob --seed $seed --output out.plot
expect_refused "--output is required" plot --seed $seed
expect_refused "--input is required" verify
expect_refused "K = 14 is out of range" plot --seed $seed --k 14 --output out.plot
expect_refused "--k must be a whole number; got 'big'" bench --k big
expect_refused "--k: At Most 1" plot --seed $seed --k 15 --k 16 --output out.plot
expect_refused "--seed must be 64 hex digits (32 bytes); got 3 characters" plot --seed abc --output out.plot
expect_refused "'g' at position 63 is not one" plot --seed 010101010101010101010101010101010101010101010101010101010101010g --output out.plot
expect_refused "--sector-id must be 64 hex digits" plot --sector-id 00 --output out.plot
expect_refused "plot needs --seed or --sector-id" plot --output out.plot
expect_refused "plot takes --seed or --sector-id, not both" plot --seed $seed --sector-id $seed --output out.plot
expect_refused "--seed plots one record" plot --seed $seed --records 2 --output out.plot
expect_refused "--piece-offset goes with --sector-id" plot --seed $seed --piece-offset 3 --output out.plot
expect_refused "--piece-offset + --records must not exceed 65536" plot --sector-id $seed --piece-offset 65000 --records 537 --output out.plot
expect_refused "--piece-offset must be at most 65535; got 65536" plot --sector-id $seed --piece-offset 65536 --output out.plot
expect_refused "--records must be at least 1; got 0" plot --sector-id $seed --records 0 --output out.plot
expect_refused "--records must be a whole number; got '-1'" bench --records -1
expect_refused "--mode must be abundance or subspace; got 'chia'" plot --seed $seed --mode chia --output out.plot
expect_refused "--device must be vulkan or sim; got 'gpu'" verify --input out.plot --device gpu
expect_refused "--in-flight must be at least 1; got 0" bench --in-flight 0
expect_refused "--devices lists Vulkan devices; it does not go with --device sim" bench --devices 0 --device sim
expect_refused "--devices: device list '0,99': '99' is not a device index" plot --seed $seed --k 15 --devices 0,99 --output out.plot
expect_refused "--memory-budget must be a whole number of bytes, optionally with KiB, MiB, GiB or TiB; got '2GB'" bench --memory-budget 2GB
expect_refused "--memory-budget must be more than 0 bytes; got 0MiB" plot --seed $seed --memory-budget 0MiB --output out.plot
expect_refused "--memory-budget is too large: 99999999999TiB" bench --memory-budget 99999999999TiB
expect_refused "not expected: --resume" bench --resume
expect_refused "cannot read missing.plot" verify --input missing.plot
expect_refused "creating missing-dir/out.plot.partial failed" plot --seed $seed --k 15 --output missing-dir/out.plot --device sim

"$plot" --help > help.txt 2>&1 && grep -q "plot" help.txt || { echo "FAIL: sprig-plot --help"; failures=$((failures + 1)); }
"$plot" plot --help > help.txt 2>&1 && grep -q -- "--sector-id" help.txt || { echo "FAIL: sprig-plot plot --help"; failures=$((failures + 1)); }

[ $failures -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "every bad command line was refused"
