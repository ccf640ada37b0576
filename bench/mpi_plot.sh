#!/usr/bin/env bash
# sprig-plot plotting to a file under mpirun, against one process in the same run: ranks
# sharing GPU 0 (1, 2 and 4 ranks: does one rank's host work overlap another's GPU work?),
# and one rank per GPU against one process with --devices all. Every file is compared with
# the one-process file. Prints a markdown table; plots go to $PLOT_DIR (default /tmp). Ranks
# are not bound to cores (--bind-to none): each records on several threads.
# Usage: [SHARED_RANKS="1 2 4"] bash bench/mpi_plot.sh SPRIG_PLOT K RECORDS [MPIRUN]
set -uo pipefail
plot=$1 k=$2 records=$3 mpirun=${4:-mpirun}
dir=${PLOT_DIR:-/tmp}
sector=0101010101010101010101010101010101010101010101010101010101010101
args="plot --sector-id $sector --records $records --k $k"
gpus=$(nvidia-smi -L 2> /dev/null | wc -l)
[ "$gpus" -ge 1 ] || gpus=1

# records/s of a run, from the last progress line, and whether its file is the reference.
run() {  # LABEL FILE COMMAND...
  local label=$1 file=$2
  shift 2
  rm -f "$file" "$file".partial*
  "$@" 2> "$dir/err.txt" > /dev/null || { echo "| $k | $label | failed: $(tail -c 300 "$dir/err.txt") | |"; return; }
  local rate
  rate=$(tr '\r' '\n' < "$dir/err.txt" | grep -o '[0-9.]* records/s' | tail -1)
  local same=reference
  [ "$file" = "$dir/one.plot" ] || { cmp -s "$file" "$dir/one.plot" && same=yes || same=NO; }
  echo "| $k | $label | $rate | $same |"
  [ "$file" = "$dir/one.plot" ] || rm -f "$file"
}

"$plot" $args --output "$dir/warm.plot" > /dev/null 2>&1; rm -f "$dir/warm.plot"  # pipeline caches
echo "| K | run | records/s to the file | same bytes as one process |"
echo "|---|---|---|---|"
SPRIG_DEVICE=0 run "1 process, GPU 0" "$dir/one.plot" "$plot" $args --output "$dir/one.plot"
for ranks in ${SHARED_RANKS-1 2 4}; do
  run "mpirun -n $ranks, all on GPU 0" "$dir/ranks.plot" \
    "$mpirun" --oversubscribe --bind-to none -n $ranks -x SPRIG_DEVICE=0 "$plot" $args --output "$dir/ranks.plot"
done
if [ "$gpus" -gt 1 ]; then
  run "1 process, --devices all ($gpus GPUs)" "$dir/all.plot" "$plot" $args --devices all --output "$dir/all.plot"
  run "mpirun -n $gpus, one rank per GPU" "$dir/ranks.plot" "$mpirun" --bind-to none -n $gpus "$plot" $args --output "$dir/ranks.plot"
fi
