#!/bin/bash
# In-guest half of tests/host/late-cpus.sh; the guest booted big with
# maxcpus=8, so CPUs 8-15 (node 1, L3s 8-11 and 12-15) were never online.
# Bring them up, 12 first and the others in a mixed order, then:
#   1. the pods of every scope (the kernel's tables, wq_dump.py) equal the
#      sysfs topology: tests/guest/21-affinity-pods.sh, as on a full boot;
#   2. events_unbound (default scope: cache) has on every CPU a pool that
#      covers that CPU's L3 (wq_dump.py's map against sysfs);
#   3. wq61_affn set to strict cache: 200 items issued on CPU 12 all start
#      in CPU 12's L3 as sysfs reports it (12-15 on big).
# A CPU that comes up late must not join CPU 0's L3 pod (issue 21 section 2).
lib=$(dirname "$0")
. "$lib/../lib.sh"
need_feature "$AFFN_DFL" "workqueue.default_affinity_scope"
sysc=/sys/devices/system/cpu
[ "$(cat $sysc/online)" = 0-7 ] || fail "booted with maxcpus=8, online: $(cat $sysc/online)"
order="12 15 9 8 13 10 11 14"
for c in $order; do
	echo 1 > $sysc/cpu$c/online || fail "cannot bring CPU $c up"
done
[ "$(cat $sysc/online)" = 0-15 ] || fail "online after bringing 8-15 up: $(cat $sysc/online)"
note "CPUs brought up in the order $order"

"$lib/../21-affinity-pods.sh" || fail "pods after CPUs 8-15 came up (21-affinity-pods.sh above)"

"$lib/run-wq-dump.sh" /tmp/dump 2> /tmp/dump.err || {
	cat /tmp/dump.err; fail "wq_dump.py failed"; }
out=$(python3 "$lib/wq_dump_check.py" /tmp/dump events_unbound "$(cat "$AFFN_DFL")" 0) || {
	echo "$out"; fail "events_unbound's pools after CPUs 8-15 came up"; }
note "events_unbound: $out"

affn_load
wq=$WQ_SYSFS/wq61_affn
set_attr $wq/affinity_strict 1
set_attr $wq/affinity_scope cache
l3=$(cat $sysc/cpu12/cache/index3/shared_cpu_list)
M=200
r=$(affn start 12 $M 1000)
hist=$(field hist "$r")
[ -n "$hist" ] || fail "no histogram from wq61_affinity: '$r'"
note "strict cache, issuer 12 (L3 $l3): starts per CPU $hist"
IFS=, read -ra h <<< "$hist"
in=0 total=0
for i in "${!h[@]}"; do total=$((total + h[i])); done
for c in $(cpus_of "$l3"); do in=$((in + h[c])); done
[ "$total" -eq $M ] || fail "$total items reported a start CPU, want $M"
[ "$in" -eq $M ] || fail "strict cache from CPU 12: $((M - in)) of $M items started outside its L3 $l3"
note "strict cache from CPU 12: all $M items started in its L3 $l3"
