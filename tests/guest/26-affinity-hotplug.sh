#!/bin/bash
# Affinity scopes under a CPU hotplug storm. While two kthreads of module
# wq61_affinity keep queueing to the unbound workqueue wq61_affn (queue_work
# from wherever the scheduler puts them, queue_work_on round robin over all
# possible CPUs, online or not), CPUs go offline and come back: a single
# CPU, a whole SMT pod, a whole L3 pod and a whole NUMA node, under every
# scope, strict and not, with the workqueue's scope and the default scope
# switched while pods are offline. Then:
# - every queueing ran exactly once (none lost, none twice), none started
#   on a CPU that was not online, and the storm overlapped the queueing
#   (items were queued while CPUs were offline);
# - with every CPU back, the pods are right: wq_pod_types[] equals the
#   sysfs topology, and the workqueue -> pool map wq_dump.py prints gives
#   every CPU the pool of its own pod (wq61_affn, events_unbound), and the
#   per-cpu workqueues their CPUs' pools again.
# Lockdep and the log scan of the runner catch splats.
#
# Expected: passes on mainline and patched; skipped on baseline (no
# affinity scopes).
. "$(dirname "$0")/lib.sh"
need_feature "$AFFN_DFL" "workqueue.default_affinity_scope"
SYS=/sys/devices/system/cpu
[ -e $SYS/cpu1/online ] || skip "no CPU hotplug here ($SYS/cpu1/online missing)"
dump=$WQ61_SRC/tools/workqueue/wq_dump.py
[ -f "$dump" ] || fail "no $dump"
lib=$(dirname "$0")/lib
affn_load
wq=$WQ_SYSFS/wq61_affn
ctl=/sys/kernel/debug/wq61_affinity/ctl
make_tmp
keep "$wq/affinity_scope" "$wq/affinity_strict" "$AFFN_DFL"
begun=
# (on_exit runs the last registered first: the storm ends, then the knobs)
on_exit '[ -n "$begun" ] && echo hpend > $ctl; online_all'

# The groups, read while every CPU is online (sysfs drops an offline CPU's
# cache and topology): around the last CPU and a middle one, never CPU 0
# (x86 keeps it) nor every CPU.
last=$(cpus_of "$(cat $SYS/online)" | tail -n 1)
[ "$last" -gt 0 ] || skip "one CPU only"
mid=$(( (last + 1) / 2 - 1 ))
[ "$mid" -gt 0 ] || mid=$last
group() { # NAME CPULIST
	local c list
	list=$(cpus_of "$2" | tr '\n' ' ')
	for c in $list; do
		[ "$c" = 0 ] && { note "$1: $2 holds CPU 0, not used"; return; }
	done
	eval "$1=\"$list\""
}
group smt_t "$(cat $SYS/cpu$last/topology/thread_siblings_list)"
group l3_m "$(cat $SYS/cpu$mid/cache/index3/shared_cpu_list)"
node=$(basename "$(ls -d $SYS/cpu$last/node[0-9]* 2>/dev/null | head -n 1)")
[ -n "$node" ] && group node_t "$(cat /sys/devices/system/node/$node/cpulist)"
note "single CPU $mid; SMT pod: ${smt_t:-none}; L3 pod: ${l3_m:-none}; node: ${node_t:-none}"

ops=0
hotplug() { # 0|1 CPU...: offline or online each CPU, counting the ops
	local v=$1 c
	shift
	for c in "$@"; do
		echo "$v" > $SYS/cpu$c/online || fail "cannot set CPU $c online=$v"
		ops=$((ops + 1))
	done
}
offline() { hotplug 0 "$@"; }
online() { hotplug 1 "$@"; }
next_scope() { # SCOPE: the one after it, round robin
	case $1 in cpu) echo smt;; smt) echo cache;; cache) echo numa;;
	numa) echo system;; *) echo cpu;; esac
}

r=$(affn hpbegin 256 50)
begun=1
note "$r"
round=0
for s in $AFFN_SCOPES; do
	strict=$((round % 2))
	set_attr "$wq/affinity_strict" $strict
	set_attr "$wq/affinity_scope" "$s"
	offline "$mid"; online "$mid"
	if [ -n "$smt_t" ]; then
		offline $smt_t
		# re-pod while a pod is gone
		set_attr "$wq/affinity_scope" "$(next_scope "$s")"
		online $smt_t
		set_attr "$wq/affinity_scope" "$s"
	fi
	[ -n "$l3_m" ] && { offline $l3_m; online $l3_m; }
	if [ -n "$node_t" ] && [ "$s" = cache ]; then
		offline $node_t
		set_attr "$wq/affinity_strict" $((1 - strict))
		online $node_t
	fi
	round=$((round + 1))
done
# The workqueue on the default scope, the default switched mid-storm.
set_attr "$wq/affinity_scope" default
set_attr "$wq/affinity_strict" 0
set_attr "$AFFN_DFL" numa
[ -n "$l3_m" ] && { offline $l3_m; set_attr "$AFFN_DFL" cache; online $l3_m; }
if [ -n "$node_t" ]; then
	offline $node_t
	set_attr "$AFFN_DFL" smt
	set_attr "$AFFN_DFL" system
	online $node_t
fi
set_attr "$AFFN_DFL" "$(kept "$AFFN_DFL")"

r=$(affn hpend)
begun=
note "$ops hotplug operations; $r"
for k in queued ran lost dup offline degraded; do
	[ -n "$(field $k "$r")" ] || fail "no $k in '$r'"
done
[ "$(field queued "$r")" -gt 0 ] || fail "nothing was queued"
[ "$(field degraded "$r")" -gt 0 ] || fail "no item was queued while a CPU was offline: the storm missed the queueing"
[ "$(field lost "$r")" = 0 ] || fail "work items queued but never run"
[ "$(field dup "$r")" = 0 ] || fail "work items run more often than queued"
[ "$(field ran "$r")" = "$(field queued "$r")" ] || fail "runs differ from queueings"
[ "$(field offline "$r")" = 0 ] || fail "work items started on a CPU that was not online"

# After the storm, every CPU back: the pods and each CPU's pool.
online_all
set_attr "$wq/affinity_scope" cache
set_attr "$wq/affinity_strict" 1
python3 "$lib/wq_pods.py" sysfs > "$tmp/sysfs" || fail "cannot read the topology from sysfs"
drgn -q -k -s "$WQ61_VMLINUX" "$lib/wq_pods.py" kernel --run-wq-dump "$dump" "$tmp/dump" \
	> "$tmp/kernel" 2> "$tmp/err" || { cat "$tmp/err"; fail "drgn failed"; }
diff -u "$tmp/sysfs" "$tmp/kernel" || fail "after the storm the kernel's pods differ from sysfs (- sysfs, + kernel)"
python3 "$lib/wq_dump_check.py" "$tmp/dump" wq61_affn cache 1 || fail "wq61_affn after the storm"
python3 "$lib/wq_dump_check.py" "$tmp/dump" events_unbound "$(cat "$AFFN_DFL")" 0 ||
	fail "events_unbound after the storm"
python3 "$lib/wq_dump_check.py" "$tmp/dump" events percpu || fail "events after the storm"
note "after the storm: pods and pools agree with the topology"
