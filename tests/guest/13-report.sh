#!/bin/bash
# CONFIG_WQ_CPU_INTENSIVE_REPORT: a work function that trips the detection
# is reported at its 4th violation (then 8th, 16th ...), with the exact
# upstream format, and not before.
. "$(dirname "$0")/lib.sh"
need_feature "$THRESH" "workqueue.cpu_intensive_thresh_us"
hog_load
cpu=$(( $(nproc) - 2 ))
thresh=$(cat "$THRESH")
re="workqueue: report_fn \[wq61_hog\] hogged CPU for >${thresh}us"
count() { dmesg | grep -c "$re" || true; }
for i in 1 2 3; do
	hog report $cpu 60 >/dev/null
	[ "$(count)" = 0 ] || fail "reported after $i violation(s): $(dmesg | grep "$re")"
done
note "no report after 3 violations"
hog report $cpu 60 >/dev/null
sleep 1	# printk_deferred() flushes from irq_work
line=$(dmesg | grep "$re" | sed 's/^\[[^]]*\] //')
note "after 4: $line"
want="workqueue: report_fn [wq61_hog] hogged CPU for >${thresh}us 4 times, consider switching to WQ_UNBOUND"
[ "$line" = "$want" ] || fail "want exactly '$want'"
for i in 5 6 7; do hog report $cpu 60 >/dev/null; done
sleep 1
[ "$(count)" = 1 ] || fail "reported again before the 8th violation"
hog report $cpu 60 >/dev/null
sleep 1
dmesg | grep -q "$re 8 times, consider switching to WQ_UNBOUND" || fail "no report at the 8th violation"
note "reported again at 8"
