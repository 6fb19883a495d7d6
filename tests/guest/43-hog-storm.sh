#!/bin/bash
# The kworker storm (issue 24 section 1): per-cpu work items that spin on
# one shared spinlock without ever sleeping, a backlog of them on each CPU
# (module wq61_storm). Stock 6.1 runs one of them per CPU at a time. If
# the hog detection marked every one that passes the threshold, each mark
# would start the next item on another kworker, which spins and is marked
# in turn: mainline 6.5-6.12 fan out to 5-6 per CPU, the series before
# patch 0048 to 10-12. wq61 marks one hog per pool at a time, so:
#  1. no CPU ever runs more than 2 storm items at once (the marked one and
#     the one serving the backlog), and every item runs exactly once;
#  2. the detection still works under the storm (CPUitsv of wq61_storm
#     grew), and afterwards a single hog again does not hold back an item
#     queued behind it (a marked hog that was not counted out would keep
#     the detection off on that pool for good).
# The bound is a count; nothing here depends on how fast the guest is.
#
# Without the bound: naive d7.
#
# Expected: passes on patched; baseline passes part 1 (peak 1) and has no
# part 2; mainline 6.12 FAILS part 1 (tests/mainline-bugs.md, E1).
# Two drgn runs (10-40 s each under TCG) and storms of up to 10 s:
# wq61-timeout: 400
. "$(dirname "$0")/lib.sh"
[ -d /sys/kernel/debug/wq61_storm ] || insmod "$(mod wq61_storm)" || fail "cannot load wq61_storm"
storm() {
	echo "storm $*" > /sys/kernel/debug/wq61_storm/ctl || fail "storm '$*' refused"
	cat /sys/kernel/debug/wq61_storm/ctl
}
ncpu=$(nproc)
last=$((ncpu - 1))
itsv0=
if [ -e "$THRESH" ]; then
	itsv0=$(wq_stat wq61_storm cpu_intensive) || fail "wq_monitor.py failed"
fi

# Part 1: 4 CPUs with 32 items each, then every CPU with 16.
for cfg in "4 32 100" "$ncpu 16 100"; do
	set -- $cfg
	r=$(storm $cfg); note "storm $cfg: $r"
	[ "$(field items "$r")" = $(($1 * $2)) ] || fail "storm $cfg: not every item ran once: $r"
	peak=$(field peak_cpu "$r")
	[ -n "$peak" ] && [ "$peak" -ge 1 ] || fail "storm $cfg: no peak_cpu in '$r'"
	[ "$peak" -le 2 ] ||
		fail "storm $cfg: $peak storm items ran at once on one CPU (want <= 2): the hog detection fanned the backlog out"
done

if [ -z "$itsv0" ]; then
	[ "$WQ61_FAMILY" = baseline ] || fail "no $THRESH on $WQ61_FAMILY"
	note "baseline: no hog detection, one storm item per CPU; part 2 needs the detection"
	exit 0
fi

# Part 2: the detection marked storm items, and it still frees a single
# hog's backlog on a CPU that had a storm.
itsv1=$(wq_stat wq61_storm cpu_intensive) || fail "wq_monitor.py failed"
note "wq61_storm CPUitsv: $itsv0 -> $itsv1"
[ "$itsv1" -gt "$itsv0" ] || fail "no storm item was marked CPU intensive: the bound switched the detection off"
hog_load
r=$(hog starve $last 300); note "single hog on CPU $last after the storm: $r"
[ "$(field spin_us "$r")" -ge 300000 ] || fail "spinner did not spin 300 ms: $r"
[ "$(field after_spin "$r")" = 0 ] ||
	fail "after the storm, a short item waited for a single hog on CPU $last: a marked hog stayed counted ($r)"
note "at most 2 storm items per CPU at once; hogs still detected afterwards"
