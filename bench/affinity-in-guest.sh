#!/bin/bash
# Runs inside one guest boot of the big preset (smt pairs, L3 of 4, nodes
# of 8): the affinity-scope benchmark, rows appended to
# $WQ61_RESULTS/affinity.csv as "config,metric,flavour,boot,run,value".
# Configurations: "stock" where the kernel has no affinity scopes (6.1);
# otherwise system, numa, cache, cache strict, cpu strict and, where the
# kernel has localize (wq61), cache + localize. All on the unbound
# workqueue wq61_affn of module wq61_affinity.
#
# Per configuration:
#   l3_local, on_cpu   % of items starting in the issuer's L3 / on its CPU:
#                      200 items (100 us each) queued at once from kthreads
#                      bound to CPUs 0, 5, 10, 15 in turn; one row per issuer
#   l3_local_serial, on_cpu_serial
#                      the same with 50 items queued one at a time, each
#                      after the previous one ended (startw): every item
#                      finds idle workers, as localize wants
#   l3_out, l3_out_busy
#                      items started outside the issuer's L3, and how many
#                      of them by a worker that went on from its previous
#                      item without sleeping (not woken, so not repatriated)
#   lat_p50, lat_p99   queue-to-start latency of those items (us)
#   repatriated        PWQ_STAT_REPATRIATED over the whole configuration
#                      (wq_monitor.py; 0 where the kernel has none)
#   one_cpus, one_ms   64 CPU-bound items (5 ms each) from CPU 0: distinct
#                      CPUs they started on, and ms from first queueing to
#                      last end
#   all_ms             8 such items from every CPU at once: ms
set -u
. "$WQ61_TOP/tests/guest/lib.sh"
csv=$WQ61_RESULTS/affinity.csv
boot=${WQ61_BENCH_BOOT:-0}
row() { echo "$1,$2,$WQ61_FLAVOUR,$boot,$3,$4" >> "$csv"; }
affn_load
wq=$WQ_SYSFS/wq61_affn
SYS=/sys/devices/system/cpu
ISSUERS="0 5 10 15"

repatriated() {
	[ -e "$wq/affinity_scope" ] || { echo 0; return; }
	wq_stat wq61_affn repatriated || echo 0
}

locality() { # CONFIG ISSUER RUN RESULT SUFFIX: rows of where items started
	local k=$2 r=$4 hist busy l3 h b c n in_l3=0 out=0 out_busy=0
	hist=$(field hist "$r")
	busy=$(field busy_hist "$r")
	n=$(field items "$r")
	[ -n "$hist" ] && [ -n "$n" ] || fail "no histogram from wq61_affinity: '$r'"
	l3=" $(cpus_of "$(cat $SYS/cpu$k/cache/index3/shared_cpu_list)" | tr '\n' ' ')"
	IFS=, read -ra h <<< "$hist"
	IFS=, read -ra b <<< "$busy"
	for c in "${!h[@]}"; do
		case "$l3 " in
		*" $c "*) in_l3=$((in_l3 + h[c]));;
		*) out=$((out + h[c])) out_busy=$((out_busy + ${b[c]:-0}));;
		esac
	done
	row "$1" "l3_local$5" "$3" "$((in_l3 * 100 / n))"
	# of the items started outside the L3, how many by a busy worker
	row "$1" "l3_out$5" "$3" "$out"
	row "$1" "l3_out_busy$5" "$3" "$out_busy"
	row "$1" "on_cpu$5" "$3" "$((h[k] * 100 / n))"
}

measure() { # CONFIG
	local cfg=$1 k r i before after
	before=$(repatriated)
	i=0
	for k in $ISSUERS; do
		r=$(affn start "$k" 200 100)
		locality "$cfg" "$k" $i "$r" ""
		row "$cfg" lat_p50 $i "$(field lat_p50_us "$r")"
		row "$cfg" lat_p99 $i "$(field lat_p99_us "$r")"
		r=$(affn startw "$k" 50 100)
		locality "$cfg" "$k" $i "$r" _serial
		i=$((i + 1))
	done
	after=$(repatriated)
	row "$cfg" repatriated 0 "$((after - before))"
	for i in 0 1 2; do
		r=$(affn start 0 64 5000)
		row "$cfg" one_cpus $i "$(field cpus "$r")"
		row "$cfg" one_ms $i "$(field ms "$r")"
		r=$(affn startall 8 5000)
		row "$cfg" all_ms $i "$(field ms "$r")"
	done
	echo "affinity bench: $cfg done"
}

if [ ! -e "$wq/affinity_scope" ]; then
	measure stock
else
	trap 'echo default > $wq/affinity_scope; echo 0 > $wq/affinity_strict; [ -e $wq/localize ] && echo 0 > $wq/localize' EXIT
	for cfg in system numa cache cache_strict cpu_strict cache_localize; do
		scope=${cfg%%_*} strict=0 loc=0
		case $cfg in *_strict) strict=1;; *_localize) loc=1;; esac
		if [ $loc = 1 ] && [ ! -e "$wq/localize" ]; then
			continue
		fi
		set_attr "$wq/affinity_scope" "$scope"
		set_attr "$wq/affinity_strict" $strict
		[ -e "$wq/localize" ] && set_attr "$wq/localize" $loc
		measure "$cfg"
	done
fi
echo "affinity rows: $(wc -l < "$csv")"
