#!/bin/bash
# A patch that does not apply must stop "make check" (and so .ci/run) with
# the patch's name. Copy the checkout, break one hunk of the series' last
# patch that touches kernel/workqueue.c, run .ci/run in the copy against
# the same cache and expect a failure naming that patch. The real series'
# applied state is untouched (apply-series.sh dies before moving wq61).
# Only meaningful for the patched flavour (the baseline applies nothing).
[ "$WQ61_FLAVOUR" = patched ] || { echo "SKIP: baseline applies no series"; exit 4; }
top=$(cd "$(dirname "$0")/../.." && pwd)
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
git -C "$top" ls-files -z | (cd "$top" && xargs -0 cp --parents -t "$copy")
victim=
for p in $(. "$copy/scripts/common.sh" && series_list); do
	if grep -q '^+++ b/kernel/workqueue.c' "$copy/patches/$p"; then victim=$copy/patches/$p; fi
done
[ -n "$victim" ] || { echo "no patch touches kernel/workqueue.c"; exit 1; }
name=$(basename "$victim")
# Corrupt the first context line of the first hunk: git am must refuse.
python3 - "$victim" <<'PY'
import sys
p = sys.argv[1]; lines = open(p).read().split('\n')
i = next(i for i, l in enumerate(lines) if l.startswith('@@')) + 1
while not lines[i].startswith(' '):
    i += 1
lines[i] = ' wq61: this context line does not exist'
open(p, 'w').write('\n'.join(lines))
PY
rc=0
# Its own results dir: if it ever got past the apply, it must not wipe ours.
out=$(cd "$copy" && WQ61_CHECK_DIR=$copy/check timeout 600 .ci/run 2>&1) || rc=$?
echo "$out" | tail -5
echo ".ci/run exited $rc with $name broken"
[ $rc -ne 0 ] && echo "$out" | grep -q "patch does not apply: $name"
