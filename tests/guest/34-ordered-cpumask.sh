#!/bin/bash
# Ordered workqueues stay ordered: explicit ones (alloc_ordered_workqueue())
# and implicit ones (WQ_UNBOUND with max_active 1, ordered in 6.1 and
# relied on by drivers), however the global unbound cpumask, max_active and
# the online CPUs change. Every part counts rounds; a round queues 300
# items in one go (wq61_torture "ordered 300 W"), with queue_work_on(),
# two on each online CPU in turn (one each would come out in order from
# per-CPU pwqs that take turns), the first one waiting until all are
# queued; every item must run, alone, in queueing order.
#
#  1. explicit, while the cpumask switches between halves of the CPUs and
#     all of them six times (mainline 6.9's ca10d851b9ad gave ordered
#     workqueues new pwqs that ran beside the old ones; 4c065dbce1e8 holds
#     the new pwq back until the old one is drained)
#  2. implicit, as created
#  3. implicit, after the cpumask was written (Debian's 6.1.192 then drops
#     __WQ_ORDERED from it; a pwq per CPU must not follow)
#  4. implicit, after workqueue_set_max_active() 4 then 1 and a CPU went
#     offline and online (6.1 kept such a workqueue on one pwq)
#  5. implicit, while the cpumask changes and a CPU goes offline and online
#  6. explicit: item A runs and waits, the cpumask changes, B and C are
#     queued, then A queues itself again (a): the order must be ABCa (an
#     item that still runs on the old pwq must not take it for its requeue
#     and overtake B and C)
#
# Expected: passes on patched; on mainline, parts 1 and 6 pass and 2-5 are
# skipped (mainline 6.9 dropped implicit ordering, 3bc1e711c26b). Fails
# on baseline, Debian's 6.1.192, in part 5 (5 of 5 rounds, e.g. 268
# overlaps): its cpumask update drops __WQ_ORDERED from an implicitly
# ordered workqueue and gives it a new pwq that runs beside the old one
# (stable's ca10d851b9ad). Parts 1-4 and 6 pass there: it leaves explicit
# ordered workqueues on their CPUs.
. "$(dirname "$0")/lib.sh"
R=${WQ61_ORDERED_ROUNDS:-20}
cpumask_halves
masks=("$lo" "$hi" "$(( lo | hi ))")
all=$(( lo | hi ))
SYS=/sys/devices/system/cpu
ncpu=$(nproc --all)
hp=$((ncpu - 1))	# the CPU parts 4 and 5 take offline
[ -e $SYS/cpu$hp/online ] || fail "no CPU hotplug for cpu$hp"
on_exit online_all
failed=()

# round NAME I W: one round on workqueue W (0 explicit, 1 implicit),
# returns 1 if it went wrong
round() {
	local r
	r=$(cat "$ctl")
	if [ "$(field runs "$r")" != 300 ] || [ "$(field overlaps "$r")" != 0 ] ||
	   [ "$(field out_of_order "$r")" != 0 ]; then
		note "$1 round $2: $r"
		return 1
	fi
	return 0
}
# part NAME ROUNDS BAD [WHAT]: record the outcome of a part
part() {
	note "part $1: $2 rounds${4- of 300 items}, $3 went wrong"
	[ "$3" = 0 ] || failed+=("$1: $3/$2")
}
setmask() { printf '%x' "$1" > "$g" || fail "cannot set the cpumask to $1"; }
cpu_off() { echo 0 > $SYS/cpu$hp/online || fail "cannot offline cpu$hp"; }
cpu_on() { echo 1 > $SYS/cpu$hp/online || fail "cannot online cpu$hp"; }

# 1. explicit, under cpumask changes
bad=0
for ((i = 0; i < R; i++)); do
	echo "ordered 300" > "$ctl" &
	for ((k = 0; k < 6; k++)); do setmask "${masks[(i + k) % 3]}"; done
	wait $! || fail "part 1 round $i: ordered failed"
	round 1 $i || bad=$((bad + 1))
done
setmask $all
part "1 explicit, cpumask changing" $R $bad

# 2-5: implicitly ordered workqueues are 6.1's promise, which wq61 keeps;
# mainline dropped it in 6.9 (3bc1e711c26b: WQ_UNBOUND with max_active 1 is
# no longer made ordered), so they are not checked there.
if [ "$WQ61_FAMILY" != mainline ]; then
	# 2. implicit, as created
	bad=0
	for ((i = 0; i < 5; i++)); do
		echo "ordered 300 1" > "$ctl" || fail "part 2: ordered failed"
		round 2 $i || bad=$((bad + 1))
	done
	part "2 implicit, as created" 5 $bad

	# 3. implicit, after cpumask writes
	bad=0
	setmask "$lo"; setmask $all
	for ((i = 0; i < 3; i++)); do
		echo "ordered 300 1" > "$ctl" || fail "part 3: ordered failed"
		round 3 $i || bad=$((bad + 1))
	done
	part "3 implicit, after a cpumask write" 3 $bad

	# 4. implicit, after max_active 4 -> 1 and CPU hotplug
	bad=0
	echo "max_active 4" > "$ctl" || fail "cannot set max_active 4"
	echo "max_active 1" > "$ctl" || fail "cannot set max_active 1"
	cpu_off; cpu_on
	for ((i = 0; i < 3; i++)); do
		echo "ordered 300 1" > "$ctl" || fail "part 4: ordered failed"
		round 4 $i || bad=$((bad + 1))
	done
	part "4 implicit, after max_active 4, 1 and hotplug" 3 $bad

	# 5. implicit, while the cpumask and the online CPUs change
	bad=0
	for ((i = 0; i < 5; i++)); do
		echo "ordered 300 1" > "$ctl" &
		for ((k = 0; k < 3; k++)); do setmask "${masks[(i + k) % 3]}"; done
		cpu_off
		for ((k = 3; k < 6; k++)); do setmask "${masks[(i + k) % 3]}"; done
		cpu_on
		wait $! || fail "part 5 round $i: ordered failed"
		round 5 $i || bad=$((bad + 1))
	done
	setmask $all
	part "5 implicit, cpumask and CPUs changing" 5 $bad
else
	note "parts 2-5 skipped: mainline has no implicitly ordered workqueues (3bc1e711c26b, 6.9)"
fi

# 6. explicit: a requeue while the cpumask changes
bad=0
for ((i = 0; i < 5; i++)); do
	echo "requeue 1" > "$ctl" || fail "part 6: requeue 1 failed"
	setmask "${masks[i % 2]}"
	echo "requeue 2" > "$ctl" || fail "part 6: requeue 2 failed"
	r=$(cat "$ctl")
	[ "$r" = "order=ABCa" ] || { bad=$((bad + 1)); note "part 6 round $i: $r"; }
	setmask $all
done
part "6 explicit, requeue under a cpumask change" 5 $bad " of A, B, C, then A again (want order=ABCa)"

[ ${#failed[@]} = 0 ] || fail "went wrong: ${failed[*]}"
