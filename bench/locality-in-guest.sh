#!/bin/bash
# Runs inside one guest boot of preset big (L3s of 4 CPUs): issue 25
# section 3, whether non-strict cache keeps unbound work items in the
# issuer's L3 run after run, not in one good run. Each run: 200 items of
# 100 us queued at once on wq61_affn from a kthread on CPU 0, 5, 10 and 15
# in turn, as the affinity bench's "in issuer's L3" (tests/guest/lib.sh's
# affn_starts). wq61_affn is set to non-strict cache where the kernel has
# scopes; stock 6.1 has its NUMA-node pools. Rows
# "condition,metric,flavour,run,value" appended to
# $WQ61_RESULTS/locality.csv, condition WQ61_LOC_CONDITION (idle, loaded):
#   l3_local  % of the run's items that started in the issuer's L3
#   out       items that started outside it
#   out_busy  of those, by a worker that went on from its previous item
#             without sleeping (not woken for it: never repatriated)
#   out_free  of those, while a CPU of the L3 ran none of the run's items
#             and no issuer, for an item's length before and after: not
#             forced by a saturated L3
#   WQ61_LOC_RUNS (default 5) runs.
set -u
. "$WQ61_TOP/tests/guest/lib.sh"
csv=$WQ61_RESULTS/locality.csv
runs=${WQ61_LOC_RUNS:-5}
cond=${WQ61_LOC_CONDITION:-idle}
affn_load
wq=$WQ_SYSFS/wq61_affn
make_tmp
sysfs_pods "$tmp/pods"
if [ -e $wq/affinity_scope ]; then
	keep $wq/affinity_scope $wq/affinity_strict
	set_attr $wq/affinity_scope cache
	set_attr $wq/affinity_strict 0
fi
row() { echo "$cond,$1,$WQ61_FLAVOUR,$r,$2" >> "$csv"; }
for ((r = 0; r < runs; r++)); do
	affn_starts "run $r" "pod_of cache" "0 5 10 15" 200 100
	note "run $r: $IN of $TOTAL ($PCT%) in the issuer's L3; outside: $((TOTAL - IN)), by busy workers $OUT_BUSY, while the L3 had a free CPU $OUT_FREE"
	row l3_local "$(awk -v a="$IN" -v t="$TOTAL" 'BEGIN { printf "%.1f", 100 * a / t }')"
	row out $((TOTAL - IN))
	row out_busy "$OUT_BUSY"
	row out_free "$OUT_FREE"
done
