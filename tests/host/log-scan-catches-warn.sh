#!/bin/bash
# The runner must fail a run whose kernel log has a WARNING: boot the small
# preset, load wq61_warn (WARN_ON(1)) and expect the verdict "splat".
top=$(cd "$(dirname "$0")/../.." && pwd)
rc=0
"$top/scripts/guest/vm.py" -q -f "$WQ61_FLAVOUR" -p small -r "$WQ61_RESDIR/warn" -- \
	sh -c 'insmod $WQ61_MODULES/wq61_warn.ko' || rc=$?
v=$(cat "$WQ61_RESDIR/warn/verdict")
echo "runner exited $rc, verdict: $v"
grep -m1 'WARNING:' "$WQ61_RESDIR/warn/scan.txt" 2>/dev/null
[ "$v" = splat ] && [ $rc -eq 125 ] && grep -q 'WARNING:.*wq61_warn' "$WQ61_RESDIR/warn/scan.txt"
