#!/bin/bash
# make bench: build both flavours, boot them alternately (ABBA...), same
# preset and command line, run bench/run-in-guest.sh in each, then write
# bench/results/{raw.csv,summary.json,results.md,*.png}.
#   WQ61_BENCH_PAIRS (default 4) baseline/patched pairs of boots;
#   WQ61_BENCH_PRESET (default small: 4 vCPUs on 2 host cores is less noisy
#   under TCG than 16; the starvation and loop benchmarks use CPU 1).
. "$(dirname "$0")/common.sh"
pairs=${WQ61_BENCH_PAIRS:-4}
preset=${WQ61_BENCH_PRESET:-small}
for f in baseline patched; do
	"$WQ61_TOP/scripts/build.sh" $f
	"$WQ61_TOP/scripts/build-modules.sh" $f
done
work=$WQ61_CACHE/bench
rm -rf "$work"; mkdir -p "$work"
boot=0
for ((p = 0; p < pairs; p++)); do
	# ABBA: the flavour that boots first alternates between pairs, so a
	# drift in the shared host's load does not favour one flavour.
	order="baseline patched"; [ $((p % 2)) = 1 ] && order="patched baseline"
	for f in $order; do
		dir=$work/$boot-$f
		log "bench boot $boot: $f ($((p + 1))/$pairs)"
		rc=0	# (vm.sh boots a guest lost while booting again)
		"$WQ61_TOP/scripts/vm.sh" -q -f $f -p "$preset" -r "$dir" -e WQ61_BENCH_BOOT=$boot \
			-- "$WQ61_TOP/bench/run-in-guest.sh" || rc=$?
		[ $rc = 0 ] || die "bench boot $boot ($f) failed (rc $rc): $dir"
		boot=$((boot + 1))
	done
done
cat "$work"/*/bench.csv > "$work/raw.csv"
python3 "$WQ61_TOP/bench/report.py" "$work/raw.csv" "$WQ61_TOP/bench/results" \
	"preset $preset, $pairs pairs booted ABBA, $(git -C "$WQ61_TOP" describe --always --dirty 2>/dev/null)"
log "bench done: bench/results/results.md"
