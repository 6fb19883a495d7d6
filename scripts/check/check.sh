#!/bin/bash
# make check: build (if needed), boot, run every test, print one summary
# line "N passed, N failed, N lost, N skipped"; exit non-zero on any failure
# or loss (scripts/report/results.py counts it from results.txt).
#   scripts/check/check.sh [baseline|patched]
. "$(dirname "$0")/../common.sh"
flavour=${1:-patched}
check_flavour "$flavour"

"$WQ61_TOP/scripts/build/deps.sh"
"$WQ61_TOP/scripts/build/build.sh" "$flavour"
"$WQ61_TOP/scripts/build/build-modules.sh" "$flavour"
# Host tests compare with unpatched 6.1 (e.g. the starvation it suffers).
if [ "$flavour" = patched ]; then
	"$WQ61_TOP/scripts/build/build.sh" baseline
	"$WQ61_TOP/scripts/build/build-modules.sh" baseline
fi

res=${WQ61_CHECK_DIR:-$WQ61_CACHE/check-$flavour}
rm -rf "$res"; mkdir -p "$res"
results=$res/results.txt
: > "$results"
record() { echo "$1 $2${3:+ $3}" >> "$results"; }

# boot NAME PRESET VM-ARGS... -- CMD: one guest run; its outcome is the
# runner's verdict file (scripts/guest/vm.py). The whole in-guest suite on big
# takes ~15 min alone on a 2-core machine (vm.py's default limit is 15):
# a guest gets 40 min, each test still its own 5 (tests/run-in-guest.sh).
boot() {
	local name=$1 preset=$2; shift 2
	rm -rf "${res:?}/$name"; mkdir -p "$res/$name"
	"$WQ61_TOP/scripts/guest/vm.py" -q -f "$flavour" -p "$preset" -r "$res/$name" \
		-t "${WQ61_GUEST_TIMEOUT:-2400}" "$@" || true
}

# collect NAME KUNIT: the rows of one guest run (scripts/report/results.py has
# the rules: the verdict, every TAP test, LOST for what never reported,
# the boot's KUnit cases when KUNIT=yes). On patched the series' own
# suites are required: a config change that drops them fails the check.
collect() {
	local name=$1 opts=() rc=0
	if [ "$2" = yes ]; then
		opts=(--kunit)
		[ "$flavour" = patched ] && opts+=(--require)
	fi
	"$WQ61_TOP/scripts/report/results.py" run "$res/$name" "$name" "${opts[@]}" >> "$results" || rc=$?
	[ $rc -ne 130 ] || die "interrupted"
	[ $rc -eq 0 ] || die "scripts/report/results.py failed on $res/$name"
	sed -n 's/^\(not ok\|ok\) .*/  &/p' "$res/$name/output" >&2 2>/dev/null || true
}

# The plan: which in-guest tests on which preset (tests/check-plan), read
# on fd 3 so that nothing a boot runs can eat its lines from stdin.
while read -r -u 3 preset kunit tests; do
	[ -f "$WQ61_TOP/tests/topology/$preset.conf" ] ||
		die "tests/check-plan: no preset tests/topology/$preset.conf"
	case $kunit in yes|no) ;; *) die "tests/check-plan: KUNIT of $preset is '$kunit', not yes or no";; esac
	[ -n "$tests" ] || die "tests/check-plan: no tests for $preset"
	log "$flavour/$preset: booting and running tests/guest/$tests"
	boot "$preset" "$preset" -- "$WQ61_TOP/tests/run-in-guest.sh" "$tests"
	collect "$preset" "$kunit"
done 3< <(grep -Ev '^[[:space:]]*(#|$)' "$WQ61_TOP/tests/check-plan")

# The series as users get it: git am and quilt onto pristine 6.1,
# checkpatch, every prefix builds, the config matrix (check-series.sh).
if [ "$flavour" = patched ]; then
	# The result depends only on the patches, pristine 6.1, the config
	# fragments (not the sanitizer flavours': the series checks do not use
	# them) and the scripts that check: with all of them unchanged
	# since a run that finished, its log is reused (WQ61_FORCE=1 reruns).
	key=$( (cat "$WQ61_TOP"/patches/* "$WQ61_TOP"/config/*.config "$WQ61_TOP"/config/{mainline,patched}/*.config \
		"$WQ61_TOP"/scripts/check/check-series.sh "$WQ61_TOP"/scripts/check/check-configs.sh \
		"$WQ61_TOP"/scripts/common.sh 2>/dev/null; git -C "$WQ61_GIT" rev-parse pristine 2>/dev/null) |
		sha1sum | cut -d' ' -f1)
	memo=$WQ61_CACHE/check-series.memo
	# check-series.sh ends with its count line only if it ran to the end
	series_finished() { grep -q '^# [0-9]* passed, [0-9]* failed$' "$res/check-series.log"; }
	if [ "${WQ61_FORCE:-0}" != 1 ] && [ -f "$memo" ] && [ "$(head -1 "$memo")" = "$key" ]; then
		log "series checks: unchanged since $(stat -c %y "$memo" | cut -d. -f1), reusing that run's log (WQ61_FORCE=1 reruns)"
		tail -n +2 "$memo" > "$res/check-series.log"
	else
		log "series checks (make check-series)"
		"$WQ61_TOP/scripts/check/check-series.sh" > "$res/check-series.log" 2>&1 || true
		# Only a run that finished is worth reusing, whatever its verdict.
		if series_finished; then
			{ echo "$key"; cat "$res/check-series.log"; } > "$memo"
		fi
	fi
	sed 's/^/    /' "$res/check-series.log" >&2
	"$WQ61_TOP/scripts/report/results.py" tap "$res/check-series.log" series >> "$results"
	series_finished ||
		record FAIL series/check-series "(did not finish: $res/check-series.log)"
fi

# Host-side tests (tests/host), through the same TAP runner as the guest's;
# each gets the flavour and the results dir. Some boot several guests: an
# hour each is only a bound.
log "host tests (tests/host)"
WQ61_FLAVOUR=$flavour WQ61_RESDIR=$res WQ61_TEST_TIMEOUT=3600 "$WQ61_TOP/tests/run-tests.sh" host |
	tee "$res/host.tap" | sed 's/^/    /' >&2
"$WQ61_TOP/scripts/report/results.py" tap "$res/host.tap" host >> "$results"

# Host-side tests boot guests of their own; their run dirs are under $res
# too, so the boot count below covers every guest of this check.
echo "results: $results ($(( $(date +%s) - T0 ))s)"
# Guests lost while booting are visible, never retried away in silence.
boots=$(find "$res" -name boots -exec cat {} + 2>/dev/null)
nb=$(printf '%s\n' "$boots" | grep -c '^boot' || true)
nl=$(printf '%s\n' "$boots" | grep -c 'lost: boot watchdog' || true)
echo "guest boots: $nb, lost while booting: $nl"
if grep -q '^[A-Z]* [^ ]*/kunit-kernel/' "$results"; then
	kk() { grep -c "^$1 [^ ]*/kunit-kernel/" "$results" || true; }
	echo "of these, the kernel's own KUnit suites: $(kk PASS) passed, $(kk FAIL) failed, $(kk LOST) lost"
fi
# The summary line, counted from results.txt alone; exit 1 on any FAIL or LOST.
"$WQ61_TOP/scripts/report/results.py" summary "$results"
