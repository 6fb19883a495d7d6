#!/bin/bash
for mode in percpu unbound; do
	dmesg -C
	insmod "$WQ61_MODULES/wq61_bench.ko" mode=$mode items=20000 runs=3 || { echo "bench $mode failed"; exit 1; }
	rmmod wq61_bench
	dmesg | grep -o "wq61_bench: mode=$mode run=[0-9]* items=[0-9]* ns_per_item=[0-9]*" | sed "s/^/ICOUNT /"
done
