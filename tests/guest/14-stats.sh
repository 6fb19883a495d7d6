#!/bin/bash
# Per-workqueue statistics through tools/workqueue/wq_monitor.py: after N
# items, started = completed = N, nothing in flight, and cpu_time close to
# the CPU time the items burned.
. "$(dirname "$0")/lib.sh"
need_feature "$THRESH" "workqueue.cpu_intensive_thresh_us"
hog_load
# 8 items of 100 ms on 2 CPUs. Only two vCPUs busy: under TCG each then
# gets a host core, so guest ticks arrive as they would on hardware (with
# all 16 vCPUs spinning on 2 host cores most ticks are never delivered).
n=8
before=$(wq_stat wq61_hog_count started) || fail "wq_monitor.py failed"
r=$(hog burn $n 100 2); note "$r"
burned=$(field cpu_us "$r")
json=$(wq_monitor -j -i 0 '^wq61_hog_count$') || fail "wq_monitor.py failed"
note "$json"
python3 - "$json" "$before" "$n" "$burned" <<'PY' || exit 1
import ast, json, sys
try:
    row = json.loads(sys.argv[1])
except ValueError:                      # mainline's -j: Python dict reprs
    row = ast.literal_eval(sys.argv[1])
before, n, burned = map(int, sys.argv[2:])
errs = []
if row['started'] - before != n: errs.append(f"started {row['started']} - {before} != {n}")
if row['completed'] != row['started']: errs.append(f"completed {row['completed']} != started {row['started']}")
ratio = row['cpu_time'] / burned
print(f"cpu_time {row['cpu_time']}us for {burned}us of CPU time charged to the items: ratio {ratio:.2f}")
# Tick sampling (4 ms at HZ=250) under TCG: a wide but meaningful band.
if not 0.5 <= ratio <= 1.5: errs.append(f"cpu_time ratio {ratio:.2f} outside 0.5..1.5")
for e in errs: print("FAIL:", e)
sys.exit(1 if errs else 0)
PY
# The table form shows the same workqueue with its columns.
wq_monitor -i 0 '^wq61_hog_count$' | tee /tmp/table
# CMW/RPR: cm_wakeup for per-cpu workqueues, repatriated for unbound ones
# (6.6 renamed CMwake when it added repatriation; so does wq61).
grep -q "total.*infl.*CPUtime.*CPUitsv.*CMW/RPR.*mayday.*rescued" /tmp/table || fail "table header (want CMW/RPR)"
grep -Eq "^wq61_hog_count +$((before + n)) +0 " /tmp/table || fail "table row: want total $((before + n)), infl 0"
