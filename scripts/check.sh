#!/bin/bash
# make check: build (if needed), boot, run every test, print one summary
# line "N passed, N failed, N skipped"; exit non-zero on any failure.
#   scripts/check.sh [baseline|patched]
. "$(dirname "$0")/common.sh"
flavour=${1:-patched}
check_flavour "$flavour"

"$WQ61_TOP/scripts/deps.sh"
"$WQ61_TOP/scripts/build.sh" "$flavour"
"$WQ61_TOP/scripts/build-modules.sh" "$flavour"
# Host tests compare with unpatched 6.1 (e.g. the starvation it suffers).
if [ "$flavour" = patched ]; then
	"$WQ61_TOP/scripts/build.sh" baseline
	"$WQ61_TOP/scripts/build-modules.sh" baseline
fi

res=${WQ61_CHECK_DIR:-$WQ61_CACHE/check-$flavour}
rm -rf "$res"; mkdir -p "$res"
results=$res/results.txt
: > "$results"
record() { echo "$1 $2${3:+ $3}" >> "$results"; }

# boot NAME PRESET VM-ARGS... -- CMD: one guest run; its outcome is the
# runner's verdict file (scripts/vm.py). The whole in-guest suite on big
# takes ~15 min alone on a 2-core machine (vm.py's default limit is 15):
# a guest gets 40 min, each test still its own 5 (tests/run-in-guest.sh).
boot() {
	local name=$1 preset=$2; shift 2
	rm -rf "${res:?}/$name"; mkdir -p "$res/$name"
	"$WQ61_TOP/scripts/vm.py" -q -f "$flavour" -p "$preset" -r "$res/$name" \
		-t "${WQ61_GUEST_TIMEOUT:-2400}" "$@" || true
}

# The project's own KUnit suites; any other suite in the log is the
# kernel's own (6.1's list tests ...), reported on a line of its own.
OUR_KUNIT="workqueue workqueue_affinity"

# collect NAME KUNIT: per-test results of a guest run of tests/run-in-guest.sh
collect() {
	local name=$1 dir=$res/$1 v
	v=$(cat "$dir/verdict" 2>/dev/null || echo "lost: no verdict")
	case $v in
	passed) record PASS "$name/kernel-log-clean";;
	splat) record FAIL "$name/kernel-log-clean" "(splat: $dir/scan.txt)";;
	interrupted) die "interrupted";;
	*) record FAIL "$name/guest" "($v: $dir/console.log)";;
	esac
	# Tests the plan promised but that never reported count as failures.
	"$WQ61_TOP/scripts/results.py" tap "$dir/output" "$name" >> "$results"
	if [ "$2" = yes ]; then
		"$WQ61_TOP/scripts/results.py" kunit "$dir/dmesg" "$name/kunit" > "$res/kunit.txt"
		local re; re="^[A-Z]+ $name/kunit/($(echo $OUR_KUNIT | tr ' ' '|'))\\."
		grep -E "$re" "$res/kunit.txt" >> "$results" || true
		grep -vE "$re" "$res/kunit.txt" > "$res/kunit-kernel.txt" || true
		# The series' suite is required, not counted if present: a config
		# change that drops it fails the check.
		if [ "$flavour" = patched ]; then
			for s in $OUR_KUNIT; do
				grep -qE "^[A-Z]+ $name/kunit/$s\\." "$res/kunit.txt" ||
					record FAIL "$name/kunit/$s" "(suite did not run: CONFIG_WQ_KUNIT_TEST?)"
			done
		fi
	fi
	sed -n 's/^\(not ok\|ok\) .*/  &/p' "$dir/output" >&2 2>/dev/null || true
}

