#!/bin/sh
# sprig-plot under --memory-budget (on the simulator, whose buffers are sized exactly): a
# budget with room for one K = 15 plotter, not the simulator's default two, plots with one
# record in flight and writes the same bytes as a run without a budget; a budget too small
# for one record's temporaries plots one record in flight with the rest of them in host
# memory, the same bytes again; a budget too small for the buffers one plotter keeps, or
# for the records in flight asked for, is the user's mistake (exit status 2) and leaves no
# file.
# Usage: sprig_plot_memory_budget_test.sh SPRIG_PLOT WORK_DIR
set -u
plot=$1
dir=$2
mkdir -p "$dir" && cd "$dir" || exit 1
rm -f ./*.plot ./*.plot.partial*
sector=0707070707070707070707070707070707070707070707070707070707070707
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# On the simulator a K = 15 plotter holds 8.5 MiB of its own and 9.3 MiB of transients in
# the workspace that a device's plotters share: one takes 17.8 MiB, two 26.3 MiB.
"$plot" plot --sector-id $sector --records 3 --k 15 --device sim --output free.plot > /dev/null 2>&1 ||
  fail "plot without a budget"
"$plot" plot --sector-id $sector --records 3 --k 15 --device sim --memory-budget 22MiB --output tight.plot \
  > /dev/null 2> err.txt || { fail "plot under a 22 MiB budget:"; cat err.txt; }
grep -q "only 1 of 2 records in flight fit" err.txt || fail "plot under 22 MiB did not say it keeps one record in flight"
cmp free.plot tight.plot || fail "plot under a 22 MiB budget wrote other bytes than without a budget"
"$plot" plot --sector-id $sector --records 3 --k 15 --device sim --memory-budget 40MiB --output roomy.plot \
  > /dev/null 2> err.txt || { fail "plot under a 40 MiB budget:"; cat err.txt; }
grep -q "records in flight fit" err.txt && fail "plot under 40 MiB kept fewer than two records in flight"
cmp free.plot roomy.plot || fail "plot under a 40 MiB budget wrote other bytes than without a budget"
"$plot" plot --sector-id $sector --records 3 --k 15 --device sim --memory-budget 12MiB --output spilled.plot \
  > /dev/null 2> err.txt || { fail "plot under a 12 MiB budget:"; cat err.txt; }
grep -q "of its temporaries go to host memory" err.txt || fail "plot under 12 MiB did not say it spills to host memory"
cmp free.plot spilled.plot || fail "plot under a 12 MiB budget wrote other bytes than without a budget"
"$plot" bench --k 15 --records 2 --device sim --memory-budget 12MiB > out.txt 2> err.txt ||
  { fail "bench under a 12 MiB budget:"; cat err.txt; }
grep -q "MiB of temporaries in host memory" out.txt || fail "bench under 12 MiB did not report its host memory"

expect_too_small() {  # MESSAGE ARGS...
  message=$1
  shift
  "$plot" "$@" > /dev/null 2> err.txt
  rc=$?
  if [ $rc -ne 2 ]; then
    fail "sprig-plot $*: exit status $rc, expected 2:"; cat err.txt
  elif ! grep -qF -- "$message" err.txt; then
    fail "sprig-plot $*: the error does not say '$message':"; cat err.txt
  elif ls small.plot small.plot.partial* > /dev/null 2>&1; then
    fail "sprig-plot $*: left a file behind"
  else
    echo "ok: sprig-plot $*: $(cat err.txt)"
  fi
}
expect_too_small "device too small: the buffers of 1 plotter for K = 15" \
  plot --sector-id $sector --records 2 --k 15 --device sim --memory-budget 4MiB --output small.plot
expect_too_small "memory budget is 1.00 MiB" bench --k 15 --records 2 --device sim --memory-budget 1MiB
expect_too_small "device too small: the buffers of 2 plotters for K = 15" \
  bench --k 15 --records 2 --in-flight 2 --device sim --memory-budget 30MiB

[ $failures -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "sprig-plot keeps to its memory budget"
