#!/bin/bash
# Repatriation of busy workers (non-strict affinity scopes, issue 25
# section 3, patch 0054): a worker of a non-strict unbound pool that the
# scheduler moved out of its pod while it ran, and that goes on to its
# next work item without sleeping, moves back into the pod first when a
# CPU of the pod is idle. Module wq61_affinity ("repatb"): per round, item
# A moves its worker to a CPU OUT of another L3 and back to its usual CPUs
# and, still running on OUT, queues item B from there for the issuer's
# pool; the guest runs nothing else, so the issuer's L3 has idle CPUs.
# Rounds where A's worker ran B count: each such B must have started in
# the issuer's cache pod. A round where the worker moved more than once
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

r=$(affn repatb $issuer $out $ROUNDS)
note "$r"
counted=$(field counted "$r")
[ -n "$counted" ] || fail "no result from wq61_affinity: '$r'"
# B may be taken by an idle worker woken for it rather than by A's worker:
# such a round shows nothing about busy workers and does not count.
[ "$counted" -ge 1 ] || fail "no round where A's worker, busy on CPU $out, ran B"
starts=($(field starts "$r" | tr ',' ' '))
moves=($(field moves "$r" | tr ',' ' '))
[ "${#starts[@]}" -eq "$counted" ] && [ "${#moves[@]}" -eq "$counted" ] ||
	fail "wq61_affinity: want $counted starts and moves: '$r'"
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
[ "$bad" -eq 0 ] ||
	fail "$bad of $judged busy workers took B on CPU $out (outside the issuer's pod $pod, which had idle CPUs)"
note "$judged busy workers judged, all started B in $pod"
