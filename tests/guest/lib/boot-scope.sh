#!/bin/bash
# In-guest half of tests/host/boot-default-scope.sh: what the guest booted
# with and what became of workqueue.default_affinity_scope, as key=value
# lines; with WQ61_BOOTSCOPE_POOLS=1 also whether events_unbound (created
# before the topology was known) ended up on the pods of that scope.
dfl=/sys/module/workqueue/parameters/default_affinity_scope
[ -e "$dfl" ] || { echo "dfl=missing"; exit 0; }
echo "dfl=$(cat "$dfl")"
echo "refused=$(dmesg | grep -c "invalid for parameter .workqueue.default_affinity_scope.")"
[ "${WQ61_BOOTSCOPE_POOLS:-0}" = 1 ] || exit 0
lib=$(dirname "$0")
if ! "$lib/run-wq-dump.sh" /tmp/dump 2> /tmp/dump.err; then
	echo "pools=wq_dump.py failed: $(head -c 300 /tmp/dump.err | tr '\n' ' ')"
	exit 0
fi
if out=$(python3 "$lib/wq_dump_check.py" /tmp/dump events_unbound "$(cat "$dfl")" 0 2>&1); then
	echo "pools=ok $out"
else
	echo "pools=$(echo "$out" | tr '\n' ' ')"
fi
