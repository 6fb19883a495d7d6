#!/bin/bash
# In-guest test runner (kselftest conventions): runs tests/guest/NN-*.{sh,py}
# matching the optional globs in $1 (space-separated, e.g. '1[06]-* 31-*'),
# each with a timeout, and prints TAP.
# Exit status of a test: 0 pass, 4 skip, anything else fail.
top=$(cd "$(dirname "$0")/.." && pwd)
read -r -a patterns <<< "${1:-*}"
tests=()
for p in "${patterns[@]}"; do
	for t in "$top"/tests/guest/$p; do
		case "$(basename "$t")" in [0-9][0-9]-*) ;; *) continue;; esac
		tests+=("$t")
	done
done
echo "TAP version 13"
echo "1..${#tests[@]}"
# The names, so that tests which never report (the guest died) can be
# named as "not run" by scripts/results.py.
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
	timeout -k 5 "$limit" "$t" 2>&1 | sed 's/^/# /'
	rc=${PIPESTATUS[0]}
	case $rc in
	0) echo "ok $i $name";;
	4) echo "ok $i $name # SKIP";;
	124) echo "not ok $i $name # TIMEOUT";;
	*) echo "not ok $i $name # exit $rc";;
	esac
done
exit 0
