#!/bin/sh
# `sprig-plot plot` killed with SIGKILL at any moment leaves either no file or a complete,
# valid one under the final name, and the same command with --resume then writes the same
# bytes as an uninterrupted run. One uninterrupted run measures how long plotting takes
# (after a first one has filled the pipeline cache); then runs are killed at fractions of
# that time, from start-up to the final rename. Each record waits 150 ms first
# (SPRIG_PLOT_RECORD_DELAY_MS) and one is in flight, so that a fast GPU's plot lasts long
# enough to be killed in the middle.
# Usage: sprig_plot_kill_test.sh SPRIG_PLOT WORK_DIR
set -u
plot=$1
dir=$2
mkdir -p "$dir" && cd "$dir" || exit 1
rm -f killed.plot killed.plot.partial* timed.plot timed.plot.partial*  # an interrupted earlier run leaves partials
args="plot --sector-id 0303030303030303030303030303030303030303030303030303030303030303 --records 6 --k 15"
export SPRIG_PLOT_RECORD_DELAY_MS=150

"$plot" $args --output timed.plot --in-flight 1 > /dev/null 2>&1 || { echo "the first run failed"; exit 1; }
rm -f timed.plot
start=$(date +%s%N)
"$plot" $args --output timed.plot --in-flight 1 > /dev/null 2>&1 || { echo "the uninterrupted run failed"; exit 1; }
whole_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "an uninterrupted run takes $whole_ms ms"

records_kept() {
  sed -n 's/^records \([0-9]*\) .*/\1/p' killed.plot.partial.progress 2> /dev/null
}

# Checks what the run killed at moment $1 left behind, and resumes it where it left no file.
complete=0
absent=0
resumed=0
check_killed_run() {
  if [ -e killed.plot ]; then
    cmp -s killed.plot timed.plot || { echo "killed $1: killed.plot differs from a complete plot"; exit 1; }
    complete=$((complete + 1))
    outcome="complete file"
  else
    absent=$((absent + 1))
    kept=$(records_kept)
    outcome="no file, ${kept:-no} records kept"
    [ -n "$kept" ] && resumed=$((resumed + 1))
    "$plot" $args --output killed.plot --resume > /dev/null 2> resume.err ||
      { echo "killed $1: --resume failed:"; cat resume.err; exit 1; }
    cmp -s killed.plot timed.plot || { echo "killed $1: the resumed plot differs from an uninterrupted one"; exit 1; }
    ls killed.plot.partial* > /dev/null 2>&1 && { echo "killed $1: --resume left its partial files"; exit 1; }
    outcome="$outcome; --resume wrote the same bytes"
  fi
  echo "killed $1: $outcome"
}

for percent in 2 10 30 50 70 85 93 97 99 101 105 110 120 135 150 200 300; do
  rm -f killed.plot killed.plot.partial*
  "$plot" $args --output killed.plot --in-flight 1 > /dev/null 2>&1 &
  pid=$!
  delay_ms=$(( whole_ms * percent / 100 ))
  sleep "$(( delay_ms / 1000 )).$(printf '%03d' $(( delay_ms % 1000 )))"
  kill -9 $pid 2> /dev/null
  wait $pid 2> /dev/null
  check_killed_run "at $percent% ($delay_ms ms)"
done

# Start-up time varies with the machine's load, so the fractions above may all miss the
# records' stretch: one more run is killed as soon as its progress file keeps a record
# (records are 150 ms apart; the file is polled every 10 ms, for at most a minute).
rm -f killed.plot killed.plot.partial*
"$plot" $args --output killed.plot --in-flight 1 > /dev/null 2>&1 &
pid=$!
polls=0
while [ $polls -lt 6000 ] && [ ! -e killed.plot ] && [ "$(records_kept)" = "" ]; do
  sleep 0.01
  polls=$((polls + 1))
done
kill -9 $pid 2> /dev/null
wait $pid 2> /dev/null
check_killed_run "after its first record"
"$plot" verify --input timed.plot > /dev/null || { echo "the complete plot does not verify"; exit 1; }
echo "$absent runs left no file ($resumed of them records to resume), $complete a complete one"
# Every outcome must have happened, or the kills missed the interesting moments.
[ $absent -gt 0 ] && [ $complete -gt 0 ] && [ $resumed -gt 0 ] || { echo "the kills did not cover the whole run"; exit 1; }
