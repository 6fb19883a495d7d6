#!/bin/bash
# Runs inside one guest boot: every benchmark, raw rows appended to
# $WQ61_RESULTS/bench.csv as "benchmark,unit,flavour,boot,run,value".
set -u
csv=$WQ61_RESULTS/bench.csv
boot=${WQ61_BENCH_BOOT:-0}
items=${WQ61_BENCH_ITEMS:-20000}
runs=${WQ61_BENCH_RUNS:-7}

# queue-and-execute cost of a trivial work item, per-cpu and unbound
for mode in percpu unbound; do
	dmesg -C
	# Pin the issuer so per-cpu items queue on one known CPU.
	if ! taskset -c 0 insmod "$WQ61_MODULES/wq61_bench.ko" mode=$mode items=$items runs=$runs; then
		echo "wq61_bench mode=$mode failed"; exit 1
	fi
	rmmod wq61_bench
	dmesg | sed -n 's/.*wq61_bench: mode=\([a-z]*\) run=\([0-9]*\) items=[0-9]* ns_per_item=\([0-9]*\).*/\1 \2 \3/p' |
	while read -r m r v; do
		echo "queue_execute_$m,ns/item,$WQ61_FLAVOUR,$boot,$r,$v" >> "$csv"
	done
done
echo "bench rows: $(wc -l < "$csv")"
