#!/bin/bash
# Repatriation of busy workers (non-strict affinity scopes, issue 25
# section 3, patch 0054): a worker of a non-strict unbound pool that the
# scheduler moved out of its pod while it ran, and that goes on to its
# next work item without sleeping, moves back into the pod first when a
# CPU of the pod is idle. Module wq61_affinity ("repatb"): per round, item
# A moves its worker to a CPU OUT of another L3 and back to its usual CPUs
# and, still running on OUT, queues item B from there for the issuer's
# pool; the guest runs nothing else, so the issuer's L3 has idle CPUs.
# Rounds where A's worker ran B count (batches of rounds until 8 have):
# most such Bs must start in the issuer's cache pod. Not all: the worker
# looks for an idle CPU of the pod at the instant it takes B, and now and
# then none is (the idle worker woken for B, a kworker of the guest); on
# a kernel without the move back every B starts on OUT. A round where the worker moved more than once
# between A's move and B's start (the load balancer on top of the move
# back) and started outside is reported, not judged; at least one round
# must be judged.
#
# Without the move back the worker takes B on OUT: mainline 6.12 and
# naive row f1-busy-worker-stays-out fail here. Outcomes are CPU numbers,
# not times.
#
# Expected: passes on patched; fails on mainline 6.12 (it repatriates only
# idle workers, when woken); skipped on baseline (no affinity scopes).
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
note "issuer $issuer (cache pod $pod), workers sent to CPU $out while busy; $ROUNDS rounds"

# B may be taken by the idle worker woken for it rather than by A's busy
# worker (a race the move back makes A's worker lose more often): such a
# round shows nothing about busy workers and does not count. Batches of
# ROUNDS until 8 rounds counted, 10 batches at most.
starts=() moves=() counted=0 batches=0
while [ "$counted" -lt 8 ] && [ "$batches" -lt 10 ]; do
	r=$(affn repatb $issuer $out $ROUNDS)
	note "$r"
	n=$(field counted "$r")
	[ -n "$n" ] || fail "no result from wq61_affinity: '$r'"
	s=($(field starts "$r" | tr ',' ' '))
	m=($(field moves "$r" | tr ',' ' '))
	[ "${#s[@]}" -eq "$n" ] && [ "${#m[@]}" -eq "$n" ] ||
		fail "wq61_affinity: want $n starts and moves: '$r'"
	starts+=("${s[@]}") moves+=("${m[@]}")
	counted=$((counted + n)) batches=$((batches + 1))
done
[ "$counted" -ge 1 ] ||
	fail "no round in $((batches * ROUNDS)) where A's worker, busy on CPU $out, ran B"
judged=0 bad=0 rebalanced=0
for i in "${!starts[@]}"; do
	inpod=0
	cpus_of "$pod" | grep -qx "${starts[$i]}" && inpod=1
	if [ "${moves[$i]}" -gt 1 ] && [ "$inpod" -eq 0 ]; then
		rebalanced=$((rebalanced + 1))
		continue
	fi
	judged=$((judged + 1))
	[ "$inpod" -eq 1 ] || bad=$((bad + 1))
done
[ "$rebalanced" -eq 0 ] ||
	note "$rebalanced rounds: moved more than once, started outside $pod (not judged)"
[ "$judged" -ge 1 ] || fail "all $counted rounds moved more than once: nothing to judge"
[ $((2 * bad)) -le "$judged" ] ||
	fail "$bad of $judged busy workers took B on CPU $out, outside the issuer's pod $pod (want at most half)"
note "$judged busy workers judged, $((judged - bad)) started B in $pod, $bad on CPU $out"
