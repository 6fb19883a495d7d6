#!/bin/bash
# Repatriation (non-strict affinity scopes): an idle worker of a non-strict
# unbound pool that the scheduler left on a CPU outside its pod is woken on
# a CPU of the pod, not where it fell asleep. Module wq61_affinity ("repat"):
# per round, item A moves its worker to a CPU OUT of another L3 and back to
# its usual CPUs, so the worker goes idle on OUT; once it sleeps, item B is
# queued from the issuer. Rounds where A's worker ran B count: each such B
# must have started in the issuer's cache pod, and wq61_affn's repatriated
# counter (wq_monitor.py) must have grown by at least the counted rounds
# (at most two wake-ups per round can be repatriations, and since 0054 two
# moves of a worker woken outside the pod before it starts A or B).
#
# Repatriation decides where the worker is woken, not where it stays: the
# load balancer may move a woken worker that waits for its CPU (a vCPU the
# host does not run for a while, as under a build beside the guest) before
# it starts B. The module counts the worker's migrations from its sleep on
# OUT to B's start: 1 is the wake-up's placement and B's start CPU is where
# the wake-up put it; a round with more is reported, not judged. At least
# one round must be judged.
#
# Without repatriation the scheduler wakes the worker on OUT (its previous
# CPU, idle): naive row d3-no-repatriation. Outcomes are CPU numbers and
# counts, not times.
#
# Expected: passes on patched and mainline; skipped on baseline.
. "$(dirname "$0")/lib.sh"
[ "$(nproc)" -ge 8 ] || skip "needs CPUs in two L3s (big)"
affn_load
wq=$WQ_SYSFS/wq61_affn
need_feature "$wq/affinity_scope" "affinity_scope of unbound WQ_SYSFS workqueues"
ROUNDS=${WQ61_REPAT_ROUNDS:-20}
keep $wq/affinity_scope $wq/affinity_strict
set_attr $wq/affinity_strict 0
set_attr $wq/affinity_scope cache

issuer=1
pod=$(cat /sys/devices/system/cpu/cpu$issuer/cache/index3/shared_cpu_list)
out=""
for c in $(cpus_of "$(cat /sys/devices/system/cpu/online)"); do
	cpus_of "$pod" | grep -qx "$c" || out=$c
done
[ -n "$out" ] || fail "no online CPU outside CPU $issuer's L3 ($pod)"
note "issuer $issuer (cache pod $pod), workers sent to CPU $out; $ROUNDS rounds"

rpr0=$(wq_stat wq61_affn repatriated) || fail "wq_monitor.py: no repatriated counter"
r=$(affn repat $issuer $out $ROUNDS)
rpr1=$(wq_stat wq61_affn repatriated) || fail "wq_monitor.py: no repatriated counter"
note "$r; repatriated $rpr0 -> $rpr1"
counted=$(field counted "$r")
[ -n "$counted" ] || fail "no result from wq61_affinity: '$r'"
# A round counts only if the worker really slept on OUT and was the one
# woken for B; if none did, the test has seen nothing and says so.
[ "$counted" -ge 1 ] || fail "no round where an idle worker slept on CPU $out and was woken again"
starts=($(field starts "$r" | tr ',' ' '))
moves=($(field moves "$r" | tr ',' ' '))
[ "${#starts[@]}" -eq "$counted" ] && [ "${#moves[@]}" -eq "$counted" ] ||
	fail "wq61_affinity: want $counted starts and moves: '$r'"
judged=0 bad=0 rebalanced=0
for i in "${!starts[@]}"; do
	inpod=0
	cpus_of "$pod" | grep -qx "${starts[$i]}" && inpod=1
	if [ "${moves[$i]}" -gt 1 ]; then
		[ "$inpod" -eq 1 ] || rebalanced=$((rebalanced + 1))
		continue
	fi
	judged=$((judged + 1))
	[ "$inpod" -eq 1 ] || bad=$((bad + 1))
done
[ "$rebalanced" -eq 0 ] ||
	note "$rebalanced rounds: moved again after the wake-up, started outside $pod (not judged)"
[ "$judged" -ge 1 ] ||
	fail "in all $counted rounds the worker moved again before B started: no wake-up to judge"
[ "$bad" -eq 0 ] ||
	fail "$bad of $judged workers woken from CPU $out started outside the issuer's pod $pod where the wake-up put them"
d=$((rpr1 - rpr0))
[ "$d" -ge "$counted" ] && [ "$d" -le $((4 * ROUNDS)) ] ||
	fail "repatriated grew by $d: want $counted..$((4 * ROUNDS)) (counted rounds..four per round)"
note "$judged woken workers judged, all started in $pod; repatriated +$d"
