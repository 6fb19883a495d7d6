#!/bin/bash
# A workqueue whose creation fails half-way must be undone completely, and
# nothing that runs later (the pwq release kthread, RCU callbacks) may
# touch the freed workqueue. Mainline 6.6 shipped a use-after-free in
# pwq_release_workfn() after a failed alloc_workqueue() (643445531829): the
# release of the pwqs the failed creation had made read the workqueue that
# alloc_workqueue() had already freed.
#
# For each kind of workqueue wq61_torture's "cycle 1 K" makes (per-cpu,
# unbound with sysfs files, ordered, rescuer-backed, unbound with both),
# fail the 1st, 2nd, 3rd ... slab allocation of the command
# (/proc/thread-self/fail-nth, FAILSLAB) until one attempt goes through
# without reaching the failure. Each attempt must either fail with an error
# or succeed; the last one must succeed; afterwards no workqueue of the
# failed attempts may be left in sysfs, and a plain "cycle 10" must work.
# What the failed attempts leave behind is released asynchronously; KASAN
# (the patched-kasan flavour) reports a touch of freed memory, which the
# runner's log scan and make check-sanitizers fail.
#
# Needs fault injection (CONFIG_FAILSLAB, which needs SLUB): the sanitizer
# kernels have it, the test kernels of make check (SLOB) do not: skipped.
# Expected: passes on patched-kasan; fails on naive-kasan with
# b2-release-touches-freed-wq (make check-naive).
. "$(dirname "$0")/lib.sh"
NTH=/proc/thread-self/fail-nth
FS=/sys/kernel/debug/failslab
[ -e "$NTH" ] && [ -d "$FS" ] ||
	skip "needs fault injection (CONFIG_FAILSLAB; make check-sanitizers has it)"
[ -d /sys/kernel/debug/wq61_torture ] || insmod "$(mod wq61_torture)" || fail "cannot load wq61_torture"
ctl=/sys/kernel/debug/wq61_torture/ctl
MAX=${WQ61_FAIL_NTH_MAX:-3000}

# fail-nth ignores probability and interval, but failslab by default leaves
# sleeping (GFP_KERNEL) allocations alone, i.e. nearly all of these; and
# each injected failure would print a stack (verbose 2).
keep "$FS/ignore-gfp-wait" "$FS/verbose"
on_exit 'echo 0 > "$NTH"'
echo N > "$FS/ignore-gfp-wait" || fail "cannot set $FS/ignore-gfp-wait"
echo 0 > "$FS/verbose" || fail "cannot set $FS/verbose"

# With lockdep, alloc_workqueue()'s error path waits for an RCU grace
# period (lockdep_unregister_key()) before it frees the workqueue; the
# release kthread has long run by then, and a release that touched the
# freed workqueue would go unseen. So hold the kthread back while the loop
# runs: pin it to the last CPU, keep this shell off that CPU, and spin a
# SCHED_FIFO task there (RT throttling still leaves the CPU's other tasks
# a slice of each second). On a correct kernel this only delays releases.
rel=$(pgrep -x pool_workqueue_release || true)
last=$(( $(nproc) - 1 ))
hog=
if [ -n "$rel" ] && [ "$last" -ge 1 ] && [ "$last" -le 62 ] &&
   [ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" -gt 0 ]; then
	# unbound work items, which each attempt waits for, stay off it too
	save_unbound_cpumask
	printf '%x' $(( (1 << last) - 1 )) > "$g" || fail "cannot take CPU $last out of the unbound cpumask"
	on_exit 'taskset -pc "0-$last" "$rel" >/dev/null'
	taskset -pc "$last" "$rel" >/dev/null || fail "cannot move pool_workqueue_release to CPU $last"
	taskset -pc "0-$((last - 1))" $$ >/dev/null || fail "cannot move the test off CPU $last"
	expect_message 'sched: RT throttling activated'
	chrt -f 10 taskset -c "$last" bash -c 'while :; do :; done' &
	hog=$!
	on_exit 'kill $hog 2>/dev/null'
	note "pool_workqueue_release ($rel) held back on CPU $last by a SCHED_FIFO spinner during the loop"
else
	note "pool_workqueue_release not held back (kthread ${rel:-not found}, $((last + 1)) CPUs): releases run at once"
fi

kinds=(per-cpu unbound+sysfs ordered rescuer unbound+rescuer+sysfs)
# Error messages of the loop's redirections go to fd 9, opened once: a
# 2>/dev/null in the loop would itself allocate (and could be failed).
exec 9>/dev/null
total=0
for k in "${!kinds[@]}"; do
	failed=0 n=0 done_ok=
	while [ $n -lt "$MAX" ]; do
		n=$((n + 1))
		# Only builtins from here to the read below: a forked command
		# would be another task, with a fail-nth of its own.
		# Opening a file allocates too, so the count may also run out
		# in the read's open (which then fails: left stays empty) or
		# in the reset's: either way the command made fewer than n
		# allocations, and fail-nth ends at 0.
		ok=1 left=
		echo $n > "$NTH" || fail "cannot write $NTH"
		{ echo "cycle 1 $k" > "$ctl"; } 2>&9 || ok=0
		{ read -r left < "$NTH"; } 2>&9
		{ echo 0 > "$NTH"; } 2>&9
		if [ "$left" != 0 ]; then
			# fewer than n allocations: nothing in it was failed
			[ $ok = 1 ] || fail "${kinds[$k]}: attempt $n failed with no failure injected"
			done_ok=1
			break
		fi
		failed=$((failed + (1 - ok)))
	done
	[ -n "$done_ok" ] || fail "${kinds[$k]}: still reaching an injected failure after $MAX attempts"
	note "${kinds[$k]}: allocation 1..$((n - 1)) failed in turn ($failed attempts returned an error), attempt $n went through"
	total=$((total + n - 1))
	[ ! -e "$WQ_SYSFS/wq61_t_cycle" ] || fail "${kinds[$k]}: a failed creation left $WQ_SYSFS/wq61_t_cycle"
done
# Let the release kthread go: the failed creations' pwqs are released
# within moments (then by RCU); by the time the runner reads the log at
# power-off, a release that touched a freed workqueue has been reported.
if [ -n "$hog" ]; then
	kill "$hog"; wait "$hog" 2>/dev/null || true
	taskset -pc "0-$last" "$rel" >/dev/null || fail "cannot give pool_workqueue_release its CPUs back"
	echo "$cpumask_saved" > "$g" || fail "cannot restore the unbound cpumask $cpumask_saved"
fi
echo rcu_barrier > "$ctl" || fail "rcu_barrier failed"
echo "cycle 10" > "$ctl" || fail "cycle 10 fails after the failed creations: $(cat "$ctl")"
r=$(cat "$ctl")
[ "$(field cycles "$r")" = 10 ] && [ "$(field runs "$r")" = 10 ] || fail "cycle 10: $r"
note "$total injected allocation failures over ${#kinds[@]} kinds of workqueue; cycle 10 after them: $r"
