#!/bin/bash
# The boot watchdog against a real kernel: rootdelay=600 holds the guest
# before it mounts its root, so userspace cannot come up, however fast the
# machine is; the console falls silent. The runner must call the guest lost
# (the verdict says why), save the local APIC and registers, and NMI it: the
# kernel (unknown_nmi_panic) prints where it was, and the guest is stopped.
# The other runner outcomes are tested with a fake QEMU (runner-verdicts.sh).
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$WQ61_RESDIR/boot-watchdog
rc=0
WQ61_BOOT_SILENCE=10 "$top/scripts/guest/vm.py" -q -f "$WQ61_FLAVOUR" -p small -a rootdelay=600 \
	-r "$dir" -- true || rc=$?
v=$(cat "$dir/verdict")
echo "runner exited $rc, verdict: $v"
case $v in "lost: boot watchdog: console silent for 10s"*) ;; *) echo "FAIL: want a lost boot"; exit 1;; esac
[ $rc -eq 124 ] || { echo "FAIL: exit $rc, want 124"; exit 1; }
grep -q 'APIC' "$dir/stall-info.txt" || { echo "FAIL: no local APIC state saved"; exit 1; }
grep -q 'Waiting 600 sec before mounting root' "$dir/console.log" || { echo "FAIL: guest never reached rootdelay"; exit 1; }
grep -m1 'NMI received for unknown reason' "$dir/console.log" || { echo "FAIL: no NMI backtrace"; exit 1; }
grep -q 'Kernel panic - not syncing: NMI' "$dir/console.log" || { echo "FAIL: NMI did not stop the guest"; exit 1; }
echo "boot watchdog: lost verdict, stall info and NMI backtrace"
# This lost boot was asked for: keep it out of make check's count of boots
# lost by accident.
mv "$dir/boots" "$dir/boots.expected"
