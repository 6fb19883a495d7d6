#!/bin/bash
# make bench: build both flavours, boot them in pairs (side by side, or one
# after the other in ABBA order), same preset and command line, run
# bench/run-in-guest.sh in each, then write
# bench/results/{raw.csv,summary.json,results.md,*.png}.
#   WQ61_BENCH_MODE side (default) or alternate;
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
# side: both flavours booted at once, in step at every benchmark (default:
# the shared host's load then hits both alike); alternate: one after the
# other, ABBA.
mode=${WQ61_BENCH_MODE:-side}
how="booted one after the other, ABBA"; [ "$mode" = side ] && how="booted side by side, in step"
bench_boot() { # BOOT FLAVOUR [VM ARGS]: one guest running the benchmarks
	local b=$1 f=$2; shift 2
	"$WQ61_TOP/scripts/vm.py" -q -f "$f" -p "$preset" -r "$work/$b-$f" -e WQ61_BENCH_BOOT="$b" "$@" \
		-- "$WQ61_TOP/bench/run-in-guest.sh" > "$work/$b-$f.log" 2>&1
}
# in_step DIR1 DIR2 PID1 PID2: while both guests run, release both from a
# barrier (bench/run-in-guest.sh) once both have reached it.
in_step() {
	local f b
	while kill -0 "$3" 2>/dev/null && kill -0 "$4" 2>/dev/null; do
		for f in "$1"/at-*; do
			b=${f##*/at-}
			[ -e "$2/at-$b" ] && [ ! -e "$1/go-$b" ] && touch "$1/go-$b" "$2/go-$b"
		done
		sleep 0.2
	done
}
boot=0
for ((p = 0; p < pairs; p++)); do
	if [ "$mode" = side ]; then
		log "bench pair $((p + 1))/$pairs: baseline and patched side by side"
		# One boots while the other waits at its first barrier: two TCG
		# guests booting at once stall in early boot far more often (the
		# RCU-tasks self-test stall, see README).
		bench_boot $boot baseline -e WQ61_BENCH_SYNC=1 & pb=$!
		until [ -e "$work/$boot-baseline/at-queue_percpu" ] || ! kill -0 $pb 2>/dev/null; do sleep 0.5; done
		bench_boot $((boot + 1)) patched -e WQ61_BENCH_SYNC=1 & pp=$!
		in_step "$work/$boot-baseline" "$work/$((boot + 1))-patched" $pb $pp
		rb=0 rp=0; wait $pb || rb=$?; wait $pp || rp=$?
		[ $rb = 0 ] || { cat "$work/$boot-baseline.log"; die "bench boot $boot (baseline) failed (rc $rb)"; }
		[ $rp = 0 ] || { cat "$work/$((boot + 1))-patched.log"; die "bench boot $((boot + 1)) (patched) failed (rc $rp)"; }
		boot=$((boot + 2))
		continue
	fi
	# ABBA: the flavour that boots first alternates between pairs, so a
	# drift in the shared host's load does not favour one flavour.
	order="baseline patched"; [ $((p % 2)) = 1 ] && order="patched baseline"
	for f in $order; do
		log "bench boot $boot: $f ($((p + 1))/$pairs)"
		rc=0; bench_boot $boot $f || rc=$?
		[ $rc = 0 ] || { cat "$work/$boot-$f.log"; die "bench boot $boot ($f) failed (rc $rc)"; }
		boot=$((boot + 1))
	done
done
# Instruction counts: one vCPU under -icount (preset bench1), where the
# guest's clock counts retired instructions. Host load cannot move these,
# so the pair's two guests simply run at the same time.
icount_boots=${WQ61_BENCH_ICOUNT_BOOTS:-3}
for ((k = 0; k < icount_boots; k++)); do
	log "instruction counts $((k + 1))/$icount_boots: baseline and patched (bench1, -icount)"
	for f in baseline patched; do
		b=$((2 * k)); [ $f = patched ] && b=$((b + 1))
		"$WQ61_TOP/scripts/vm.py" -q -f $f -p bench1 -t 1800 -r "$work/icount-$b-$f" \
			-e WQ61_BENCH_BOOT=$b -e WQ61_BENCH_KIND=icount -- "$WQ61_TOP/bench/run-in-guest.sh" \
			> "$work/icount-$b-$f.log" 2>&1 &
	done
	wait || true
	for f in "$work"/icount-*-*/; do
		[ "$(cat "$f/verdict" 2>/dev/null)" = passed ] ||
			{ cat "${f%/}.log"; die "icount bench boot ${f##*/icount-} failed: $(cat "$f/verdict" 2>/dev/null)"; }
	done
done
cat "$work"/*/bench.csv > "$work/raw.csv"
python3 "$WQ61_TOP/bench/report.py" "$work/raw.csv" "$WQ61_TOP/bench/results" \
	"wall clock: preset $preset, $pairs pairs ($how); instruction counts: preset bench1, $icount_boots boots per flavour; series $(git -C "$WQ61_TOP" describe --always --dirty 2>/dev/null)"
log "bench done: bench/results/results.md"
