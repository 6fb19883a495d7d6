#!/bin/bash
# Affinity scopes keep max_active meaningful: an unbound workqueue created
# with max_active 2 (module wq61_affinity, "wq61_affn_ma") and 64 sleeping
# items queued over all online CPUs never has more than 4 of them running at
# once, whatever the scope or strictness. 4 is what stock 6.1 gives on the
# big preset (max_active per NUMA node, 2 nodes); a pool_workqueue per CPU
# with max_active each (6.6) would run up to 2 per CPU. Mainline (6.9+)
# counts active items per NUMA node, each node allowed at least min_active
# (here 2): measured 4 for cpu/smt/cache/numa and the default, 2 for system.
# The limit is enforced by the kernel: the peak does not depend on timing.
#
# Expected: passes on mainline and patched (issue 9); on baseline the
# default configuration is checked, then skipped (no affinity scopes).
. "$(dirname "$0")/lib.sh"
affn_load
wq=$WQ_SYSFS/wq61_affn_ma
N=64 SLEEP=20 LIMIT=4

check() { # label
	local r peak
	r=$(affn maxact $N $SLEEP)
	peak=$(field peak "$r")
	note "$1: $r"
	[ -n "$peak" ] || fail "$1: no peak from wq61_affinity: '$r'"
	[ "$peak" -ge 1 ] || fail "$1: no item ran"
	[ "$peak" -le $LIMIT ] || fail "$1: $peak items of a max_active 2 workqueue ran at once (want <= $LIMIT)"
}
check "default"
need_feature "$wq/affinity_scope" "affinity_scope of unbound WQ_SYSFS workqueues"
orig_strict=$(cat $wq/affinity_strict)
trap 'echo default > $wq/affinity_scope; echo $orig_strict > $wq/affinity_strict' EXIT
for strict in 0 1; do
	set_attr $wq/affinity_strict $strict
	for s in $AFFN_SCOPES; do
		set_attr $wq/affinity_scope $s
		check "$s strict=$strict"
	done
done
