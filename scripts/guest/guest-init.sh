#!/bin/bash
# PID 1 of the QEMU guest (init=, set by scripts/guest/vm.py). The root is the
# host's, read-only over 9p; the run directory is mounted at /mnt/results
# (9p tag "results", $WQ61_RESULTS). Sources its env file, prints the
# "wq61-guest: up" line the runner's boot watchdog waits for, runs its cmd,
# saves the exit status (rc) and dmesg there, then powers off.
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

# drgn and tools/workqueue/*.py find vmlinux where a distro kernel has it:
# /lib/modules/R/build/vmlinux, else /boot/vmlinux-R, else
# /usr/lib/debug/boot/vmlinux-R. The root is read-only, so a tmpfs goes
# over the first of these directories the host has (minimal hosts and
# containers have no /lib/modules).
r=$(uname -r)
if [ -d /lib/modules ]; then
	mount -t tmpfs tmpfs /lib/modules && mkdir -p "/lib/modules/$r" && ln -s "$WQ61_BUILD" "/lib/modules/$r/build"
elif [ -d /boot ]; then
	mount -t tmpfs tmpfs /boot && ln -s "$WQ61_VMLINUX" "/boot/vmlinux-$r"
elif [ -d /usr/lib/debug/boot ]; then
	mount -t tmpfs tmpfs /usr/lib/debug/boot && ln -s "$WQ61_VMLINUX" "/usr/lib/debug/boot/vmlinux-$r"
else
	echo "wq61-guest: nowhere to put vmlinux for drgn's default search"
fi

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
# Power-off tears down virtio-9p under us: from here on nothing may be
# exec'd from the root filesystem (an exec failure would kill init and
# panic the guest), so wait with bash builtins on a FIFO nobody writes.
mkfifo /run/wq61-wait
exec 9<>/run/wq61-wait
echo o > /proc/sysrq-trigger
while :; do read -r -t 60 -u 9 _ || true; done
