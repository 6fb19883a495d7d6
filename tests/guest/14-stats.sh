#!/bin/bash
# Per-workqueue statistics through tools/workqueue/wq_monitor.py: after N
# items of 400 ms each (module wq61_hog, per-cpu workqueue), started and
# completed grew by N, nothing is in flight, cpu_intensive grew by N (each
# item crosses the 10 ms threshold once, and an item is counted once),
# cpu_local (wq61's own) grew by N (a per-cpu workqueue's items all start
# on their CPU), and cpu_time is close to the CPU time the items burned. On wq61, -j prints JSON Lines: every line must parse as JSON
# (mainline's -j prints Python dict reprs, accepted there only).
. "$(dirname "$0")/lib.sh"
need_feature "$THRESH" "workqueue.cpu_intensive_thresh_us"
hog_load
# 2 items of 400 ms on 2 CPUs, one each. Only two vCPUs busy: under TCG
# each then gets a host core, so guest ticks arrive as they would on
# hardware (with all 16 vCPUs spinning on 2 host cores most ticks are never
# delivered). One item per CPU because wq61 marks one hog per pool at a
# time (patch 0048): of two hogs sharing a CPU the second is marked only if
# it still runs when the first ends, so with 4 per CPU 6 of 8 were.
n=2
json0=$(wq_monitor -j -i 0 '^wq61_hog_count$') || fail "wq_monitor.py failed"
r=$(hog burn $n 400 2); note "$r"
burned=$(field cpu_us "$r")
json=$(wq_monitor -j -i 0 '^wq61_hog_count$') || fail "wq_monitor.py failed"
note "$json"
python3 - "$json0" "$json" "$n" "$burned" "$WQ61_FAMILY" <<'PY' || exit 1
import ast, json, sys
flavour = sys.argv[5]
errs = []
def parse(text):
    lines = [l for l in text.splitlines() if l.strip()]
    if len(lines) != 1:
        sys.exit(f"FAIL: {len(lines)} lines for wq61_hog_count, want 1")
    try:
        return json.loads(lines[0])
    except ValueError:
        if flavour != 'mainline':
            sys.exit(f"FAIL: wq_monitor.py -j printed a line that is not JSON: {lines[0]}")
        return ast.literal_eval(lines[0])   # mainline's -j: Python dict reprs
row0, row = parse(sys.argv[1]), parse(sys.argv[2])
n, burned = int(sys.argv[3]), int(sys.argv[4])
def grew(key, want):
    if key not in row:
        if flavour != 'baseline':
            errs.append(f"no {key} in {sorted(row)}")
        return
    if row[key] - row0[key] != want:
        errs.append(f"{key} grew by {row[key] - row0[key]}, want {want}")
grew('started', n)
grew('cpu_intensive', n)
if flavour != 'mainline':               # wq61's own counter
    grew('cpu_local', n)
if row['completed'] != row['started']: errs.append(f"completed {row['completed']} != started {row['started']}")
if row['unbound']: errs.append("wq61_hog_count listed as unbound")
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
