#!/bin/bash
# make bench-storm: the kworker storm of issue 24 (bench/storm-in-guest.sh,
# module wq61_storm) on baseline, patched and mainline, one guest at a time
# on preset big; bench/results/storm.{csv,md}.
#   WQ61_STORM_RUNS (default 2) runs of each configuration per boot.
. "$(dirname "$0")/common.sh"
read -r -a flavours <<< "${WQ61_BENCH_FLAVOURS:-baseline patched mainline}"
for f in "${flavours[@]}"; do
	check_flavour "$f"
	"$WQ61_TOP/scripts/build.sh" "$f"
	"$WQ61_TOP/scripts/build-modules.sh" "$f"
done
work=$WQ61_CACHE/bench-storm
rm -rf "$work"; mkdir -p "$work"
for f in "${flavours[@]}"; do
	log "kworker storm: $f (big)"
	rc=0
	"$WQ61_TOP/scripts/vm.py" -q -f "$f" -p big -t 2400 -r "$work/$f" \
		-- "$WQ61_TOP/bench/storm-in-guest.sh" > "$work/$f.log" 2>&1 || rc=$?
	[ $rc = 0 ] || { cat "$work/$f.log"; die "storm boot ($f) failed (rc $rc): $work/$f"; }
	cat "$work/$f/storm.csv" >> "$work/storm.csv"
done
series=$(git -C "$WQ61_TOP" describe --always --dirty 2>/dev/null)
python3 "$WQ61_TOP/bench/storm_report.py" "$work/storm.csv" "$WQ61_TOP/bench/results" \
	"${flavours[*]}" "preset big, one boot per flavour, one guest at a time; series $series"
log "bench-storm done: bench/results/storm.md"
