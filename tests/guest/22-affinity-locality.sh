#!/bin/bash
# Affinity scopes, where work items start: a kthread bound to CPU k queues
# M items on an unbound workqueue (module wq61_affinity); each notes the CPU
# it starts on. With a strict scope every item starts inside k's pod (cpu:
# k itself; smt, cache, numa: k's SMT siblings, L3, node). Non-strict
# "cache" starts at least 20 points more of them in k's L3 than "system"
# does (the issue's goal). Outcomes are counts of start CPUs, not times.
#
# Expected: passes on mainline; skipped on baseline (no affinity scopes; the
# L3 share of its NUMA-node pools is printed first, for comparison); passes
# on patched too (issue 9).
. "$(dirname "$0")/lib.sh"
affn_load
wq=$WQ_SYSFS/wq61_affn
M=${WQ61_AFFN_ITEMS:-200}
SPIN=${WQ61_AFFN_SPIN_US:-1000}
GOAL=20
n=$(nproc)
issuers=$(printf '%s\n' 0 $((n / 3)) $((2 * n / 3)) $((n - 1)) | sort -nu | xargs)
make_tmp

sysfs_pods "$tmp/pods"
# measure LABEL SCOPE: affn_starts from every issuer; IN counts the items
# started in the issuer's SCOPE pod.
measure() {
	affn_starts "$1" "pod_of $2" "$issuers" "$M" "$SPIN"
	note "$1: $IN of $TOTAL items ($PCT%) started in the issuer's $2 pod"
}
note "issuers: $issuers; $M items each, spinning ${SPIN}us"

if [ ! -e "$wq/affinity_scope" ]; then
	# What stock 6.1 gives (pools per NUMA node), before the skip.
	measure "no scopes" cache
	measure "no scopes" numa
fi
need_feature "$wq/affinity_scope" "affinity_scope of unbound WQ_SYSFS workqueues"
keep $wq/affinity_scope $wq/affinity_strict

set_attr $wq/affinity_strict 1
for s in cpu smt cache numa; do
	set_attr $wq/affinity_scope $s
	measure "strict $s" $s
	[ "$IN" -eq "$TOTAL" ] || fail "strict $s: $((TOTAL - IN)) of $TOTAL items started outside the issuer's $s pod"
done

set_attr $wq/affinity_strict 0
set_attr $wq/affinity_scope cache
measure "non-strict cache" cache
cache_pct=$PCT
set_attr $wq/affinity_scope system
measure "non-strict system" cache
system_pct=$PCT
note "L3-local starts: non-strict cache $cache_pct%, system $system_pct% (goal: cache >= system + $GOAL)"
[ "$cache_pct" -ge $((system_pct + GOAL)) ] ||
	fail "non-strict cache starts $cache_pct% in the issuer's L3, system $system_pct%: want $GOAL points more"
