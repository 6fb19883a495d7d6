#!/bin/bash
# make bench: build the flavours, boot them in sets (side by side, or one
# after the other in rotating order), same preset and command line, run
# bench/run-in-guest.sh in each, then write
# bench/results/{raw.csv,summary.json,results.md,*.png}; then the affinity
# scopes benchmark (bench/affinity-in-guest.sh, preset big) into
# bench/results/affinity.{md,json,csv} and plot-affinity.png; then the
# kworker storm (bench/bench-storm.sh) into bench/results/storm.md; then
# dm-crypt reads on vm16 (bench/bench-crypt.sh) into bench/results/crypt.md
# and locality run after run (bench/bench-locality.sh) into locality.md.
#   WQ61_BENCH_MODE side or alternate (default: side for two flavours,
#   alternate for more);
#   WQ61_BENCH_PAIRS (default 4) sets of boots, one per flavour;
#   WQ61_BENCH_FLAVOURS (default "baseline patched mainline");
#   WQ61_BENCH_PRESET (default small: 4 vCPUs on 2 host cores is less noisy
#   under TCG than 16; the starvation and loop benchmarks use CPU 1);
#   WQ61_STORM_BOOTS, WQ61_STORM_RUNS: see bench/bench-storm.sh.
. "$(dirname "$0")/../scripts/common.sh"
pairs=${WQ61_BENCH_PAIRS:-4}
preset=${WQ61_BENCH_PRESET:-small}
# The flavours side by side: stock 6.1, wq61 and, as the reference the
# series is measured against, mainline 6.12 (WQ61_BENCH_FLAVOURS to change).
read -r -a flavours <<< "${WQ61_BENCH_FLAVOURS:-baseline patched mainline}"
nf=${#flavours[@]}
[ "$nf" -ge 2 ] || die "WQ61_BENCH_FLAVOURS: want at least two flavours"
for f in "${flavours[@]}"; do
	check_flavour "$f"
	"$WQ61_TOP/scripts/build/build.sh" "$f"
	"$WQ61_TOP/scripts/build/build-modules.sh" "$f"
done
work=$WQ61_CACHE/bench
rm -rf "$work"; mkdir -p "$work"
# Boot numbers: set k of the flavours is boots nf*k .. nf*k+nf-1, in the
# order of $flavours (bench/report.py pairs them up the same way).
# side: a set's guests run at once, in step at every benchmark (default: the
# shared host's load then hits all alike); alternate: one after the other,
# the order rotating between sets.
# Three guests of 4 vCPUs side by side on a 2-core host lose ticks (the
# starvation benchmark's p99 went from 17 to 135 ms), so with more than two
# flavours the default is one after the other.
dflmode=side; [ "$nf" -gt 2 ] && dflmode=alternate
mode=${WQ61_BENCH_MODE:-$dflmode}
how="booted one after the other, order rotating"; [ "$mode" = side ] && how="booted side by side, in step"
bench_boot() { # BOOT FLAVOUR [VM ARGS]: one guest running the benchmarks
	local b=$1 f=$2; shift 2
	"$WQ61_TOP/scripts/guest/vm.py" -q -f "$f" -p "$preset" -r "$work/$b-$f" -e WQ61_BENCH_BOOT="$b" "$@" \
		-- "$WQ61_TOP/bench/run-in-guest.sh" > "$work/$b-$f.log" 2>&1
}
# in_step PIDS DIRS...: while all guests run, release them from a barrier
# (bench/run-in-guest.sh) once every one has reached it.
in_step() {
	local pids=$1 d b f p all; shift
	while true; do
		for p in $pids; do kill -0 "$p" 2>/dev/null || return 0; done
		for f in "$1"/at-*; do
			[ -e "$f" ] || continue
			b=${f##*/at-} all=1
			for d in "$@"; do [ -e "$d/at-$b" ] || all=0; done
			if [ $all = 1 ] && [ ! -e "$1/go-$b" ]; then
				for d in "$@"; do touch "$d/go-$b"; done
			fi
		done
		sleep 0.2
	done
}
for ((p = 0; p < pairs; p++)); do
	if [ "$mode" = side ]; then
		log "bench set $((p + 1))/$pairs: ${flavours[*]} side by side"
		pids="" dirs=()
		for ((i = 0; i < nf; i++)); do
			b=$((nf * p + i)) f=${flavours[i]}
			bench_boot $b "$f" -e WQ61_BENCH_SYNC=1 & pid=$!
			pids="$pids $pid" dirs+=("$work/$b-$f")
			# One boots while the others wait at their first barrier:
			# TCG guests booting at once are slow to come up.
			until [ -e "$work/$b-$f/at-queue_percpu" ] || ! kill -0 $pid 2>/dev/null; do sleep 0.5; done
		done
		in_step "$pids" "${dirs[@]}"
		i=0
		for pid in $pids; do
			b=$((nf * p + i)) f=${flavours[i]}; i=$((i + 1))
			rc=0; wait "$pid" || rc=$?
			[ $rc = 0 ] || { cat "$work/$b-$f.log"; die "bench boot $b ($f) failed (rc $rc)"; }
		done
		continue
	fi
	# The flavour that boots first rotates between sets, so that a drift
	# in the shared host's load does not favour one flavour.
	for ((j = 0; j < nf; j++)); do
		i=$(( (j + p) % nf ))
		b=$((nf * p + i)) f=${flavours[i]}
		log "bench boot $b: $f ($((p + 1))/$pairs)"
		rc=0; bench_boot $b "$f" || rc=$?
		[ $rc = 0 ] || { cat "$work/$b-$f.log"; die "bench boot $b ($f) failed (rc $rc)"; }
	done
done
# Instruction counts: one vCPU under -icount (preset bench1), where the
# guest's clock counts retired instructions. Host load cannot move these,
# so a set's guests simply run at the same time.
icount_boots=${WQ61_BENCH_ICOUNT_BOOTS:-3}
for ((k = 0; k < icount_boots; k++)); do
	log "instruction counts $((k + 1))/$icount_boots: ${flavours[*]} (bench1, -icount)"
	for ((i = 0; i < nf; i++)); do
		b=$((nf * k + i)) f=${flavours[i]}
		"$WQ61_TOP/scripts/guest/vm.py" -q -f "$f" -p bench1 -t 1800 -r "$work/icount-$b-$f" \
			-e WQ61_BENCH_BOOT=$b -e WQ61_BENCH_KIND=icount -- "$WQ61_TOP/bench/run-in-guest.sh" \
			> "$work/icount-$b-$f.log" 2>&1 &
	done
	wait || true
	for f in "$work"/icount-*-*/; do
		[ "$(cat "$f/verdict" 2>/dev/null)" = passed ] ||
			{ cat "${f%/}.log"; die "icount bench boot ${f##*/icount-} failed: $(cat "$f/verdict" 2>/dev/null)"; }
	done
done
# Affinity scopes: where unbound items start, per configuration, on the big
# preset (its SMT, L3 and NUMA pods all differ); one guest at a time, as 16
# vCPUs already share the host's 2 cores.
affinity_boots=${WQ61_BENCH_AFFINITY_BOOTS:-1}
for ((k = 0; k < affinity_boots; k++)); do
	for ((j = 0; j < nf; j++)); do
		i=$(( (j + k) % nf ))
		b=$((nf * k + i)) f=${flavours[i]}
		log "affinity scopes $((k + 1))/$affinity_boots: $f (big)"
		rc=0
		"$WQ61_TOP/scripts/guest/vm.py" -q -f "$f" -p big -t 2400 -r "$work/affinity-$b-$f" \
			-e WQ61_BENCH_BOOT=$b -- "$WQ61_TOP/bench/affinity-in-guest.sh" \
			> "$work/affinity-$b-$f.log" 2>&1 || rc=$?
		[ $rc = 0 ] || { cat "$work/affinity-$b-$f.log"; die "affinity bench boot $b ($f) failed (rc $rc)"; }
	done
done
# A part run 0 times (WQ61_BENCH_PAIRS=0 ...) keeps its previous report.
series=$(git -C "$WQ61_TOP" describe --always --dirty 2>/dev/null)
cat "$work"/affinity-*/affinity.csv > "$work/affinity.csv" 2>/dev/null || true
[ -s "$work/affinity.csv" ] &&
	python3 "$WQ61_TOP/bench/affinity_report.py" "$work/affinity.csv" "$WQ61_TOP/bench/results" \
		"${flavours[*]}" "preset big, $affinity_boots boot(s) per flavour, one guest at a time; series $series"
cat "$work"/[0-9]*/bench.csv "$work"/icount-*/bench.csv > "$work/raw.csv" 2>/dev/null || true
[ -s "$work/raw.csv" ] &&
	python3 "$WQ61_TOP/bench/report.py" "$work/raw.csv" "$WQ61_TOP/bench/results" \
		"${flavours[*]}" "wall clock: preset $preset, $pairs sets ($how); instruction counts: preset bench1, $icount_boots boots per flavour; series $series"
# The kworker storm (issue 24) with the same flavours (WQ61_STORM_BOOTS=0
# skips it and keeps its last report).
WQ61_BENCH_FLAVOURS="${flavours[*]}" "$WQ61_TOP/bench/bench-storm.sh"
# dm-crypt reads on vm16 (issue 25 section 2; WQ61_CRYPT_BOOTS=0 skips)
# and locality run after run, idle and loaded (section 3; WQ61_LOC_BOOTS=0).
WQ61_BENCH_FLAVOURS="${flavours[*]}" "$WQ61_TOP/bench/bench-crypt.sh"
WQ61_BENCH_FLAVOURS="${flavours[*]}" "$WQ61_TOP/bench/bench-locality.sh"
log "bench done: bench/results/{results,affinity,storm,crypt,locality}.md"
