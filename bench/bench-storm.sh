#!/bin/bash
# make bench-storm: the kworker storm of issue 24 (bench/storm-in-guest.sh,
# module wq61_storm) on baseline, patched and mainline, one guest at a time
# on preset big; bench/results/storm.{csv,md}. On patched and mainline
# every run is repeated with the detection off, as a control in the same
# boot ("patched-off", "mainline-off").
#   WQ61_STORM_BOOTS (default 3) boots per flavour, the order rotating
#   (0: nothing run, the last report kept);
#   WQ61_STORM_RUNS (default 2) runs of each configuration per boot.
. "$(dirname "$0")/../scripts/common.sh"
boots=${WQ61_STORM_BOOTS:-3}
[ "$boots" != 0 ] || { log "bench-storm: WQ61_STORM_BOOTS=0, bench/results/storm.md kept"; exit 0; }
read -r -a flavours <<< "${WQ61_BENCH_FLAVOURS:-baseline patched mainline}"
for f in "${flavours[@]}"; do
	check_flavour "$f"
	"$WQ61_TOP/scripts/build/build.sh" "$f"
	"$WQ61_TOP/scripts/build/build-modules.sh" "$f"
done
work=$WQ61_CACHE/bench-storm
rm -rf "$work"; mkdir -p "$work"
nf=${#flavours[@]}
for ((k = 0; k < boots; k++)); do
	for ((j = 0; j < nf; j++)); do
		f=${flavours[(j + k) % nf]} d=$work/$k-$f
		log "kworker storm $((k + 1))/$boots: $f (big)"
		rc=0
		"$WQ61_TOP/scripts/guest/vm.py" -q -f "$f" -p big -t 2400 -r "$d" \
			-- "$WQ61_TOP/bench/storm-in-guest.sh" > "$d.log" 2>&1 || rc=$?
		[ $rc = 0 ] || { cat "$d.log"; die "storm boot ($f) failed (rc $rc): $d"; }
		# runs numbered BOOT.RUN, so that report pairs a run with its control
		awk -F, -v k="$k" 'BEGIN { OFS = "," } { $4 = k "." $4; print }' \
			"$d/storm.csv" >> "$work/storm.csv"
	done
done
columns=()
for f in "${flavours[@]}"; do
	columns+=("$f")
	case $f in patched|mainline) columns+=("$f-off");; esac
done
series=$(git -C "$WQ61_TOP" describe --always --dirty 2>/dev/null)
python3 "$WQ61_TOP/bench/storm_report.py" "$work/storm.csv" "$WQ61_TOP/bench/results" \
	"${columns[*]}" "preset big, $boots boots per flavour (order rotating), one guest at a time; series $series"
log "bench-storm done: bench/results/storm.md"
