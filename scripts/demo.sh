#!/bin/bash
# What "make run" shows inside the guest: the kernel, its workqueues, then
# (patched kernel) the CPU-intensive detection at work: a hog's victim
# starts early, wq_monitor.py's CPUitsv and CPUtime move, dmesg reports the
# offender. The runner scans the kernel log after this returns.
echo "=== kernel: $(uname -r) $(uname -v)"
echo "=== CPUs: $(nproc), nodes: $(cat /sys/devices/system/node/online)"
echo "=== workqueues (drgn)"
drgn -q -k -s "$WQ61_VMLINUX" "$WQ61_TOP/scripts/list-workqueues.py" 2>&1
T=/sys/module/workqueue/parameters/cpu_intensive_thresh_us
mon=$WQ61_SRC/tools/workqueue/wq_monitor.py
if [ ! -e "$T" ]; then
	echo "=== this kernel has no automatic CPU-intensive detection (baseline)"
	exit 0
fi
insmod "$WQ61_MODULES/wq61_hog.ko" || exit 1
ctl=/sys/kernel/debug/wq61_hog/ctl
cpu=$(( $(nproc) - 1 ))
thresh=$(cat $T)
echo "=== cpu_intensive_thresh_us = $thresh"
echo "=== a work item spins 300 ms on CPU $cpu; a short one is queued 2 ms later"
echo "starve $cpu 300" > $ctl && echo "    $(cat $ctl)   (wait_us: how long the short one waited)"
echo 0 > $T
echo "=== the same with detection disabled (cpu_intensive_thresh_us=0)"
echo "starve $cpu 300" > $ctl && echo "    $(cat $ctl)"
echo "$thresh" > $T
echo "=== one 100 ms item per CPU on wq61_hog_count, 4 hogs of report_fn"
echo "burn $(nproc) 100" > $ctl && echo "    $(cat $ctl)"
for i in 1 2 3 4; do echo "report $cpu 60" > $ctl; done
sleep 1
echo "=== tools/workqueue/wq_monitor.py -i 0 'wq61|events\$'"
drgn -q -k -s "$WQ61_VMLINUX" "$mon" -i 0 'wq61|events$'
echo "=== dmesg: reports"
dmesg | grep 'hogged CPU' | sed 's/^/    /'
rmmod wq61_hog
