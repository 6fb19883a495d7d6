#!/bin/bash
# make check-naive puts mainline's bugs back with tests/naive/*.diff on top
# of the series. A change to the series can move their context: each diff
# must still apply to the patched tree (git apply --check, nothing written),
# or make check-naive would stop at the first stale one long after the
# change that broke it.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/common.sh"
[ "$WQ61_FLAVOUR" = patched ] || { echo "SKIP: the diffs apply to the patched tree only"; exit 4; }
src=$(src_of patched)
[ -d "$src/.git" ] || [ -f "$src/.git" ] || { echo "no patched tree at $src"; exit 1; }
bad=0 n=0
for d in "$top"/tests/naive/*.diff; do
	n=$((n + 1))
	if err=$(git -C "$src" apply --check "$d" 2>&1); then
		echo "ok   $(basename "$d")"
	else
		echo "FAIL $(basename "$d"): $err"; bad=1
	fi
done
[ $n -gt 0 ] || { echo "no diffs in tests/naive"; exit 1; }
exit $bad
