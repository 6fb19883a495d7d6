#!/bin/bash
# Work items that go to sleep right after running past the CPU-intensive
# threshold, on every CPU at once, over and over: the tick must leave a
# worker alone while it is on its way to sleep (or just back), or the
# pool's nr_running is decremented twice. Every item runs exactly once and,
# once things are quiet, every per-cpu pool's nr_running is back to 0
# (negative or stuck above 0 is the bug).
. "$(dirname "$0")/lib.sh"
need_feature "$THRESH" "workqueue.cpu_intensive_thresh_us"
stress_load
orig=$(cat "$THRESH")
keep "$THRESH"
# 1 ms: every busy-wait below runs past it, and ticks (4 ms) often miss the
# busy-wait and find the worker at the sleep instead.
echo 1000 > "$THRESH" || fail "cannot set threshold 1000"
ncpu=$(getconf _NPROCESSORS_ONLN)
# Items per CPU per round. The busy-waits and sleeps are wall time, so a
# round takes at most about n * (spin + 0.3 ms) whatever the vCPU count.
n=${WQ61_SLEEPY_N:-600}
note "threshold: ${orig}us -> 1000us; $n items per CPU per round on $ncpu CPUs"

itsv0=$(wq_stat wq61_stress cpu_intensive 2>/dev/null) || itsv0=
for spin in 1500 3000; do
	start=$SECONDS
	r=$(stress sleepy "$n" "$spin" 200) || fail "sleepy $n $spin 200 refused"
	note "sleepy $n ${spin}us 200us: $r ($((SECONDS - start))s)"
	queued=$(field queued "$r")
	[ "$queued" = $((n * ncpu)) ] || fail "spin ${spin}us: $queued items queued, want $n on each of $ncpu CPUs"
	[ "$(field ran "$r")" = "$queued" ] || fail "spin ${spin}us: $(field ran "$r") runs of $queued items"
	[ "$(field lost "$r")$(field dup "$r")" = 00 ] || fail "spin ${spin}us: not exactly once: $r"
done
# Information only (tick delivery under TCG varies): were items marked?
if [ -n "$itsv0" ]; then
	note "wq61_stress CPUitsv: $itsv0 -> $(wq_stat wq61_stress cpu_intensive 2>/dev/null)"
fi

echo "$orig" > "$THRESH" || fail "cannot restore threshold $orig"
pools_settle 60 || fail "per-cpu pools' nr_running did not come back to 0 (see above)"
