#!/bin/bash
# The rescuer of an unbound WQ_MEM_RECLAIM workqueue runs only where the
# workqueue may: its cpumask within the global unbound cpumask (issue 21
# section 4; mainline 449b31ad2937, d64f2fa064f8). The rescuer is a
# kthread named after the workqueue (mainline 6.9+: "kworker/R-" and the
# name); /proc/PID/status gives its CPUs.
#   1. writeback (created at boot, its rescuer made by workqueue_init()):
#      global cpumask 2-5 -> its rescuer on 2-5;
#   2. wq61r (module wq61_rescuer) created while the global cpumask
#      is 2-5: its rescuer starts on 2-5;
#   3. its own cpumask 4-9 -> 4-5 (the two meet there);
#   4. the global cpumask back to every CPU -> 4-9.
#
# Expected: passes on patched and mainline; fails on baseline (a rescuer
# is allowed every CPU, whatever the cpumasks say).
. "$(dirname "$0")/lib.sh"
[ "$(nproc)" -ge 10 ] || skip "needs 10 CPUs (big)"
online_all
save_unbound_cpumask
allowed() { # WORKQUEUE -> its rescuer's Cpus_allowed_list
	local comm=$1 pid="" p
	[ "$WQ61_FAMILY" = mainline ] && comm=kworker/R-$1
	# /proc shows a workqueue kthread's whole name (wq_worker_comm()),
	# longer than the 15 characters pgrep matches
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = "$comm" ] && { pid=${p#/proc/}; break; }
	done
	[ -n "$pid" ] || fail "no kthread named $comm"
	sed -n 's/^Cpus_allowed_list:\t*//p' "/proc/$pid/status"
}
want() { # WHAT KTHREAD CPULIST
	local got
	got=$(allowed "$2")
	[ "$got" = "$3" ] || fail "$1: rescuer $2 may run on $got, want $3"
	note "$1: rescuer $2 on $got"
}
all=$(cat /sys/devices/system/cpu/possible)
rmmod wq61_rescuer 2>/dev/null
on_exit 'rmmod wq61_rescuer 2>/dev/null'

set_attr "$g" 3c
want "global cpumask 2-5" writeback 2-5

insmod "$(mod wq61_rescuer)" || fail "cannot load wq61_rescuer"
want "created under global cpumask 2-5" wq61r 2-5

w=$WQ_SYSFS/wq61r/cpumask
set_attr "$w" 3f0
want "its cpumask 4-9, global 2-5" wq61r 4-5

set_attr "$g" "$cpumask_saved"
want "its cpumask 4-9, global back to $(cat "$g")" wq61r 4-9
want "global back" writeback "$all"
