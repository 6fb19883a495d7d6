#!/bin/bash
# make bench-crypt: dm-crypt reads with fio (bench/crypt-in-guest.sh) in a
# guest whose every vCPU is a socket of its own (preset vm16, issue 25
# section 2), on baseline, patched and mainline, one guest at a time;
# bench/results/crypt.{csv,md}. Where patched is one of them, it is booted
# once more with workqueue.default_affinity_scope=cache ("patched-cache"):
# the same kernel without its widened default, as mainline has it.
#   WQ61_CRYPT_BOOTS (default 2) boots per flavour, the order rotating
#   (0: nothing run, the last report kept);
#   WQ61_CRYPT_RUNS, WQ61_CRYPT_SECONDS: see bench/crypt-in-guest.sh.
. "$(dirname "$0")/../scripts/common.sh"
boots=${WQ61_CRYPT_BOOTS:-2}
[ "$boots" != 0 ] || { log "bench-crypt: WQ61_CRYPT_BOOTS=0, bench/results/crypt.md kept"; exit 0; }
"$WQ61_TOP/scripts/build/deps.sh" bench
read -r -a flavours <<< "${WQ61_BENCH_FLAVOURS:-baseline patched mainline}"
for f in "${flavours[@]}"; do
	check_flavour "$f"
	"$WQ61_TOP/scripts/build/build.sh" "$f"
	"$WQ61_TOP/scripts/build/build-modules.sh" "$f"
done
work=$WQ61_CACHE/bench-crypt
rm -rf "$work"; mkdir -p "$work"
: > "$work/crypt.csv"
# columns: a flavour, or LABEL=FLAVOUR:APPEND (a flavour booted with more
# on its command line, reported as LABEL)
columns=()
for f in "${flavours[@]}"; do
	columns+=("$f")
	[ "$f" = patched ] && columns+=("patched-cache=patched:workqueue.default_affinity_scope=cache")
done
nc=${#columns[@]}
for ((k = 0; k < boots; k++)); do
	for ((j = 0; j < nc; j++)); do
		c=${columns[(j + k) % nc]} label=${c%%=*} f=$c append=
		case $c in *=*) f=${c#*=} append=${f#*:} f=${f%%:*};; esac
		d=$work/$k-$label
		log "dm-crypt reads $((k + 1))/$boots: $label (vm16)"
		rc=0
		# brd's disks 1 GiB (its pages are allocated only when written)
		# (the WQ61_CRYPT_* settings go along: vm.py exports WQ61_*)
		"$WQ61_TOP/scripts/guest/vm.py" -q -f "$f" -p vm16 -t 1800 -r "$d" -a brd.rd_size=1048576 \
			${append:+-a "$append"} -- "$WQ61_TOP/bench/crypt-in-guest.sh" > "$d.log" 2>&1 || rc=$?
		[ $rc = 0 ] || { cat "$d.log"; die "dm-crypt boot ($label) failed (rc $rc): $d"; }
		# runs numbered BOOT.RUN, rows labelled as the column
		awk -F, -v k="$k" -v l="$label" 'BEGIN { OFS = "," } { $3 = l; $4 = k "." $4; print }' \
			"$d/crypt.csv" >> "$work/crypt.csv"
		echo "$label $(cat "$d/crypt-scope")" >> "$work/scopes"
	done
done
series=$(git -C "$WQ61_TOP" describe --always --dirty 2>/dev/null)
python3 "$WQ61_TOP/bench/crypt_report.py" "$work/crypt.csv" "$work/scopes" "$WQ61_TOP/bench/results" \
	"${columns[*]%%=*}" "preset vm16, $boots boots per flavour (order rotating), one guest at a time (patched-cache: wq61 booted with workqueue.default_affinity_scope=cache, the default mainline has there), ${WQ61_CRYPT_RUNS:-3} runs of ${WQ61_CRYPT_SECONDS:-10} s per configuration and boot; series $series"
log "bench-crypt done: bench/results/crypt.md"