# Each preset says which in-guest tests it runs (TESTS) and whether its
# boot's KUnit results are counted (KUNIT); presets without TESTS are not
# part of make check.
for conf in "$WQ61_TOP"/tests/topology/*.conf; do
	preset=$(basename "$conf" .conf)
	read -r tests kunit < <(bash -c '. "$1"; echo "${TESTS:--} ${KUNIT:-no}"' _ "$conf")
	[ "$tests" != - ] || continue
	log "$flavour/$preset: booting and running tests/guest/$tests"
	boot "$preset" "$preset" -- "$WQ61_TOP/tests/run-in-guest.sh" "'$tests'"
	collect "$preset" "$kunit"
done

# The series as users get it: git am and quilt onto pristine 6.1,
# checkpatch, every prefix builds, the config matrix (check-series.sh).
if [ "$flavour" = patched ]; then
	# The result depends only on the patches, pristine 6.1, the config
	# fragments (not the sanitizer flavours': the series checks do not use
	# them) and the scripts that check: with all of them unchanged
	# since a run that finished, its log is reused (WQ61_FORCE=1 reruns).
	key=$( (cat "$WQ61_TOP"/patches/* "$WQ61_TOP"/config/*.config "$WQ61_TOP"/config/{mainline,patched}/*.config \
		"$WQ61_TOP"/scripts/check-series.sh "$WQ61_TOP"/scripts/check-configs.sh \
		"$WQ61_TOP"/scripts/common.sh 2>/dev/null; git -C "$WQ61_GIT" rev-parse pristine 2>/dev/null) |
		sha1sum | cut -d' ' -f1)
	memo=$WQ61_CACHE/check-series.memo
	if [ "${WQ61_FORCE:-0}" != 1 ] && [ -f "$memo" ] && [ "$(head -1 "$memo")" = "$key" ]; then
		log "series checks: unchanged since $(stat -c %y "$memo" | cut -d. -f1), reusing that run's log (WQ61_FORCE=1 reruns)"
		tail -n +2 "$memo" > "$res/check-series.log"
	else
		log "series checks (make check-series)"
		"$WQ61_TOP/scripts/check-series.sh" > "$res/check-series.log" 2>&1 || true
		# Only a run that finished is worth reusing, whatever its verdict.
		if grep -q '^[0-9]* passed, [0-9]* failed$' "$res/check-series.log"; then
			{ echo "$key"; cat "$res/check-series.log"; } > "$memo"
		fi
	fi
	sed 's/^/    /' "$res/check-series.log" >&2
	sed -n 's/^ok   \(.*\)/PASS series\/\1/p; s/^FAIL \(.*\)/FAIL series\/\1/p' "$res/check-series.log" \
		| sed 's/^\(PASS\|FAIL\) series\/\([^ ]*\) /\1 series\/\2_/' >> "$results"
	grep -q '^[0-9]* passed, [0-9]* failed$' "$res/check-series.log" ||
		record FAIL series/check-series "(did not finish: $res/check-series.log)"
fi

# Host-side tests: each gets the flavour and the results dir; exit 0/1/4.
for t in "$WQ61_TOP"/tests/host/*.sh; do
	name=host/$(basename "$t" .sh)
	# Without its run bit it fails rather than vanish from the count.
	[ -x "$t" ] || { record FAIL "$name" "(not executable)"; continue; }
	log "$name"
	rc=0; WQ61_FLAVOUR=$flavour WQ61_RESDIR=$res "$t" > "$res/$(basename "$t").log" 2>&1 || rc=$?
	sed 's/^/    /' "$res/$(basename "$t").log" >&2
	case $rc in 0) record PASS "$name";; 4) record SKIP "$name";; *) record FAIL "$name";; esac
done

# Host-side tests boot guests of their own; their run dirs are under $res
# too, so the boot count below covers every guest of this check.
pass=$(grep -c '^PASS' "$results" || true)
fail=$(grep -c '^FAIL' "$results" || true)
skip=$(grep -c '^SKIP' "$results" || true)
if [ "$fail" -gt 0 ]; then
	echo "Failed:"; grep '^FAIL' "$results" | sed 's/^FAIL /  /'
fi
echo "results: $results ($(( $(date +%s) - T0 ))s)"
# Guests lost while booting are visible, never retried away in silence.
boots=$(find "$res" -name boots -exec cat {} + 2>/dev/null)
nb=$(printf '%s\n' "$boots" | grep -c '^boot' || true)
nl=$(printf '%s\n' "$boots" | grep -c 'lost: boot watchdog' || true)
echo "guest boots: $nb, lost while booting: $nl"
if [ -s "$res/kunit-kernel.txt" ]; then
	kp=$(grep -c '^PASS' "$res/kunit-kernel.txt" || true)
	kf=$(grep -c '^FAIL' "$res/kunit-kernel.txt" || true)
	echo "kernel's own KUnit suites (not counted above): $kp passed, $kf failed"
	[ "$kf" -eq 0 ] || { grep '^FAIL' "$res/kunit-kernel.txt"; fail=$((fail + kf)); }
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
