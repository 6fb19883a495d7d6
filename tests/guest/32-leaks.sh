#!/bin/bash
# Leaks: WQ61_LEAK_ROUNDS (make check: 2000; make check-sanitizers: 10000)
# attribute changes of an unbound workqueue (scope, strictness, localize,
# cpumask, nice, max_active: the files the kernel has) and as many
# workqueue create/run/destroy cycles (wq61_torture "cycle": per-cpu,
# unbound with sysfs files, ordered, rescuer). Every valid change must be
# taken, every cycle's item must run, and:
# - with kmemleak (the patched-kasan flavour): no unreferenced object
#   allocated through workqueue code, neither after boot nor after the
#   rounds (other leaks are listed);
# - without it, unreclaimable slab, percpu and kernel stack memory is only
#   reported: with the test kernels' SLOB allocator it moves by about a
#   kilobyte per operation and then shrinks back over seconds (freed
#   slabs are given back late), too noisy to tell a small leak from it.
#
# Expected: passes on patched, mainline and baseline.
. "$(dirname "$0")/lib.sh"
N=${WQ61_LEAK_ROUNDS:-2000}
[ -d /sys/kernel/debug/wq61_torture ] || insmod "$(mod wq61_torture)" || fail "cannot load wq61_torture"
ctl=/sys/kernel/debug/wq61_torture/ctl
wq=$WQ_SYSFS/wq61_t_ub0
KL=/sys/kernel/debug/kmemleak
[ -d "$wq" ] || fail "no $wq"
keep "$wq"/{affinity_scope,affinity_strict,localize,cpumask,nice,max_active}
wq61_needs "$wq"/{affinity_scope,affinity_strict,localize,cpumask,nice,max_active}

ncpu=$(nproc --all)
all=$(kept "$wq/cpumask")
refused=0
# changes N: N attribute writes, each a different value than before
changes() {
	local i scopes=(cpu smt cache numa system default) f v
	for ((i = 0; i < $1; i++)); do
		case $((i % 6)) in
		0) f=affinity_scope v=${scopes[(i / 6) % 6]};;
		1) f=affinity_strict v=$(((i / 6) % 2));;
		2) f=localize v=$(((i / 6) % 2));;
		3) f=cpumask; [ $(((i / 6) % 2)) = 0 ] && v=$(printf '%x' $((1 << ((i / 12) % ncpu)))) || v=$all;;
		4) f=nice v=$(((i / 6) % 3 * 5 - 5));;
		5) f=max_active v=$(((i / 6) % 2 ? 16 : 1));;
		esac
		# a file this kernel lacks: change the cpumask instead
		[ -e "$wq/$f" ] || { f=cpumask; [ $((i % 2)) = 0 ] && v=1 || v=$all; }
		echo "$v" > "$wq/$f" 2>/dev/null || refused=$((refused + 1))
	done
}
cycles() { echo "cycle $1" > $ctl || fail "cycle $1 failed"; cat $ctl; }
settle() { echo rcu_barrier > $ctl; sleep 1; echo rcu_barrier > $ctl; }
mem() { awk '/^SUnreclaim:|^Percpu:/ {s += $2} END {print s}' /proc/meminfo; }

# kl_ours FILE: how many of FILE's kmemleak reports have workqueue code
# in the allocation's backtrace: a function of kernel/workqueue.o (nm of
# the build the guest runs) other than the executors every work item runs
# under (process_one_work, worker_thread, rescuer_thread: a work function
# that leaks is not the workqueue's leak), as scripts/report/sanitizer_reports.py
# decides for KASAN and KCSAN; or a function of a wq61 test module. A
# frame is "[<ADDRESS>] func+off/len [module]"; the address may be hashed
# to "(____ptrval____)".
kl_ours() {
	local syms=$WQ61_RESULTS/workqueue.syms
	nm "$WQ61_BUILD/kernel/workqueue.o" 2>/dev/null | awk '$2 ~ /^[tTwW]$/ { print $3 }' |
		grep -vxE 'process_one_work|worker_thread|rescuer_thread' > "$syms"
	[ -s "$syms" ] || fail "no functions of $WQ61_BUILD/kernel/workqueue.o (nm)"
	awk 'NR == FNR { ours[$1] = 1; next }
		/^unreferenced object/ { if (hit) n++; hit = 0 }
		/\[<[^]]*>\] / { f = $2; sub(/\+0x.*/, "", f); if ((f in ours) || / \[wq61_[a-z_]*\]$/) hit = 1 }
		END { if (hit) n++; print n + 0 }' "$syms" "$1"
}
# kl_scan NAME: scan twice (kmemleak reports an object once it is
# unreferenced and older than 5 s), keep the report in the results dir,
# fail on a leak from workqueue code, list the others
kl_scan() {
	local f=$WQ61_RESULTS/kmemleak-$1.txt total ours
	echo scan > $KL; echo scan > $KL
	cat $KL > "$f"
	total=$(grep -c '^unreferenced object' "$f" || true)
	ours=$(kl_ours "$f")
	note "kmemleak ($1): $total unreferenced objects, $ours allocated through workqueue code"
	if [ "$ours" -gt 0 ]; then
		head -60 "$f"
		fail "kmemleak ($1): $ours leaked objects from workqueue code"
	fi
	[ "$total" -gt 0 ] && head -40 "$f"
	return 0
}

changes $((N / 10)); restore_kept
cycles $((N / 10)) >/dev/null
settle
if [ -e $KL ]; then
	# what boot (and the warm-up) left: reported now, then cleared, so that
	# the second scan shows what the rounds below leak
	kl_scan boot
	echo clear > $KL
fi
m0=$(mem)
t0=$(date +%s)
changes "$N"; restore_kept
t1=$(date +%s)
c=$(cycles "$N")
settle
m1=$(mem)
# A destroyed workqueue's pwqs go to the pwq release kthread, then RCU,
# then SLOB hands pages back late: give it up to 30 s to come back within
# 1 MB, and say how long it took (reported, not asserted).
for ((w = 0; w < 30 && $(mem) > m0 + 1024; w++)); do sleep 1; settle; done
note "$N attribute changes ($refused refused) in $((t1 - t0)) s; $c"
[ "$refused" = 0 ] || fail "$refused valid attribute writes were refused"
[ "$(field cycles "$c")" = "$N" ] && [ "$(field runs "$c")" = "$N" ] ||
	fail "create/destroy cycles: $c (an item on a destroyed workqueue did not run?)"
note "SUnreclaim+Percpu: $m0 kB before, $m1 kB right after $((2 * N)) operations, $(mem) kB $w s later (not asserted, see above)"

if [ -e $KL ]; then
	sleep 6
	kl_scan rounds
fi
exit 0
