#!/bin/bash
# In-guest half of tests/host/slow-clock.sh: print what the guest booted with
# and what became of cpu_intensive_thresh_us, as key=value lines.
thresh=/sys/module/workqueue/parameters/cpu_intensive_thresh_us
[ -e "$thresh" ] || { echo "thresh=missing"; exit 0; }
echo "thresh=$(cat "$thresh")"
echo "bogomips=$(dmesg | sed -n 's/.*Calibrating delay loop.* \([0-9]*\)\.[0-9]* BogoMIPS (lpj=\([0-9]*\)).*/\1/p' | head -1)"
echo "scaled_line=$(dmesg | grep -o 'workqueue: [0-9]* BogoMIPS, scaling cpu_intensive_thresh_us up to [0-9]*' | head -1)"
