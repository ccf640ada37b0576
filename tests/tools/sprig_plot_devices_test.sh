#!/bin/sh
# sprig-plot on several devices (--devices): the same physical device opened twice plots the
# same bytes as one device, records dealt to both, also when one of them fails mid-plot;
# bench times both devices at once.
# Usage: sprig_plot_devices_test.sh SPRIG_PLOT WORK_DIR
set -u
plot=$1
dir=$2
mkdir -p "$dir" && cd "$dir" || exit 1
rm -f one.plot two.plot
sector=0202020202020202020202020202020202020202020202020202020202020202
"$plot" plot --sector-id $sector --records 4 --k 15 --output one.plot > /dev/null || { echo "FAIL: one device"; exit 1; }
"$plot" plot --sector-id $sector --records 4 --k 15 --devices 0,0 --output two.plot > /dev/null 2> two.err ||
  { echo "FAIL: two devices"; cat two.err; exit 1; }
cmp one.plot two.plot || { echo "FAIL: two devices wrote other bytes than one"; exit 1; }
grep -q "by device:" two.err || { echo "FAIL: no progress per device:"; cat two.err; exit 1; }
# Device 1 fails on its first record (one in flight on each device, each record after a
# wait, so device 1 takes one whatever the devices' speed): its records go to device 0,
# and the file is the same.
rm -f fail.plot
SPRIG_PLOT_FAIL_AFTER=0@1 SPRIG_PLOT_RECORD_DELAY_MS=50 "$plot" plot --sector-id $sector --records 4 --k 15 \
  --devices 0,0 --in-flight 1 --output fail.plot > /dev/null 2> fail.err ||
  { echo "FAIL: a failing device failed the plot"; cat fail.err; exit 1; }
grep -q "warning: device 1 (.*) failed (a fault injected after 0 records" fail.err ||
  { echo "FAIL: no warning naming the failed device:"; cat fail.err; exit 1; }
cmp one.plot fail.plot || { echo "FAIL: the records of a failed device were plotted differently"; exit 1; }
"$plot" bench --k 15 --records 1 --in-flight 1 --devices 0,0 > bench.txt 2>&1 || { echo "FAIL: bench"; cat bench.txt; exit 1; }
grep -q "all 2 devices at once: 2 records" bench.txt || { echo "FAIL: bench output:"; cat bench.txt; exit 1; }
grep -q "^device 1 (" bench.txt || { echo "FAIL: bench names each device:"; cat bench.txt; exit 1; }
echo "two devices plot the same file as one"
