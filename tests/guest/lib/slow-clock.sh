#!/bin/bash
# In-guest half of tests/host/slow-clock.sh: print what the guest booted with
# and what became of cpu_intensive_thresh_us, as key=value lines.
thresh=/sys/module/workqueue/parameters/cpu_intensive_thresh_us
[ -e "$thresh" ] || { echo "thresh=missing"; exit 0; }
echo "thresh=$(cat "$thresh")"
echo "bogomips=$(dmesg | sed -n 's/.*Calibrating delay loop.* \([0-9]*\)\.[0-9]* BogoMIPS (lpj=\([0-9]*\)).*/\1/p' | head -1)"
echo "scaled_line=$(dmesg | grep -o 'workqueue: [0-9]* BogoMIPS, scaling cpu_intensive_thresh_us up to [0-9]*' | head -1)"

# Releasing replaced pwqs. Changing an unbound workqueue's nice gives it new
# pwqs on new pools; the old pwqs are released on the pwq release kthread
# (6.1: system_wq), which puts their pools, whose idle workers then exit.
# Mainline 6.6 started that thread only when cpu_intensive_thresh_us was not
# given at boot (fixed by dd64c873ed11), so after such a boot nothing old was
# ever released. writeback is WQ_UNBOUND | WQ_SYSFS in every kernel.
wq=/sys/devices/virtual/workqueue/writeback
nice_workers() {
	awk -v n="$1" '$2 ~ /^\(kworker\// && $19 == n { c++ } END { print c + 0 }' \
		/proc/[0-9]*/stat 2>/dev/null
}
before=$(nice_workers 7)
echo 7 > "$wq/nice" || { echo "release=cannot set nice"; exit 0; }
during=$(nice_workers 7)
echo 0 > "$wq/nice"
if [ "$during" -le "$before" ]; then
	echo "release=no nice 7 workers appeared ($before before, $during after)"
	exit 0
fi
# The release is asynchronous: wait for it, as long as a slow guest needs.
end=$((SECONDS + 60))
while [ $SECONDS -lt $end ]; do
	[ "$(nice_workers 7)" -le "$before" ] && { echo "release=ok ($during nice 7 workers gone)"; exit 0; }
	sleep 0.2
done
echo "release=stuck: $(nice_workers 7) nice 7 workers still there 60 s after the pools were replaced"
