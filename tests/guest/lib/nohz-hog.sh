#!/bin/bash
# In-guest half of tests/host/nohz-full-hog.sh; the guest booted small
# with nohz_full=2-3.
#  1. Control on housekeeping CPU 1 (it has its tick), default threshold:
#     a 300 ms spinner is detected, the short item behind it starts early.
#  2. On nohz_full CPU 3, with the threshold at 300 ms: a per-cpu work item
#     spins 4 s there, alone, so the CPU's tick stops. It keeps running for
#     a few dozen ms after the kworker starts, which is why the threshold
#     is raised past that; and the spinner tells RCU it passed a quiescent
#     state on every round (wq61_hog's starve_rcuqs), else RCU turns the
#     tick back on whenever a grace period waits for the CPU, ~300 ms in
#     (tick_stop trace events, dependency=RCU: without the remote check the
#     local tick then caught the hog at 340 ms). The local tick must not be
#     what notices the hog. A short item queued behind it on the same CPU
#     and workqueue
#     must start while the spinner still spins, and wq61_hog's CPUitsv must
#     count the spinner.
# Local timer interrupts (/proc/interrupts LOC) are counted during both
# spins: CPU 3's tick rate must be a small fraction of CPU 1's, or the
# boot did not give a tickless CPU and the test would prove nothing.
# Prints key=value lines for the host side.
lib=$(dirname "$0")
. "$lib/../lib.sh"
nohz=$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)
echo "nohz_full=${nohz:-none}"
[ "$nohz" = "2-3" ] || fail "booted with nohz_full=2-3, the kernel reports '${nohz:-nothing}' (CONFIG_NO_HZ_FULL?)"
need_feature "$THRESH" "workqueue.cpu_intensive_thresh_us"
hog_load
loc() { awk -v c=$(($1 + 2)) '$1 == "LOC:" { print $c }' /proc/interrupts; }
orig=$(cat "$THRESH")
on_exit 'echo "$orig" > "$THRESH"'

itsv0=$(wq_stat wq61_hog cpu_intensive) || fail "wq_monitor.py failed"
a=$(loc 1); r=$(hog starve 1 300); b=$(loc 1)
loc1=$((b - a))
echo "housekeeping_cpu1: $r loc=$loc1"
[ "$(field after_spin "$r")" = 0 ] || fail "CPU 1 (with a tick): the short item waited for the spinner ($r)"
itsv1=$(wq_stat wq61_hog cpu_intensive) || fail "wq_monitor.py failed"
[ "$itsv1" -gt "$itsv0" ] || fail "CPU 1: the spinner was not counted as CPU intensive"

set_attr "$THRESH" 300000
a=$(loc 3); r=$(hog starve_rcuqs 3 4000); b=$(loc 3)
loc3=$((b - a))
echo "nohz_full_cpu3: $r loc=$loc3"
itsv2=$(wq_stat wq61_hog cpu_intensive) || fail "wq_monitor.py failed"
echo "cpu_intensive=$itsv0,$itsv1,$itsv2"
[ "$(field spin_us "$r")" -ge 4000000 ] || fail "spinner did not spin 4 s: $r"
# ticks per second of spinning, CPU 3 against CPU 1 (x1000 to stay integer)
rate1=$((loc1 * 1000 / 300)) rate3=$((loc3 * 1000 / 4000))
echo "ticks_per_s: cpu1=$rate1 cpu3=$rate3"
[ $((rate3 * 4)) -lt "$rate1" ] ||
	fail "CPU 3 kept its tick while the kworker spun ($rate3/s against $rate1/s on CPU 1): no tickless CPU to test"
[ "$(field after_spin "$r")" = 0 ] ||
	fail "nohz_full CPU 3: the short item waited for the 4 s spinner to stop (no hog detection without a tick)"
[ "$itsv2" -gt "$itsv1" ] || fail "nohz_full CPU 3: the spinner was not counted as CPU intensive"
note "nohz_full CPU 3 (tick at $rate3/s): a 4 s hog was noticed past a 300 ms threshold, the short item behind it started after $(field wait_us "$r") us"
