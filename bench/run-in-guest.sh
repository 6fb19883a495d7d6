#!/bin/bash
# Runs inside one guest boot: every benchmark, raw rows appended to
# $WQ61_RESULTS/bench.csv as "benchmark,unit,flavour,boot,run,value".
set -u
csv=$WQ61_RESULTS/bench.csv
boot=${WQ61_BENCH_BOOT:-0}
items=${WQ61_BENCH_ITEMS:-20000}
runs=${WQ61_BENCH_RUNS:-7}
rounds=${WQ61_BENCH_ROUNDS:-20}
row() { echo "$1,$2,$WQ61_FLAVOUR,$boot,$3,$4" >> "$csv"; }
# barrier NAME: when two guests run side by side (WQ61_BENCH_SYNC=1), wait
# until the host says both reached NAME, so that they measure at the same
# time under the same host load.
barrier() {
	[ "${WQ61_BENCH_SYNC:-0}" = 1 ] || return 0
	touch "$WQ61_RESULTS/at-$1"
	for ((t = 0; t < 3000; t++)); do
		[ -e "$WQ61_RESULTS/go-$1" ] && return 0
		sleep 0.1
	done
	echo "barrier $1: no go from the host after 300 s"; exit 1
}

# Under -icount (the bench1 preset: one vCPU, guest clock = retired
# instructions) the module's nanoseconds are instruction counts: the
# deterministic figures, one set per boot.
if [ "${WQ61_BENCH_KIND:-wall}" = icount ]; then
	bench() { # MODE ITEMS RUNS [NAME UNIT FIELD]...: one load, rows per field
		local mode=$1 n=$2 r=$3; shift 3
		dmesg -C
		insmod "$WQ61_MODULES/wq61_bench.ko" mode=$mode items=$n runs=$r ||
			{ echo "wq61_bench mode=$mode failed"; dmesg | tail; exit 1; }
		rmmod wq61_bench
		dmesg > /tmp/bench.dmesg
		while [ $# -ge 3 ]; do
			sed -n "s/.*wq61_bench: mode=$mode run=\([0-9]*\) .*$3=\([0-9]*\).*/\1 \2/p" /tmp/bench.dmesg |
			while read -r run v; do row "$1" "$2" "$run" "$v"; done
			shift 3
		done
	}
	bench percpu "$items" "$runs" icount_queue_execute_percpu instructions/item ns_per_item
	bench unbound "$items" "$runs" icount_queue_execute_unbound instructions/item ns_per_item
	bench tick 100 "$runs" icount_tick_on_kworker instructions/tick ns_per_tick
	bench wake "$items" "$runs" icount_worker_wakeup instructions/round-trip ns_per_round
	# The CPU-bound loop (1 s per run): per ms of guest time, and per ms of
	# the CPU time its kworker got; a loss in the first that the second
	# does not show is CPU other tasks were given, not a slower loop.
	bench loop 1000 "$runs" icount_kworker_loop iters/ms iters_per_ms \
		icount_kworker_loop_per_cpu_ms iters/cpu-ms iters_per_cpu_ms
	echo "bench rows: $(wc -l < "$csv")"
	exit 0
fi

# 1. queue-and-execute cost of a trivial work item, per-cpu and unbound
for mode in percpu unbound; do
	barrier queue_$mode
	dmesg -C
	# Pin the issuer so per-cpu items queue on one known CPU.
	taskset -c 0 insmod "$WQ61_MODULES/wq61_bench.ko" mode=$mode items=$items runs=$runs ||
		{ echo "wq61_bench mode=$mode failed"; exit 1; }
	rmmod wq61_bench
	dmesg | sed -n 's/.*wq61_bench: mode=[a-z]* run=\([0-9]*\) items=[0-9]* ns_per_item=\([0-9]*\).*/\1 \2/p' |
	while read -r r v; do row queue_execute_$mode ns/item "$r" "$v"; done
done

# 2. throughput of a CPU-bound loop inside a per-cpu work item (the tick
#    hook runs on every tick there): 1 s per run
barrier loop
dmesg -C
insmod "$WQ61_MODULES/wq61_bench.ko" mode=loop items=1000 runs=5 || { echo "loop failed"; exit 1; }
rmmod wq61_bench
dmesg | sed -n 's/.*wq61_bench: mode=loop run=\([0-9]*\) ms=[0-9]* iters_per_ms=\([0-9]*\) iters_per_cpu_ms=\([0-9]*\).*/\1 \2 \3/p' |
while read -r r v c; do
	row kworker_loop_throughput iters/ms "$r" "$v"
	row kworker_loop_per_cpu_ms iters/cpu-ms "$r" "$c"
done

# 3. starvation latency: a 1 s spinner on CPU 1, a short item queued 2 ms
#    later on the same CPU and workqueue; the short item's wait
insmod "$WQ61_MODULES/wq61_hog.ko" || exit 1
barrier starve
for ((i = 0; i < rounds; i++)); do
	echo "starve 1 1000" > /sys/kernel/debug/wq61_hog/ctl || exit 1
	w=$(sed -n 's/^wait_us=\([0-9]*\) .*/\1/p' /sys/kernel/debug/wq61_hog/ctl)
	row starvation_wait us "$i" "$w"
done
rmmod wq61_hog
barrier done
echo "bench rows: $(wc -l < "$csv")"
