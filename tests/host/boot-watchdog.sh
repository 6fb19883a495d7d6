#!/bin/bash
# The runner's boot watchdog: a guest that is not up in time is sent an NMI
# (for a backtrace on the console) and killed; it is booted again, and after
# WQ61_BOOT_TRIES lost boots the run is reported lost (exit 124). Forced
# here with a 3 s boot limit on the small preset (QEMU start, kernel
# decompression and boot take well over 3 s under TCG).
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$WQ61_RESDIR/boot-watchdog
rc=0
WQ61_BOOT_TRIES=2 "$top/scripts/vm.sh" -q -f "$WQ61_FLAVOUR" -p small -b 3 -r "$dir" -- true || rc=$?
echo "runner exited $rc"
ls "$dir"
[ $rc -eq 124 ] || { echo "want 124 (lost)"; exit 1; }
[ -f "$dir/console.log.lost-1" ] || { echo "first lost boot's console not kept"; exit 1; }
# The NMI's backtrace only shows if the kernel got far enough to handle it
# (at 3 s it may still be decompressing): informational here.
grep -h -m1 'NMI received for unknown reason' "$dir"/console.log* || echo "(no NMI backtrace: guest too early)"
grep -q 'userspace not up after 3s' "$dir/boot-stalled" || { echo "no reason recorded"; exit 1; }
