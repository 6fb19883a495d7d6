#!/bin/bash
# scripts/report/scan_log.py on synthetic logs: splats fail, declared ones and the
# lockdep/RCU boot banners do not.
top=$(cd "$(dirname "$0")/../.." && pwd)
scan=$top/scripts/report/scan_log.py
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$d/clean" <<'L'
[    0.39] rcu: 	RCU lockdep checking is enabled.
[    0.46] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
[    0.46] ... MAX_LOCKDEP_SUBCLASSES:  8
[    1.00] ODEBUG: selftest passed
L
"$scan" "$d/clean" >/dev/null || fail "boot banners taken for splats"
for splat in 'WARNING: CPU: 1 PID: 150 at kernel/workqueue.c:1 f+0x0' \
	'BUG: workqueue lockup - pool cpus=1 node=0 flags=0x0 nice=0 stuck for 31s!' \
	'WARNING: possible circular locking dependency detected' \
	'watchdog: BUG: soft lockup - CPU#3 stuck for 22s! [kworker/3:1:99]' \
	'INFO: task kworker/0:1:12 blocked for more than 60 seconds.' \
	'rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:' \
	'BUG: sleeping function called from invalid context at kernel/sched/core.c:1' \
	'general protection fault, probably for non-canonical address'; do
	printf '[    2.00] %s\n' "$splat" > "$d/bad"
	"$scan" "$d/bad" >/dev/null && fail "missed: $splat"
done
printf '[ 2.0] workqueue: f hogged CPU for >10000us 4 times\n[ 3.0] WARNING: CPU: 0 PID: 1 at x.c:1 wq61_warn_init+0x0\n' > "$d/bad"
echo 'WARNING: .* wq61_warn_init' > "$d/expected"
"$scan" --expected "$d/expected" "$d/bad" >/dev/null || fail "declared message still fails the scan"
"$scan" "$d/bad" >/dev/null && fail "undeclared WARNING passed"
echo "scan_log.py: all cases behave"
