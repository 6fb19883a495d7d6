#!/bin/bash
# A WQ_CPU_INTENSIVE workqueue behaves as before: its items are outside
# concurrency management from the start, so a short item never waits for a
# spinner, and the automatic detection does not count them.
. "$(dirname "$0")/lib.sh"
hog_load
cpu=$(( $(nproc) - 1 ))
r=$(hog starve_intensive $cpu 300); note "WQ_CPU_INTENSIVE: $r"
wait=$(field wait_us "$r")
[ "$wait" -lt 100000 ] || fail "short item waited ${wait}us on a WQ_CPU_INTENSIVE workqueue"
if [ -e "$THRESH" ]; then
	itsv=$(wq_stat wq61_hog_itsv cpu_intensive) || fail "wq_monitor.py failed"
	note "wq61_hog_itsv CPUitsv: $itsv"
	[ "$itsv" = 0 ] || fail "explicitly CPU-intensive items were auto-marked ($itsv)"
fi
exit 0
