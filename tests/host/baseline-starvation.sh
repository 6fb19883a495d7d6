#!/bin/bash
# The starvation measurement of tests/guest/10-cpu-intensive.sh, on the
# unpatched 6.1 kernel: there the short item must wait for the 300 ms
# spinner. This proves the test's measurement can fail.
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$WQ61_RESDIR/baseline-starvation
rc=0
"$top/scripts/guest/vm.py" -q -f baseline -p small -r "$dir" -- bash -c '
	insmod $WQ61_MODULES/wq61_hog.ko || exit 1
	for i in 1 2 3; do
		echo "starve 3 300" > /sys/kernel/debug/wq61_hog/ctl || exit 1
		cat /sys/kernel/debug/wq61_hog/ctl
	done' || rc=$?
cat "$dir/output" 2>/dev/null
[ "$(cat "$dir/verdict")" = passed ] || { echo "baseline guest run: $(cat "$dir/verdict")"; exit 1; }
# Whether the short item started before the spinner stopped, not how long
# it waited: the 2 ms between the two queueings can stretch to tens of ms
# on a loaded host, and the wait shrinks by as much.
n=0
for a in $(sed -n 's/^wait_us=.* after_spin=\([01]\)$/\1/p' "$dir/output"); do
	n=$((n + 1))
	[ "$a" = 1 ] || { echo "FAIL: baseline short item started while the spinner still spun"; exit 1; }
done
[ $n = 3 ] || { echo "FAIL: $n results"; exit 1; }
echo "baseline 6.1: the short item waited for the spinner in all $n rounds"
