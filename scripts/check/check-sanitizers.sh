#!/bin/bash
# make check-sanitizers: the patched kernel built with KASAN+UBSAN+kmemleak
# (patched-kasan) and with KCSAN (patched-kcsan) runs the whole in-guest
# suite (preset big, with the torture mix and the leak test), and every
# sanitizer report in its log is sorted by scripts/report/sanitizer_reports.py:
# reports that involve workqueue code (or the wq61 test modules) fail, so
# do failed tests and other splats; reports elsewhere in 6.1 are listed.
#   scripts/check/check-sanitizers.sh [FLAVOUR...]   (default: both)
# WQ61_SANITIZER_TESTS: globs of tests/guest/ to run instead of all
# (space-separated, e.g. "14-* 31-*").
. "$(dirname "$0")/../common.sh"
flavours=("$@")
[ ${#flavours[@]} -gt 0 ] || mapfile -t flavours < <(sanitizers)
for f in "${flavours[@]}"; do
	sanitizers | grep -xF -- "$f" > /dev/null ||
		die "not a sanitizer flavour: $f ($(sanitizers | xargs))"
done

"$WQ61_TOP/scripts/build/deps.sh"
res=${WQ61_CHECK_DIR:-$WQ61_CACHE/check-sanitizers}
mkdir -p "$res"
bad=0
for f in "${flavours[@]}"; do
	"$WQ61_TOP/scripts/build/build.sh" "$f"
	"$WQ61_TOP/scripts/build/build-modules.sh" "$f"
	out=$(out_of "$f")
	dir=$res/$f
	rm -rf "$dir"; mkdir -p "$dir"
	log "$f: booting preset big, running tests/guest/${WQ61_SANITIZER_TESTS:-*} (sanitizers slow everything: generous timeouts)"
	"$WQ61_TOP/scripts/guest/vm.py" -q -f "$f" -p big -r "$dir" -t "${WQ61_SANITIZER_TIMEOUT:-7200}" -b 600 \
		-e WQ61_TEST_TIMEOUT="${WQ61_SANITIZER_TEST_TIMEOUT:-1800}" -e WQ61_LEAK_ROUNDS=10000 \
		-- "$WQ61_TOP/tests/run-in-guest.sh" "${WQ61_SANITIZER_TESTS:-*}" || true
	# Rows by scripts/report/results.py's rules; a splat is not a failure by
	# itself here (6.1 has sanitizer reports of its own): the reports
	# are sorted below, and those in workqueue code fail.
	rrc=0
	"$WQ61_TOP/scripts/report/results.py" run "$dir" "$f" --kunit --splats-elsewhere > "$dir/results.txt" || rrc=$?
	[ $rrc -ne 130 ] || die "interrupted"
	[ $rrc -eq 0 ] || die "scripts/report/results.py failed on $dir"
	rc=0
	"$WQ61_TOP/scripts/report/sanitizer_reports.py" --object "$out/kernel/workqueue.o" \
		--expected "$dir/expected-messages" "$dir/console.log" > "$dir/reports.txt" || rc=$?
	echo "== $f: guest $(cat "$dir/verdict" 2>/dev/null || echo "lost: no verdict")"
	sum=$("$WQ61_TOP/scripts/report/results.py" summary "$dir/results.txt" --label "tests: ") || bad=1
	echo "$sum" | sed 's/^/   /'
	grep -q '^PASS' "$dir/results.txt" || bad=1
	sed 's/^/   /' "$dir/reports.txt"
	[ $rc -eq 0 ] || bad=1
done
echo "results: $res"
[ $bad -eq 0 ] && echo "sanitizers: clean" || echo "sanitizers: FAILED"
[ $bad -eq 0 ]
