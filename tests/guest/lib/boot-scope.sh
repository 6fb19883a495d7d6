#!/bin/bash
# In-guest half of tests/host/boot-default-scope.sh: what the guest booted
# with and what became of workqueue.default_affinity_scope, as key=value
# lines; with WQ61_BOOTSCOPE_POOLS=1 also whether events_unbound (created
# before the topology was known) ended up on the pods of that scope.
dfl=/sys/module/workqueue/parameters/default_affinity_scope
[ -e "$dfl" ] || { echo "dfl=missing"; exit 0; }
echo "dfl=$(cat "$dfl")"
echo "refused=$(dmesg | grep -c "invalid for parameter .workqueue.default_affinity_scope.")"
# WQ61_BOOTSCOPE_MAXACT=SCOPE: put wq61_affn_ma (max_active 2) in SCOPE and
# report the most of its items that ran at once: 64 items, queued from
# every CPU, those starting in the first 2 s held till then (23-max-active)
if [ -n "${WQ61_BOOTSCOPE_MAXACT:-}" ]; then
	c=/sys/kernel/debug/wq61_affinity/ctl
	if ! insmod "$WQ61_MODULES/wq61_affinity.ko"; then
		echo "peak=insmod failed"
	elif ! echo "$WQ61_BOOTSCOPE_MAXACT" > /sys/devices/virtual/workqueue/wq61_affn_ma/affinity_scope; then
		echo "peak=cannot set the scope"
	elif echo "maxact 64 2000" > $c; then
		echo "peak=$(tr ' ' '\n' < $c | sed -n 's/^peak=//p')"
	else
		echo "peak=maxact failed"
	fi
fi
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
