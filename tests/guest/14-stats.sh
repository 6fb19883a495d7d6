#!/bin/bash
# Per-workqueue statistics through tools/workqueue/wq_monitor.py: after N
# items, started = completed = N, nothing in flight, and cpu_time close to
# the CPU time the items burned.
. "$(dirname "$0")/lib.sh"
need_feature "$THRESH" "workqueue.cpu_intensive_thresh_us"
hog_load
n=$(nproc)	# one 100 ms item per CPU: each burns its CPU alone
before=$(wq_stat wq61_hog_count started) || fail "wq_monitor.py failed"
r=$(hog burn $n 100); note "$r"
burned=$(field burned_us "$r")
json=$(wq_monitor -j -i 0 '^wq61_hog_count$') || fail "wq_monitor.py failed"
note "$json"
python3 - "$json" "$before" "$n" "$burned" <<'PY' || exit 1
import json, sys
row = json.loads(sys.argv[1]); before, n, burned = map(int, sys.argv[2:])
errs = []
if row['started'] - before != n: errs.append(f"started {row['started']} - {before} != {n}")
if row['completed'] != row['started']: errs.append(f"completed {row['completed']} != started {row['started']}")
ratio = row['cpu_time'] / burned
print(f"cpu_time {row['cpu_time']}us for {burned}us burned: ratio {ratio:.2f}")
# Tick sampling (4 ms at HZ=250) under TCG: a wide but meaningful band.
if not 0.5 <= ratio <= 1.5: errs.append(f"cpu_time ratio {ratio:.2f} outside 0.5..1.5")
for e in errs: print("FAIL:", e)
sys.exit(1 if errs else 0)
PY
# The table form shows the same workqueue with its columns.
wq_monitor -i 0 '^wq61_hog_count$' | tee /tmp/table
head -1 /tmp/table | grep -q 'total.*infl.*CPUtime.*CPUitsv.*CMwake.*mayday.*rescued' || fail "table header"
