#!/bin/bash
# In-guest half of tests/host/late-cpus-default.sh; the guest booted big
# with maxcpus=1, so at boot every smt and cache pod is a single CPU (the
# 15 others were never online) while the numa pods group CPUs: the
# built-in default scope is numa, said once in the log. As the CPUs come
# up their cache pods form, and the default goes back to cache (logged),
# with events_unbound's pools on the cache pods (lib/pwq_map.py).
lib=$(dirname "$0")
. "$lib/../lib.sh"
need_feature "$AFFN_DFL" "workqueue.default_affinity_scope"
sysc=/sys/devices/system/cpu
map=$lib/pwq_map.py
[ "$(cat $sysc/online)" = 0 ] || fail "booted with maxcpus=1, online: $(cat $sysc/online)"
dfl=$(cat "$AFFN_DFL")
note "at boot, CPU 0 alone: default_affinity_scope $dfl"
[ "$dfl" = numa ] || fail "default_affinity_scope is $dfl with single-CPU cache pods, want numa"
dmesg | grep -q 'workqueue: every cache pod is a single CPU: default affinity scope is numa' ||
	fail "the widening to numa is not in the kernel log"
for c in $(cpus_of "$(cat $sysc/possible)"); do
	[ "$c" = 0 ] || echo 1 > $sysc/cpu$c/online || fail "cannot bring CPU $c up"
done
dfl=$(cat "$AFFN_DFL")
note "all CPUs up ($(cat $sysc/online)): default_affinity_scope $dfl"
[ "$dfl" = cache ] || fail "default_affinity_scope is $dfl once the L3s group CPUs, want cache"
dmesg | grep -q 'workqueue: cache pods group CPUs now: default affinity scope is cache' ||
	fail "the return to cache is not in the kernel log"
drgn -q -k -s "$WQ61_VMLINUX" "$map" events_unbound cache ||
	fail "events_unbound's pools are not the cache pods"
