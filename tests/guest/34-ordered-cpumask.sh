#!/bin/bash
# An ordered workqueue stays ordered while the global unbound cpumask
# changes under a backlog of its items. Mainline 6.9 briefly gave ordered
# workqueues new pwqs on such a change (ca10d851b9ad, reverted by
# aac8a59537df; done right by 4c065dbce1e8, which holds the new pwq back
# until the old one is drained): the old pwq's backlog and the new pwq's
# items then ran side by side and out of order.
#
# Each round queues 300 items on wq61_t_ordered in one go (wq61_torture
# "ordered"), each sleeping 100-200 us, while the global cpumask switches
# between halves of the CPUs and all of them six times; every item must
# have run, one at a time, in queueing order.
#
# Expected: passes on patched, mainline and baseline.
. "$(dirname "$0")/lib.sh"
R=${WQ61_ORDERED_ROUNDS:-20}
cpumask_halves
masks=("$lo" "$hi" "$(( lo | hi ))")
bad=0
for ((i = 0; i < R; i++)); do
	echo "ordered 300" > "$ctl" &
	for ((k = 0; k < 6; k++)); do
		printf '%x' "${masks[(i + k) % 3]}" > "$g" || fail "cannot set the cpumask"
	done
	wait $! || fail "round $i: ordered failed"
	r=$(cat "$ctl")
	if [ "$(field runs "$r")" != 300 ] || [ "$(field overlaps "$r")" != 0 ] ||
	   [ "$(field out_of_order "$r")" != 0 ]; then
		bad=$((bad + 1))
		note "round $i: $r"
	fi
done
note "$R rounds of 300 ordered items under 6 cpumask changes each: $bad went wrong"
[ $bad = 0 ] || fail "$bad of $R rounds: ordered items overlapped, ran out of order or went missing"
