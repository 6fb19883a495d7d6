#!/bin/bash
# Unbound workqueues have a pool_workqueue per CPU, on the shared pool of
# the CPU's pod (read with drgn, lib/pwq_map.py): every online CPU has a pwq
# that serves it alone, even where its pod is the whole cpumask (`system`),
# and that pwq's pool covers exactly the CPU's pod in the workqueue's scope;
# ordered unbound workqueues keep one pwq for every CPU. Checked for
# events_unbound (default scope) and for wq61_affn switched live through
# cpu, cache and system. 6.1 had a pwq per node; CPUlocal and localize (25)
# need to know the CPU a work item was issued on.
#
# Without a pwq per CPU where the pod is the cpumask: naive d6.
#
# Expected: passes on patched and mainline; skipped on baseline.
# Each drgn run loads vmlinux's debug info, 10-40 s under TCG, and there
# are five:
# wq61-timeout: 600
. "$(dirname "$0")/lib.sh"
need_feature "$AFFN_DFL" "workqueue.default_affinity_scope"
map=$(dirname "$0")/lib/pwq_map.py
pwq_map() { drgn -q -k -s "$WQ61_VMLINUX" "$map" "$@"; }
affn_load
wq=$WQ_SYSFS/wq61_affn
need_feature "$wq/affinity_scope" "affinity_scope of unbound WQ_SYSFS workqueues"
keep $wq/affinity_scope

pwq_map events_unbound "$(cat "$AFFN_DFL")" || fail "events_unbound"
for scope in cpu cache system; do
	set_attr "$wq/affinity_scope" $scope
	pwq_map wq61_affn $scope || fail "wq61_affn in the $scope scope"
done
pwq_map --ordered || fail "ordered unbound workqueues"
note "a pwq per CPU on its pod's pool in every scope; ordered ones keep one"
