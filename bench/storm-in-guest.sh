#!/bin/bash
# Runs inside one guest boot (preset big): the kworker storm of issue 24
# (module wq61_storm), rows appended to $WQ61_RESULTS/storm.csv as
# "config,metric,flavour,run,value". Configurations "NCPUS ITEMS HOLD_US":
# every CPU with a backlog of 16 items, and 4 CPUs with 32, each item
# taking the shared lock 20 times for HOLD_US. Metrics: the module's
# peak_running, peak_cpu, workers, drain_ms, probe_wait_ms; kworkers_new,
# the kworker threads that exist after the storm and did not before (a
# pool keeps idle workers for a while, so this is what the storm created).
set -u
. "$WQ61_TOP/tests/guest/lib.sh"
csv=$WQ61_RESULTS/storm.csv
runs=${WQ61_STORM_RUNS:-2}
ncpu=$(nproc)
insmod "$(mod wq61_storm)" || fail "cannot load wq61_storm"
kworkers() { ps -eo pid=,comm= | awk '$2 ~ /^kworker\// { print $1 }' | sort; }
for cfg in "$ncpu 16 100" "4 32 100"; do
	for ((r = 0; r < runs; r++)); do
		kworkers > /tmp/kw.before
		echo "storm $cfg" > /sys/kernel/debug/wq61_storm/ctl || fail "storm $cfg refused"
		res=$(cat /sys/kernel/debug/wq61_storm/ctl)
		new=$(kworkers | comm -13 /tmp/kw.before - | wc -l)
		echo "storm $cfg: $res kworkers_new=$new"
		for m in peak_running peak_cpu workers drain_ms probe_wait_ms; do
			v=$(field $m "$res")
			[ -n "$v" ] || fail "no $m in '$res'"
			echo "${cfg// /:},$m,$WQ61_FLAVOUR,$r,$v" >> "$csv"
		done
		echo "${cfg// /:},kworkers_new,$WQ61_FLAVOUR,$r,$new" >> "$csv"
	done
done
