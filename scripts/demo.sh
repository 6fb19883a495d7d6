#!/bin/bash
# What "make run" shows inside the guest: the kernel, its workqueues and a
# clean kernel log verdict (the runner scans dmesg after this returns).
echo "=== kernel: $(uname -r) $(uname -v)"
echo "=== CPUs: $(nproc), nodes: $(cat /sys/devices/system/node/online)"
echo "=== workqueues (from /sys/bus/workqueue/devices and drgn)"
ls /sys/bus/workqueue/devices | column -c 100
if command -v drgn >/dev/null; then
	drgn -k -s "$WQ61_VMLINUX" -q "$WQ61_TOP/scripts/list-workqueues.py" 2>&1
fi
