#!/bin/bash
# The runner must fail a run whose kernel log has a WARNING: boot the small
# preset, load wq61_warn (WARN_ON(1)) and expect exit 125 (splat found).
top=$(cd "$(dirname "$0")/../.." && pwd)
rc=0
"$top/scripts/vm.sh" -q -f "$WQ61_FLAVOUR" -p small -r "$WQ61_RESDIR/warn" -- \
	'insmod $WQ61_MODULES/wq61_warn.ko' || rc=$?
echo "runner exited $rc"
grep -m1 'WARNING:' "$WQ61_RESDIR/warn/scan.txt" 2>/dev/null
[ $rc -eq 125 ] && grep -q 'WARNING:.*wq61_warn' "$WQ61_RESDIR/warn/scan.txt"
