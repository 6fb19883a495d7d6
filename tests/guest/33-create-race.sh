#!/bin/bash
# A workqueue created while the global unbound cpumask changes must end up
# with that change, like every workqueue that already existed. 6.1 (and
# mainline until 6.11, fixed by 1726a1713590 and its series) built a new
# workqueue's pwqs first and put the workqueue on the list that cpumask
# changes and CPU hotplug walk only later (after creating its rescuer and
# sysfs files): a change in between missed it for good, and its work items
# ran on CPUs the administrator had taken away from unbound work.
#
# Each round creates an unbound WQ_SYSFS workqueue with a rescuer
# (wq61_torture "mkwq") while the global cpumask switches to the other half
# of the CPUs, then queues an item from every online CPU on it ("probe"):
# all must run inside the cpumask in force. The halves are disjoint, so a
# workqueue that missed the switch runs everything in the wrong half. The
# rounds race by construction; whether one overlaps depends on timing, so
# the test runs many (WQ61_RACE_ROUNDS, 200) and fails on any stale one.
#
# Expected: passes on mainline and patched; fails on baseline.
. "$(dirname "$0")/lib.sh"
R=${WQ61_RACE_ROUNDS:-200}
cpumask_halves
stale=0
for ((i = 0; i < R; i++)); do
	m=$(( i % 2 ? hi : lo ))
	echo mkwq > "$ctl" &
	printf '%x' "$m" > "$g" || fail "round $i: cannot set the cpumask to $(printf '%x' "$m")"
	wait $! || fail "round $i: mkwq failed"
	echo probe > "$ctl" || fail "round $i: probe failed"
	r=$(cat "$ctl")
	ran=$(field ran "$r")
	[ -n "$ran" ] || fail "round $i: no result ($r)"
	if (( 0x${ran//,/} & ~m )); then
		stale=$((stale + 1))
		[ $stale -le 5 ] && note "round $i: cpumask $(printf '%x' "$m"), new workqueue's items ran on $ran ($r)"
	fi
done
note "$R rounds: $stale new workqueues missed the cpumask change made while they were created"
[ $stale = 0 ] || fail "$stale of $R workqueues created during a cpumask change kept the old cpumask"
