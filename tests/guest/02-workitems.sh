#!/bin/bash
# A per-cpu work item runs on the CPU it was queued on, an unbound one runs.
. "$(dirname "$0")/lib.sh"
last=$(( $(nproc) - 1 ))
insmod "$(mod wq61_smoke)" cpu=$last || fail "wq61_smoke failed to load (see dmesg)"
dmesg | grep 'wq61_smoke:' | tail -2
rmmod wq61_smoke
# Bad input is refused: an offline/nonexistent CPU.
insmod "$(mod wq61_smoke)" cpu=$((last + 100)) 2>/dev/null && fail "cpu=$((last + 100)) accepted"
exit 0
