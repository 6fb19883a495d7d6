#!/bin/bash
# The mayday, rescued and cm_wakeup counters (wq_monitor.py), each driven by
# a workload whose effect module wq61_rescuer counts itself (workqueue
# wq61r_pc, per-cpu, WQ_MEM_RECLAIM):
#   1. rescue: kthreadd is kept off the CPUs (pinned to CPU S, where a
#      SCHED_FIFO task spins with RT throttling off), so the pool of CPU W
#      cannot create workers; N items that block until released use up its
#      idle workers, its mayday timer calls the rescuer, and the release
#      comes once the rescuer ran one. Want: mayday grew (>= 1) and rescued
#      grew by exactly the items that ran in the rescuer.
#   2. cmw: N rounds of an item that queues a second one behind itself and
#      sleeps: each sleep wakes one idle worker for the second item. Want:
#      cm_wakeup grew by at most N (one sleep per round) and at least N/2
#      (a round can find the idle worker taken by other work of the CPU).
# Outcomes are counts; the only bounds on time are for a kernel whose
# rescuer never comes (30 s in the module, 60 s for the spinner).
#
# Expected: passes on patched and mainline; skipped on baseline (no
# wq_monitor.py, no counters).
. "$(dirname "$0")/lib.sh"
need_feature "$WQ61_SRC/tools/workqueue/wq_monitor.py" "wq_monitor.py and the pwq counters"
[ "$(nproc)" -ge 4 ] || skip "needs 4 CPUs"
rmmod wq61_rescuer 2>/dev/null
insmod "$(mod wq61_rescuer)" || fail "cannot load wq61_rescuer"
on_exit 'rmmod wq61_rescuer 2>/dev/null'
ctl=/sys/kernel/debug/wq61_rescuer/ctl
rctl() { echo "$*" > $ctl || fail "wq61_rescuer '$*' failed"; cat $ctl; }
# every counter of wq61_r_pc, as "key=value" words
stats() { wq_monitor -j -i 0 '^wq61r_pc$' | python3 -c '
import ast, json, sys
rows = []
for l in sys.stdin:
    if l.strip():
        try:
            rows.append(json.loads(l))
        except ValueError:
            rows.append(ast.literal_eval(l))
rows = [r for r in rows if r["name"] == "wq61r_pc"]
if len(rows) != 1:
    sys.exit("wq_monitor: %d rows for wq61r_pc" % len(rows))
print(" ".join("%s=%s" % kv for kv in rows[0].items()))'; }

n=$(nproc)
S=$((n - 1)) W=2
rt=/proc/sys/kernel/sched_rt_runtime_us
rt_saved=$(cat $rt)
kthreadd_saved=$(taskset -pc 2 | sed 's/.*: //')
spinner=""
stop_spinner() {
	[ -n "$spinner" ] && kill "$spinner" 2>/dev/null && wait "$spinner" 2>/dev/null
	spinner=""
	taskset -pc "$kthreadd_saved" 2 > /dev/null
	echo "$rt_saved" > $rt
}
on_exit stop_spinner

s0=$(stats) || fail "wq_monitor.py failed"
note "before: $s0"

# 1. the rescuer. This shell (and the module command it runs) stays off
# CPU S, where nothing but the spinner would run.
taskset -pc "0-$((S - 1))" $$ > /dev/null || fail "cannot move the test off CPU $S"
ready=$(mktemp -u)
echo -1 > $rt || fail "cannot turn RT throttling off"
taskset -pc $S 2 > /dev/null || fail "cannot pin kthreadd to CPU $S"
python3 - "$S" "$ready" <<'PY' &
import os, sys, time
os.sched_setaffinity(0, {int(sys.argv[1])})
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
open(sys.argv[2], "w").close()
end = time.monotonic() + 60
while time.monotonic() < end:
    pass
PY
spinner=$!
while [ ! -e "$ready" ]; do
	kill -0 $spinner 2>/dev/null || fail "the spinner did not start"
	sleep 0.1
done
rm -f "$ready"
r=$(rctl rescue $W 256)
stop_spinner
note "rescue on CPU $W, kthreadd held on CPU $S: $r"
rescued=$(field rescued "$r")
[ -n "$rescued" ] || fail "no result: '$r'"
s1=$(stats) || fail "wq_monitor.py failed"
note "after rescue: $s1"
delta() { echo $(( $(field "$1" "$3") - $(field "$1" "$2") )); }
[ "$rescued" -ge 1 ] || fail "no item ran in the rescuer"
d=$(delta mayday "$s0" "$s1")
[ "$d" -ge 1 ] || fail "mayday grew by $d, want >= 1"
d=$(delta rescued "$s0" "$s1")
[ "$d" -eq "$rescued" ] || fail "rescued grew by $d, the rescuer ran $rescued items"
note "mayday +$(delta mayday "$s0" "$s1"), rescued +$d = items the rescuer ran"

# 2. concurrency management
N=40
r=$(rctl cmw $W $N)
s2=$(stats) || fail "wq_monitor.py failed"
d=$(delta cm_wakeup "$s1" "$s2")
note "cmw on CPU $W: $r; cm_wakeup +$d"
[ "$d" -le $N ] && [ "$d" -ge $((N / 2)) ] ||
	fail "cm_wakeup grew by $d over $N rounds, want $((N / 2))..$N"
