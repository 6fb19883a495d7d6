#!/bin/bash
# What "make run" shows inside the guest: the kernel, its workqueues, then
# (patched kernel) the CPU-intensive detection at work: a hog's victim
# starts early, wq_monitor.py's CPUitsv and CPUtime move, dmesg reports the
# offender. The runner scans the kernel log after this returns.
echo "=== kernel: $(uname -r) $(uname -v)"
echo "=== CPUs: $(nproc), nodes: $(cat /sys/devices/system/node/online)"
echo "=== workqueues (drgn)"
drgn -q -k -s "$WQ61_VMLINUX" "$WQ61_TOP/scripts/guest/list-workqueues.py" 2>&1
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
# On CPUs 0 and 1 only: CPUtime is sampled at scheduler ticks, and a TCG
# guest whose vCPUs outnumber the host's cores loses the ticks of vCPUs the
# host is not running, so a burn spread over all 16 vCPUs would read low.
echo "=== four 250 ms items on CPUs 0-1 of wq61_hog_count (1 s of CPU), 4 hogs of report_fn"
echo "burn 4 250 2" > $ctl && echo "    $(cat $ctl)   (cpu_us: CPU time the scheduler charged them)"
for i in 1 2 3 4; do echo "report $cpu 60" > $ctl; done
sleep 1
echo "=== tools/workqueue/wq_monitor.py -i 0 'wq61|events\$'  (wq61_hog_count's CPUtime: ~1 s, as above)"
drgn -q -k -s "$WQ61_VMLINUX" "$mon" -i 0 'wq61|events$'
echo "=== dmesg: reports"
dmesg | grep 'hogged CPU' | sed 's/^/    /'
rmmod wq61_hog

# Affinity scopes (issue 9): the default, one workqueue's scope switched
# live, and where work items from one CPU start under two scopes.
A=/sys/module/workqueue/parameters/default_affinity_scope
[ -e "$A" ] || { echo "=== this kernel has no affinity scopes"; exit 0; }
insmod "$WQ61_MODULES/wq61_affinity.ko" || exit 1
wq=/sys/devices/virtual/workqueue/wq61_affn
actl=/sys/kernel/debug/wq61_affinity/ctl
echo "=== default_affinity_scope = $(cat $A); wq61_affn: affinity_scope = '$(cat $wq/affinity_scope)', affinity_strict = $(cat $wq/affinity_strict)"
for s in cache system; do
	echo $s > $wq/affinity_scope
	echo "start 0 100 500" > $actl
	echo "=== affinity_scope=$s: 100 items queued on CPU 0 started on (per CPU): $(cat $actl)"
done
echo cache > $wq/affinity_scope
if [ -e $wq/localize ]; then
	echo 1 > $wq/localize
	echo "startw 0 50 100" > $actl
	echo "=== affinity_scope=cache, localize=1: 50 items queued one at a time on CPU 0 started on (per CPU): $(cat $actl)"
else
	echo "startw 0 50 100" > $actl
	echo "=== affinity_scope=cache: 50 items queued one at a time on CPU 0 started on (per CPU): $(cat $actl)"
fi
echo "=== tools/workqueue/wq_monitor.py -i 0 'wq61_affn\$'  (CMW/RPR: repatriations; CPUlocal: started on the queueing CPU)"
drgn -q -k -s "$WQ61_VMLINUX" "$mon" -i 0 'wq61_affn$'
dump=$WQ61_SRC/tools/workqueue/wq_dump.py
echo "=== tools/workqueue/wq_dump.py  (pods of each scope, pools, workqueue -> pool per CPU; wq61_affn: L)"
drgn -q -k -s "$WQ61_VMLINUX" "$dump" | cut -c1-120
[ -e $wq/localize ] && echo 0 > $wq/localize
echo default > $wq/affinity_scope
rmmod wq61_affinity
