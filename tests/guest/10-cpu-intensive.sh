#!/bin/bash
# Automatic CPU-intensive detection: a per-cpu work item spinning 300 ms no
# longer holds back a short item queued behind it on the same CPU; with the
# detection disabled (threshold 0) or out of reach (10 s) it does again.
. "$(dirname "$0")/lib.sh"
need_feature "$THRESH" "workqueue.cpu_intensive_thresh_us"
hog_load
cpu=$(( $(nproc) - 1 ))
orig=$(cat "$THRESH")
keep "$THRESH"
note "threshold: ${orig}us; spinner and short item on CPU $cpu"

itsv0=$(wq_stat wq61_hog cpu_intensive) || fail "wq_monitor.py failed"
r=$(hog starve $cpu 300); note "detection on:  $r"
wait=$(field wait_us "$r")
[ "$(field spin_us "$r")" -ge 300000 ] || fail "spinner did not spin 300 ms: $r"
# Generous bound on the feature's purpose: threshold + a few ticks is ~20 ms.
[ "$wait" -lt 100000 ] || fail "short item waited ${wait}us behind the spinner (want < 100 ms)"
[ "$(field after_spin "$r")" = 0 ] || fail "short item started only after the spinner stopped: $r"
itsv1=$(wq_stat wq61_hog cpu_intensive)
note "wq61_hog CPUitsv: $itsv0 -> $itsv1"
[ "$itsv1" -ge $((itsv0 + 1)) ] || fail "spinner not counted as CPU intensive"

for t in 0 10000000; do
	echo $t > "$THRESH" || fail "cannot set threshold $t"
	r=$(hog starve $cpu 300); note "threshold $t: $r"
	# Without marking, the short item starts only when the spinner ends
	# (what happened, not how long it took: the queueing itself may be
	# late on a loaded host).
	[ "$(field after_spin "$r")" = 1 ] ||
		fail "threshold $t: short item started while the spinner still spun, spinner was marked ($r)"
	itsv2=$(wq_stat wq61_hog cpu_intensive)
	[ "$itsv2" = "$itsv1" ] || fail "threshold $t: CPUitsv moved $itsv1 -> $itsv2"
done
