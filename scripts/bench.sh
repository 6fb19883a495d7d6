#!/bin/bash
# make bench: build both flavours, boot them alternately (ABAB...), same
# preset and command line, run bench/run-in-guest.sh in each, then write
# bench/results/{raw.csv,summary.json,results.md,*.png}.
#   WQ61_BENCH_PAIRS (default 2) baseline/patched pairs of boots.
. "$(dirname "$0")/common.sh"
pairs=${WQ61_BENCH_PAIRS:-2}
preset=${WQ61_BENCH_PRESET:-big}
for f in baseline patched; do
	"$WQ61_TOP/scripts/build.sh" $f
	"$WQ61_TOP/scripts/build-modules.sh" $f
done
work=$WQ61_CACHE/bench
rm -rf "$work"; mkdir -p "$work"
boot=0
for ((p = 0; p < pairs; p++)); do
	for f in baseline patched; do
		dir=$work/$boot-$f
		log "bench boot $boot: $f ($((p + 1))/$pairs)"
		"$WQ61_TOP/scripts/vm.sh" -q -f $f -p "$preset" -r "$dir" -e WQ61_BENCH_BOOT=$boot \
			-- "$WQ61_TOP/bench/run-in-guest.sh" || die "bench boot $boot ($f) failed: $dir"
		boot=$((boot + 1))
	done
done
cat "$work"/*/bench.csv > "$work/raw.csv"
python3 "$WQ61_TOP/bench/report.py" "$work/raw.csv" "$WQ61_TOP/bench/results" \
	"preset $preset, $pairs ABAB pairs, $(git -C "$WQ61_TOP" describe --always --dirty 2>/dev/null)"
log "bench done: bench/results/results.md"
