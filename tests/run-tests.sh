#!/bin/bash
# The test runner (kselftest conventions), the same in the guest and on
# the host:
#   tests/run-tests.sh guest|host [GLOBS]
# runs the tests of tests/guest (NN-*.sh, NN-*.py) or tests/host (*.sh)
# matching GLOBS (space-separated, e.g. '1[06]-* 31-*'; default all), each
# with a timeout, and prints TAP: the plan and the tests' names first, the
# tests' own output as "#" lines. scripts/report/results.py reads it.
# Exit status of a test: 0 pass, 4 skip, anything else fail.
top=$(cd "$(dirname "$0")/.." && pwd)
kind=${1:-}
case $kind in
guest)	# The guest's runner has no terminal: a test that runs over its
	# time is killed with everything it started (timeout's group).
	fg=();;
host)	# On the host the runner is in the terminal's process group, so
	# that ^C reaches the test and its guests; a timed-out test's guests
	# end by their own limits (scripts/guest/vm.py -t).
	fg=(--foreground);;
*) echo "usage: run-tests.sh guest|host [GLOBS]" >&2; exit 2;;
esac
read -r -a patterns <<< "${2:-*}"
tests=()
for p in "${patterns[@]}"; do
	for t in "$top/tests/$kind"/$p; do
		[ -f "$t" ] || continue
		case $kind/$(basename "$t") in
		guest/[0-9][0-9]-*.sh|guest/[0-9][0-9]-*.py|host/*.sh) tests+=("$t");;
		esac
	done
done
echo "TAP version 13"
echo "1..${#tests[@]}"
# The names, so that tests which never report (the guest died) can be
# named as "not run" by scripts/report/results.py.
names=(); for t in "${tests[@]}"; do n=$(basename "$t"); names+=("${n%.*}"); done
echo "# wq61-tests: ${names[*]}"
i=0
for t in "${tests[@]}"; do
	i=$((i + 1))
	name=$(basename "$t"); name=${name%.*}
	echo "# ---- $name"
	# A test without its run bit fails rather than vanish from the count.
	[ -x "$t" ] || { echo "not ok $i $name # not executable"; continue; }
	# A test may ask for more than the default 300 s with a line
	# "# wq61-timeout: SECONDS" (never less than WQ61_TEST_TIMEOUT).
	limit=${WQ61_TEST_TIMEOUT:-300}
	own=$(sed -n 's/^# wq61-timeout: \([0-9]*\)$/\1/p' "$t" | head -1)
	[ -n "$own" ] && [ "$own" -gt "$limit" ] && limit=$own
	timeout "${fg[@]}" -k 5 "$limit" "$t" 2>&1 | sed 's/^/# /'
	rc=${PIPESTATUS[0]}
	case $rc in
	0) echo "ok $i $name";;
	4) echo "ok $i $name # SKIP";;
	124) echo "not ok $i $name # TIMEOUT";;
	*) echo "not ok $i $name # exit $rc";;
	esac
done
exit 0
