#!/bin/bash
# Affinity scopes keep max_active meaningful: an unbound workqueue created
# with max_active 2 (module wq61_affinity, "wq61_affn_ma") and 64 items
# queued over all online CPUs runs exactly as many of them at once as
# 6.1's rule allows: max_active per NUMA node, so 2 per node (4 on big)
# in every scope whose pods lie inside a node, and 2 in the system scope,
# whose one pool spans the nodes. Mainline (6.9+) counts the same way
# (measured: 4 for cpu/smt/cache/numa and the default, 2 for system); a
# pool_workqueue per CPU with max_active each (6.6) runs up to 2 per CPU.
# The items that start within 2 s of the first stay inside until then, so
# the peak is the kernel's limit, not a matter of timing.
#
# Expected: passes on mainline and patched; on baseline the default
# configuration (numa) is checked, then skipped (no affinity scopes).
. "$(dirname "$0")/lib.sh"
affn_load
wq=$WQ_SYSFS/wq61_affn_ma
N=64 HOLD=2000
nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)

check() { # label want
	local r peak
	r=$(affn maxact $N $HOLD)
	peak=$(field peak "$r")
	note "$1: $r (want $2)"
	[ -n "$peak" ] || fail "$1: no peak from wq61_affinity: '$r'"
	[ "$peak" = "$2" ] || fail "$1: $peak items of a max_active 2 workqueue ran at once, want $2"
}
# the default scope (numa on baseline, cache otherwise) lies inside a node
check "default" $((2 * nodes))
need_feature "$wq/affinity_scope" "affinity_scope of unbound WQ_SYSFS workqueues"
keep $wq/affinity_scope $wq/affinity_strict
for strict in 0 1; do
	set_attr $wq/affinity_strict $strict
	for s in $AFFN_SCOPES; do
		set_attr $wq/affinity_scope $s
		if [ "$s" = system ]; then
			check "$s strict=$strict" 2
		else
			check "$s strict=$strict" $((2 * nodes))
		fi
	done
done
