#!/bin/bash
# make bench-locality: issue 25 section 3, non-strict cache locality run
# after run (bench/locality-in-guest.sh, preset big) on baseline, patched
# and mainline, on an idle host and on a loaded one, one guest at a time;
# bench/results/locality.{csv,json,md}.
#   loaded: one process per host CPU spinning at the guest's priority for
#   the whole boot (the guest's vCPUs get about half of the host);
#   WQ61_LOC_BOOTS (default 1) boots per flavour and condition, the order
#   rotating (0: nothing run, the last report kept);
#   WQ61_LOC_RUNS (default 5) runs per boot.
. "$(dirname "$0")/../scripts/common.sh"
boots=${WQ61_LOC_BOOTS:-1}
runs=${WQ61_LOC_RUNS:-5}
[ "$boots" != 0 ] || { log "bench-locality: WQ61_LOC_BOOTS=0, bench/results/locality.md kept"; exit 0; }
read -r -a flavours <<< "${WQ61_BENCH_FLAVOURS:-baseline patched mainline}"
for f in "${flavours[@]}"; do
	check_flavour "$f"
	"$WQ61_TOP/scripts/build/build.sh" "$f"
	"$WQ61_TOP/scripts/build/build-modules.sh" "$f"
done
work=$WQ61_CACHE/bench-locality
rm -rf "$work"; mkdir -p "$work"
: > "$work/locality.csv"
spinners=()
stop_load() {
	[ ${#spinners[@]} -eq 0 ] && return
	kill "${spinners[@]}" 2>/dev/null || true
	# (they die of the signal: wait reports 143, not an error here)
	wait "${spinners[@]}" 2>/dev/null || true
	spinners=()
}
trap stop_load EXIT
nf=${#flavours[@]}
for cond in idle loaded; do
	for ((k = 0; k < boots; k++)); do
		for ((j = 0; j < nf; j++)); do
			f=${flavours[(j + k) % nf]} d=$work/$cond-$k-$f
			log "locality $cond $((k + 1))/$boots: $f (big, $runs runs)"
			if [ "$cond" = loaded ]; then
				for ((c = 0; c < $(nproc); c++)); do
					sh -c 'while :; do :; done' & spinners+=($!)
				done
			fi
			rc=0
			WQ61_LOC_CONDITION=$cond WQ61_LOC_RUNS=$runs \
				"$WQ61_TOP/scripts/guest/vm.py" -q -f "$f" -p big -t 2400 -r "$d" \
				-- "$WQ61_TOP/bench/locality-in-guest.sh" > "$d.log" 2>&1 || rc=$?
			stop_load
			[ $rc = 0 ] || { cat "$d.log"; die "locality boot ($f, $cond) failed (rc $rc): $d"; }
			# runs numbered BOOT.RUN
			awk -F, -v k="$k" 'BEGIN { OFS = "," } { $4 = k "." $4; print }' \
				"$d/locality.csv" >> "$work/locality.csv"
		done
	done
done
series=$(git -C "$WQ61_TOP" describe --always --dirty 2>/dev/null)
python3 "$WQ61_TOP/bench/locality_report.py" "$work/locality.csv" "$WQ61_TOP/bench/results" \
	"${flavours[*]}" "preset big, $boots boot(s) per flavour and condition (order rotating), $runs runs per boot, one guest at a time; loaded: $(nproc) host processes spinning beside the guest; series $series"
log "bench-locality done: bench/results/locality.md"
