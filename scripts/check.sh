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

# boot NAME PRESET VM-ARGS... -- CMD: one guest run (vm.sh itself boots a
# guest lost while booting again).
boot() {
	local name=$1 preset=$2; shift 2
	rm -rf "${res:?}/$name"; mkdir -p "$res/$name"
	"$WQ61_TOP/scripts/vm.sh" -q -f "$flavour" -p "$preset" -r "$res/$name" "$@"
}

# collect NAME RC: per-test results of a guest run that ran tests/run-in-guest.sh
collect() {
	local name=$1 rc=$2 dir=$res/$1
	case $rc in
	0) record PASS "$name/kernel-log-clean";;
	125) record FAIL "$name/kernel-log-clean" "(splat: $dir/scan.txt)";;
	124) record FAIL "$name/guest" "(lost: $dir/console.log)";;
	*) record FAIL "$name/guest" "(runner exited $rc)";;
	esac
	"$WQ61_TOP/scripts/results.py" tap "$dir/output" "$name" >> "$results"
	# KUnit suites run at every boot; count them once, on the full-suite boot.
	if [ "$name" = big ]; then
		"$WQ61_TOP/scripts/results.py" kunit "$dir/dmesg" "$name/kunit" >> "$results"
	fi
	sed -n 's/^\(not ok\|ok\) .*/  &/p' "$dir/output" 2>/dev/null >&2 || true
}

for preset in big small; do
	# The full suite on big; boot, topology and work items on the others.
	pattern='*'; [ $preset = big ] || pattern='0[0-2]-*'
	log "$flavour/$preset: booting and running tests/guest/$pattern"
	rc=0; boot "$preset" "$preset" -- "$WQ61_TOP/tests/run-in-guest.sh" "'$pattern'" || rc=$?
	collect "$preset" $rc
done

# Host-side tests: each gets the flavour and the results dir; exit 0/1/4.
for t in "$WQ61_TOP"/tests/host/*.sh; do
	[ -x "$t" ] || continue
	name=host/$(basename "$t" .sh)
	log "$name"
	rc=0; WQ61_FLAVOUR=$flavour WQ61_RESDIR=$res "$t" > "$res/$(basename "$t").log" 2>&1 || rc=$?
	sed 's/^/    /' "$res/$(basename "$t").log" >&2
	case $rc in 0) record PASS "$name";; 4) record SKIP "$name";; *) record FAIL "$name";; esac
done

pass=$(grep -c '^PASS' "$results" || true)
fail=$(grep -c '^FAIL' "$results" || true)
skip=$(grep -c '^SKIP' "$results" || true)
if [ "$fail" -gt 0 ]; then
	echo "Failed:"; grep '^FAIL' "$results" | sed 's/^FAIL /  /'
fi
echo "results: $results ($(( $(date +%s) - T0 ))s)"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
