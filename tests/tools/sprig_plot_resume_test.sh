#!/bin/sh
# sprig-plot plot --resume: a run stopped with records kept continues to the same bytes as an
# uninterrupted run; what cannot be resumed is refused with exit status 2 and a message that
# says why and what to do: records kept without --resume, a partial file of another plot, a
# damaged progress file, a partial file cut shorter than its progress file vouches for.
# --resume with nothing to resume plots from the start. SPRIG_PLOT_CHECKPOINT_MS=0 (set by
# the test) checkpoints after every record.
# Usage: sprig_plot_resume_test.sh SPRIG_PLOT WORK_DIR
set -u
plot=$1
dir=$2
mkdir -p "$dir" && cd "$dir" || exit 1
rm -f ./*.plot ./*.partial*
sector=0404040404040404040404040404040404040404040404040404040404040404
args="plot --sector-id $sector --records 3 --k 15 --device sim"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$plot" $args --output whole.plot > /dev/null 2>&1 || { echo "FAIL: the uninterrupted run"; exit 1; }

# What a run of the three-record plot leaves when it stops after its first record: the
# header and first record (as long as a one-record file of the same sector), and a progress
# file that vouches for them.
one_bytes=$("$plot" plot --sector-id $sector --records 1 --k 15 --device sim --output one.plot > /dev/null 2>&1 &&
  wc -c < one.plot)
stopped_run() {
  rm -f out.plot out.plot.partial*
  head -c "$one_bytes" whole.plot > out.plot.partial
  printf 'sprig-plot partial plot\nK 15, Abundance rules, 3 records of sector %s from piece offset 0\nrecords 1 bytes %d\n' \
    $sector "$one_bytes" > out.plot.partial.progress
}

expect_refused() {  # MESSAGE ARGS...
  message=$1
  shift
  "$plot" "$@" > /dev/null 2> err.txt
  rc=$?
  if [ $rc -ne 2 ]; then
    fail "sprig-plot $*: exit status $rc, expected 2:"; cat err.txt
  elif ! grep -qF -- "$message" err.txt; then
    fail "sprig-plot $*: the error does not say '$message':"; cat err.txt
  elif [ -e out.plot ] || [ ! -e out.plot.partial ]; then
    fail "sprig-plot $*: wrote out.plot or lost the partial file"
  else
    echo "ok: sprig-plot $*: $(cat err.txt)"
  fi
}

stopped_run
expect_refused "out.plot.partial holds 1 records of an earlier run of this plot: continue it with --resume" \
  $args --output out.plot
expect_refused "holds 1 records of another plot (K 15, Abundance rules, 3 records" \
  plot --sector-id $sector --records 3 --k 16 --device sim --output out.plot --resume
"$plot" $args --output out.plot --resume > /dev/null 2> err.txt || { fail "--resume:"; cat err.txt; }
grep -q "resuming after 1 of 3 records" err.txt || { fail "--resume does not say where it resumes:"; cat err.txt; }
cmp -s out.plot whole.plot || fail "the resumed plot differs from an uninterrupted one"
[ -e out.plot.partial ] || [ -e out.plot.partial.progress ] && fail "--resume left its partial files"

stopped_run
printf 'sprig-plot partial plot\nrecords x\n' > out.plot.partial.progress
expect_refused "out.plot.partial.progress is damaged; delete it and out.plot.partial to start again" \
  $args --output out.plot --resume

stopped_run
head -c 100 whole.plot > out.plot.partial
expect_refused "out.plot.partial has 100 bytes, fewer than the" $args --output out.plot --resume

rm -f out.plot out.plot.partial*
"$plot" $args --output out.plot --resume > /dev/null 2> err.txt || { fail "--resume with nothing to resume:"; cat err.txt; }
grep -q "nothing to resume" err.txt || { fail "--resume with nothing to resume says nothing:"; cat err.txt; }
cmp -s out.plot whole.plot || fail "--resume with nothing to resume wrote other bytes"

[ $failures -eq 0 ] && echo "resume: all cases behave"
exit $failures
