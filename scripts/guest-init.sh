#!/bin/bash
# PID 1 of the QEMU guest (init=). The root is the host's, read-only over
# 9p; the run directory is mounted at /results (9p tag "results"). Runs
# /results/cmd, saves its exit status and dmesg there, then powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LANG=C.UTF-8 TERM=${TERM:-linux}
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm 2>/dev/null
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
for d in /tmp /run /var/tmp /var/lib/dhcp /mnt; do mount -t tmpfs tmpfs "$d"; done
mount -t debugfs debugfs /sys/kernel/debug
mkdir -p /mnt/results && ln -s /mnt/results /tmp/results
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 results /mnt/results
export WQ61_RESULTS=/mnt/results
[ -f /mnt/results/env ] && . /mnt/results/env

# drgn and tools/workqueue/*.py find vmlinux where a distro kernel has it.
mount -t tmpfs tmpfs /lib/modules
mkdir -p "/lib/modules/$(uname -r)" && ln -s "$WQ61_BUILD" "/lib/modules/$(uname -r)/build"

echo "wq61-guest: up in $(cut -d' ' -f1 /proc/uptime)s, $(uname -r), $(nproc) CPUs"
cd /mnt/results
if [ -f /mnt/results/interactive ]; then
	echo "wq61-guest: interactive shell; 'exit' powers the guest off"
	setsid -c bash -i </dev/ttyS0 >/dev/ttyS0 2>&1
	rc=$?
else
	bash /mnt/results/cmd 2>&1 | tee /mnt/results/output
	rc=${PIPESTATUS[0]}
fi
echo "$rc" > /mnt/results/rc
dmesg > /mnt/results/dmesg
echo "wq61-guest: command exited $rc; powering off"
cd /
sync
umount /mnt/results
echo o > /proc/sysrq-trigger
sleep 30
