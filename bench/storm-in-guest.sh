#!/bin/bash
# Runs inside one guest boot (preset big): the kworker storm of issue 24
# (module wq61_storm), rows appended to $WQ61_RESULTS/storm.csv as
# "config,metric,flavour,run,value". Configurations "NCPUS ITEMS HOLD_US":
# every CPU with a backlog of 16 items, and 4 CPUs with 32, each item
# taking the shared lock 20 times for HOLD_US. Metrics: the module's
# peak_running, peak_cpu, workers, drain_ms, first_drained_ms, item_us,
# probe_wait_ms; kworkers_new, the kworker threads that exist after the
# storm and did not before (a pool keeps idle workers for a while, so this
# is what the storm created).
set -u
. "$WQ61_TOP/tests/guest/lib.sh"
csv=$WQ61_RESULTS/storm.csv
runs=${WQ61_STORM_RUNS:-2}
ncpu=$(nproc)
insmod "$(mod wq61_storm)" || fail "cannot load wq61_storm"
kworkers() { ps -eo pid=,comm= | awk '$2 ~ /^kworker\// { print $1 }' | sort; }
# storm CFG LABEL RUN: one run, its metrics recorded under flavour LABEL
storm() {
	local cfg=$1 label=$2 r=$3 res new m v
	kworkers > /tmp/kw.before
	echo "storm $cfg" > /sys/kernel/debug/wq61_storm/ctl || fail "storm $cfg refused"
	res=$(cat /sys/kernel/debug/wq61_storm/ctl)
	new=$(kworkers | comm -13 /tmp/kw.before - | wc -l)
	echo "storm $cfg ($label): $res kworkers_new=$new"
	for m in peak_running peak_cpu workers drain_ms first_drained_ms item_us probe_wait_ms; do
		v=$(field $m "$res")
		[ -n "$v" ] || fail "no $m in '$res'"
		echo "${cfg// /:},$m,$label,$r,$v" >> "$csv"
	done
	echo "${cfg// /:},kworkers_new,$label,$r,$new" >> "$csv"
}
# On wq61 and mainline, each run is repeated with the detection off
# (threshold 0 there, which leaves per-cpu work under 6.1's concurrency
# management): a control in the same boot, as boots of a 16-vCPU TCG guest
# on 2 host cores differ more from each other than the kernels do.
thresh=/sys/module/workqueue/parameters/cpu_intensive_thresh_us
storm_off() { # CFG RUN: the run with the detection off
	local dfl
	dfl=$(cat $thresh)
	echo 0 > $thresh || fail "cannot turn the detection off"
	storm "$1" "$WQ61_FLAVOUR-off" "$2"
	echo "$dfl" > $thresh || fail "cannot restore $thresh"
}
control=0
case $WQ61_FLAVOUR in patched|mainline) control=1;; esac
for cfg in "$ncpu 16 100" "4 32 100"; do
	for ((r = 0; r < runs; r++)); do
		# the two alternate which goes first
		if [ $control = 1 ] && [ $((r % 2)) = 1 ]; then storm_off "$cfg" "$r"; fi
		storm "$cfg" "$WQ61_FLAVOUR" "$r"
		if [ $control = 1 ] && [ $((r % 2)) = 0 ]; then storm_off "$cfg" "$r"; fi
	done
done
