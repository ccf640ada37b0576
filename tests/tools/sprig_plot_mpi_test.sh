#!/bin/sh
# sprig-plot under mpirun (Open MPI): plots of 2 ranks and of 3 ranks on 2 cores
# (--oversubscribe) are byte for byte the file one process writes; verify deals records to
# ranks; a rank killed mid-run ends the job and --resume then writes the same bytes; a rank
# that fails names itself (rank, host, error); bad arguments on every rank are one error;
# a rank given another command line, and bench, are refused.
# Usage: sprig_plot_mpi_test.sh SPRIG_PLOT MPIRUN WORK_DIR
set -u
plot=$1
mpirun=$2
dir=$3
mkdir -p "$dir" && cd "$dir" || exit 1
rm -f ./*.plot ./*.plot.partial* ./*.txt
sector=0505050505050505050505050505050505050505050505050505050505050505
args="plot --sector-id $sector --records 12 --k 15"
run="$mpirun --oversubscribe --bind-to none"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$plot" $args --output one.plot > /dev/null 2>&1 || { echo "FAIL: one process"; exit 1; }

# mpirun binds a rank to one core by default where it has two ranks or fewer: rank 0 warns.
"$mpirun" --oversubscribe --bind-to core -n 2 "$plot" $args --output bound.plot > /dev/null 2> err.txt
grep -q "warning: mpirun bound each rank to one core" err.txt && echo "ok: ranks bound to one core are warned about" ||
  { fail "no warning for ranks bound to one core:"; cat err.txt; }
cmp -s one.plot bound.plot || fail "ranks bound to one core wrote other bytes"

for ranks in 2 3; do
  $run -n $ranks "$plot" $args --output ranks$ranks.plot > out.txt 2> err.txt || { fail "-n $ranks:"; cat out.txt err.txt; }
  cmp -s one.plot ranks$ranks.plot && grep -q "with $ranks ranks" out.txt && echo "ok: -n $ranks writes the same bytes" ||
    fail "-n $ranks wrote other bytes than one process"
  grep -q "by device and rank:" err.txt || { fail "-n $ranks shows no progress per rank:"; cat err.txt; }
done

$run -n 2 "$plot" verify --input ranks2.plot > out.txt 2> err.txt || { fail "verify -n 2:"; cat out.txt err.txt; }
grep -q "K = 15, Abundance rules, 12 records, [0-9]* proofs, [0-9]* valid, 0 invalid, 0 malformed records" out.txt &&
  echo "ok: verify -n 2: $(cat out.txt)" || { fail "verify -n 2 says:"; cat out.txt; }

# Rank 1 killed once rank 0 has made records durable: the job ends without a final file,
# and --resume (two ranks again) finishes it.
# Each record waits 200 ms and one is in flight per rank, so that the job on a fast GPU
# lasts long enough to be killed in the middle.
$run -n 2 -x SPRIG_PLOT_CHECKPOINT_MS=0 -x SPRIG_PLOT_RECORD_DELAY_MS=200 "$plot" $args --output killed.plot \
  --in-flight 1 > /dev/null 2>&1 &
job=$!
rank1=""
for _ in $(seq 600); do
  [ -e killed.plot.partial.progress ] && break
  sleep 0.05
done
for pid in $(pgrep -f "sprig-plot $args --output killed.plot --in-flight 1"); do
  tr '\0' '\n' < /proc/$pid/environ 2> /dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1" && rank1=$pid
done
if [ -z "$rank1" ] || [ ! -e killed.plot.partial.progress ]; then
  fail "no rank 1 to kill, or no records kept before it"
else
  kill -9 "$rank1"
  wait $job && fail "the job went on after rank 1 was killed"
  [ -e killed.plot ] && fail "the killed job left killed.plot"
  kept=$(sed -n 's/^records \([0-9]*\) .*/\1/p' killed.plot.partial.progress)
  $run -n 2 "$plot" $args --output killed.plot --resume > /dev/null 2> err.txt || { fail "--resume:"; cat err.txt; }
  cmp -s one.plot killed.plot && echo "ok: rank 1 killed after $kept records kept; --resume wrote the same bytes" ||
    fail "the resumed plot differs from one process's"
fi

# A rank that fails while plotting ends the job with its rank, host and error.
$run -n 1 "$plot" $args --output failed.plot : -n 1 -x SPRIG_PLOT_FAIL_AFTER=1 "$plot" $args --output failed.plot \
  > /dev/null 2> err.txt
rc=$?
if [ $rc -ne 3 ] || ! grep -q "sprig-plot: error: rank 1 on .* failed: .*fault injected after 1 records" err.txt; then
  fail "a failing rank: exit status $rc:"; cat err.txt
else
  echo "ok: a failing rank: $(grep 'sprig-plot: error' err.txt)"
fi
[ -e failed.plot ] && fail "the failed job left failed.plot"
$run -n 2 "$plot" $args --output failed.plot --resume > /dev/null 2>&1 && cmp -s one.plot failed.plot ||
  fail "--resume after a failed rank"

expect_refused() {  # MESSAGE MPIRUN-ARGS...
  message=$1
  shift
  $run "$@" > /dev/null 2> err.txt
  rc=$?
  errors=$(grep -c "sprig-plot: error" err.txt)
  if [ $rc -ne 2 ] || ! grep -qF -- "$message" err.txt || [ "$errors" -ne 1 ]; then
    fail "mpirun $*: exit status $rc, $errors errors, expected 2 and one saying '$message':"; cat err.txt
  else
    echo "ok: mpirun $*: $(grep 'sprig-plot: error' err.txt)"
  fi
}
expect_refused "K = 30 is out of range" -n 2 "$plot" plot --sector-id $sector --k 30 --output bad.plot
expect_refused "rank 1 on" -n 1 "$plot" $args --output bad.plot : \
  -n 1 "$plot" plot --sector-id $sector --records 12 --k 16 --output bad.plot
grep -q "it was given other work than rank 0" err.txt || { fail "another command line on rank 1:"; cat err.txt; }
expect_refused "bench times the devices of one process" -n 2 "$plot" bench --k 15 --records 1
expect_refused "cannot read missing.plot" -n 2 "$plot" verify --input missing.plot
ls bad.plot* > /dev/null 2>&1 && fail "a refused job left a file"

[ $failures -eq 0 ] && echo "mpirun: all cases behave"
exit $failures
