#!/bin/bash
# Torture: module wq61_torture pushes the workqueue API from several threads
# with exact accounting (see tests/modules/wq61_torture.c) while, at the
# same time, this script
# - storms CPU hotplug: a single CPU, an SMT pod, an L3 pod and all CPUs
#   but CPU 0, offline and back, over and over;
# - reconfigures the unbound workqueues: affinity_scope, affinity_strict,
#   localize, cpumask (all CPUs, one CPU), nice and max_active of
#   wq61_t_ub0/ub1, scope and strictness of wq61_t_ma (max_active 2), the
#   global unbound cpumask (all CPUs or half of them), the default scope
#   and cpu_intensive_thresh_us (the files a kernel has).
# Every check the module reports (KTAP) must pass; the runner's log scan
# fails the test on any splat. WQ61_TORTURE_DURATION (seconds, default 60)
# and WQ61_TORTURE_THREADS (default 4): make torture DURATION=...
#
# Expected: passes on patched, mainline and baseline (what a kernel lacks
# is not reconfigured there; on wq61 a missing knob is a failure).
. "$(dirname "$0")/lib.sh"
duration=${WQ61_TORTURE_DURATION:-60}
threads=${WQ61_TORTURE_THREADS:-4}
[ -d /sys/kernel/debug/wq61_torture ] || insmod "$(mod wq61_torture)" || fail "cannot load wq61_torture"
# wq61_t_iord (WQ_UNBOUND, max_active 1) is ordered in 6.1 and wq61, not in
# mainline since 6.9 (3bc1e711c26b): checked as ordered everywhere else
io=/sys/module/wq61_torture/parameters/implicit_ordered
if [ "$WQ61_FAMILY" = mainline ]; then echo 0 > $io; else echo 1 > $io; fi || fail "cannot set $io"
ctl=/sys/kernel/debug/wq61_torture/ctl
SYS=/sys/devices/system/cpu
P=/sys/module/workqueue/parameters
make_tmp
pids=()

knobs=($WQ_SYSFS/wq61_t_{ub0,ub1,ma}/{affinity_scope,affinity_strict,localize,cpumask,nice}
	$WQ_SYSFS/wq61_t_{ub0,ub1}/max_active $WQ_SYSFS/cpumask
	$P/default_affinity_scope $P/cpu_intensive_thresh_us)
keep "${knobs[@]}"
wq61_needs "${knobs[@]}"
# the cpumasks as they were: the storm writes them back now and then
declare -A mask
for wq in wq61_t_ub0 wq61_t_ub1 wq61_t_ma; do mask[$wq]=$(kept "$WQ_SYSFS/$wq/cpumask"); done
all_mask=$(kept "$WQ_SYSFS/cpumask")
# (on_exit runs the last registered first: the storm stops, CPUs come
# back, then the knobs are written back and $tmp goes)
on_exit 'touch "$tmp/stop"; [ ${#pids[@]} -gt 0 ] && wait "${pids[@]}"; online_all'

storm() {
	local last mid groups=() g c
	last=$(cpus_of "$(cat $SYS/online)" | tail -n 1)
	mid=$(( (last + 1) / 2 - 1 ))
	[ "$mid" -gt 0 ] || mid=$last
	groups+=("$mid")
	g=$(cpus_of "$(cat $SYS/cpu$last/topology/thread_siblings_list)" | grep -vx 0 | tr '\n' ' ')
	[ -n "$g" ] && groups+=("$g")
	if [ -e $SYS/cpu$mid/cache/index3/shared_cpu_list ]; then
		g=$(cpus_of "$(cat $SYS/cpu$mid/cache/index3/shared_cpu_list)" | grep -vx 0 | tr '\n' ' ')
		[ -n "$g" ] && groups+=("$g")
	fi
	groups+=("$(cpus_of "$(cat $SYS/online)" | grep -vx 0 | tr '\n' ' ')")
	echo "storm groups: ${groups[*]/%/|}"
	while [ ! -e "$tmp/stop" ]; do
		for g in "${groups[@]}"; do
			for c in $g; do echo 0 > $SYS/cpu$c/online || echo "storm: cannot offline $c"; done
			for c in $g; do echo 1 > $SYS/cpu$c/online || echo "storm: cannot online $c"; done
			[ -e "$tmp/stop" ] && break
		done
		n=$((n + 1))
	done
	echo "storm: $n rounds"
}

# w FILE VALUE: a valid write; a refusal is reported (and counted)
w() {
	[ -e "$1" ] || return 0
	echo "$2" > "$1" 2>/dev/null || { echo "attrs: '$2' > $1 refused"; echo x >> "$tmp/refused"; }
}

attrs() {
	local i=0 s wq one
	local scopes=(cpu smt cache numa system default)
	while [ ! -e "$tmp/stop" ]; do
		s=${scopes[i % 6]}
		for wq in wq61_t_ub0 wq61_t_ub1 wq61_t_ma; do
			w $WQ_SYSFS/$wq/affinity_scope "$s"
			w $WQ_SYSFS/$wq/affinity_strict $((i % 2))
		done
		for wq in wq61_t_ub0 wq61_t_ub1; do
			w $WQ_SYSFS/$wq/localize $(((i / 2) % 2))
			# one CPU (online or not), or them all
			one=$(printf '%x' $((1 << (i % $(nproc --all)))))
			if [ $((i % 3)) = 0 ]; then
				w $WQ_SYSFS/$wq/cpumask "$one"
			else
				w $WQ_SYSFS/$wq/cpumask "${mask[$wq]}"
			fi
			w $WQ_SYSFS/$wq/nice $(( (i % 3) * 5 - 5 ))
			w $WQ_SYSFS/$wq/max_active $(( i % 4 == 0 ? 1 : 16 ))
		done
		# the global unbound cpumask: all CPUs, or the first half
		if [ $((i % 4)) = 3 ]; then
			w $WQ_SYSFS/cpumask "$(printf '%x' $(( (1 << ($(nproc --all) / 2)) - 1 )))"
		else
			w $WQ_SYSFS/cpumask "$all_mask"
		fi
		w $P/default_affinity_scope "${scopes[(i + 2) % 5]}"
		w $P/cpu_intensive_thresh_us $(( (i % 3 + 1) * 5000 ))
		i=$((i + 1))
		sleep 0.2
	done
	echo "attrs: $i rounds"
}

[ -e $SYS/cpu1/online ] && { storm & pids+=($!); }
attrs & pids+=($!)
note "torture: ${duration}s, $threads threads, hotplug storm and attribute changes alongside"
echo "run $duration $threads" > $ctl || fail "wq61_torture run refused"
touch "$tmp/stop"
wait "${pids[@]}"
pids=()
r=$(cat $ctl)
echo "$r"
[ -s "$tmp/refused" ] && fail "$(wc -l < "$tmp/refused") valid attribute writes were refused"
echo "$r" | grep -q '^1\.\.10$' || fail "no KTAP plan from wq61_torture"
[ "$(echo "$r" | grep -c '^ok ')" = 10 ] || fail "wq61_torture: $(echo "$r" | grep -c '^not ok') checks failed"
note "torture: all 10 checks passed"
