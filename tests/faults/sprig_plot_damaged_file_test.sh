#!/bin/sh
# sprig-plot verify rejects a plot file with bytes after its last record or with a reserved
# header byte set (exit status 2 and a message), and accepts the undamaged file.
# Usage: sprig_plot_damaged_file_test.sh SPRIG_PLOT WORK_DIR
set -u
plot=$1
dir=$2
mkdir -p "$dir" && cd "$dir" || exit 1
rm -f good.plot appended.plot reserved.plot
"$plot" plot --seed 0202020202020202020202020202020202020202020202020202020202020202 --k 15 --output good.plot || exit 1
"$plot" verify --input good.plot || { echo "the undamaged file does not verify"; exit 1; }

expect_rejected() {  # FILE MESSAGE
  "$plot" verify --input "$1" 2> "$1.err"
  rc=$?
  cat "$1.err"
  [ $rc -eq 2 ] || { echo "$1: exit status $rc, expected 2"; exit 1; }
  grep -q "$2" "$1.err" || { echo "$1: the error does not say '$2'"; exit 1; }
}

cp good.plot appended.plot && printf 'trailing junk' >> appended.plot
expect_rejected appended.plot "13 bytes after its last record"
cp good.plot reserved.plot && printf '\001' | dd of=reserved.plot bs=1 seek=28 conv=notrunc 2> /dev/null
expect_rejected reserved.plot "reserved header bytes"
echo "damaged files rejected"
