#!/bin/bash
# scripts/report/results.py, the one collector, on made-up run directories: each
# of its rules (docstring) gives the rows it states, and the summary line
# agrees with the rows and fails on a FAIL or a LOST.
top=$(cd "$(dirname "$0")/../.." && pwd)
res=$top/scripts/report/results.py
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
bad=0
# check NAME WANT GOT: rows compared as one line each, joined by '|'
check() {
	if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1"; echo "  want: $2"; echo "  got:  $3"; bad=1; fi
}
rows() { "$res" "$@" | paste -sd'|'; }
# A TAP run of three tests, the third never reporting when CUT is set.
tap() {
	printf 'TAP version 13\n1..3\n# wq61-tests: 00-a 01-b 02-c\n# ---- 00-a\nok 1 00-a\n'
	printf '# ---- 01-b\nnot ok 2 01-b # TIMEOUT\n'
	[ -n "${CUT:-}" ] || printf '# ---- 02-c\nok 3 02-c # SKIP\n'
}

mkdir "$d/ok"; echo passed > "$d/ok/verdict"; tap > "$d/ok/output"
check "passed guest: a clean-log row, the tests as reported" \
	"PASS g/kernel-log-clean|PASS g/00-a|FAIL g/01-b # TIMEOUT|SKIP g/02-c # SKIP" "$(rows run "$d/ok" g)"

mkdir "$d/lost"; echo "lost: timed out after 9s" > "$d/lost/verdict"; CUT=1 tap > "$d/lost/output"
check "lost guest: LOST guest row, the test that never reported LOST" \
	"LOST g/guest (lost: timed out after 9s: $d/lost/console.log)|PASS g/00-a|FAIL g/01-b # TIMEOUT|LOST g/02-c # not run" \
	"$(rows run "$d/lost" g)"

mkdir "$d/none"
check "no verdict, no output: the guest is LOST" \
	"LOST g/guest (lost: no verdict: $d/none/console.log)" "$(rows run "$d/none" g)"

mkdir "$d/early"; echo passed > "$d/early/verdict"; CUT=1 tap > "$d/early/output"
check "a test missing from a passed guest is LOST all the same" \
	"LOST g/02-c # not run" "$(rows run "$d/early" g | tr '|' '\n' | grep LOST)"

mkdir "$d/splat"; echo splat > "$d/splat/verdict"
check "splat: the clean-log row fails" "FAIL g/kernel-log-clean (splat: $d/splat/scan.txt)" \
	"$(rows run "$d/splat" g)"
check "splat with --splats-elsewhere: the guest row passes" \
	"PASS g/guest (splat: sorted apart, $d/splat/console.log)" "$(rows run "$d/splat" g --splats-elsewhere)"

mkdir "$d/failed"; echo "failed 3" > "$d/failed/verdict"
check "failed command: FAIL guest" "FAIL g/guest (failed 3: $d/failed/console.log)" "$(rows run "$d/failed" g)"

mkdir "$d/int"; echo interrupted > "$d/int/verdict"
rc=0; out=$("$res" run "$d/int" g 2>/dev/null) || rc=$?
check "interrupted: no rows, exit 130" "130 ''" "$rc '$out'"

# KUnit: one suite of the series, one of the kernel's own, one suite that
# starts and never finishes (the guest went away mid-suite).
mkdir "$d/ku"; echo passed > "$d/ku/verdict"
cat > "$d/ku/dmesg" <<'K'
[    1.0] KTAP version 1
[    1.0] 1..3
[    1.1]     # Subtest: workqueue
[    1.1]     1..2
[    1.1]     ok 1 wq_a
[    1.1]     not ok 2 wq_b
[    1.1] not ok 1 workqueue
[    1.2]     # Subtest: list-kunit-test
[    1.2]     ok 1 list_x
[    1.2] ok 2 list-kunit-test
[    1.3]     # Subtest: workqueue_affinity
[    1.3]     ok 1 affn_a
K
check "--kunit: ours under kunit/, the kernel's under kunit-kernel/, an unfinished suite LOST" \
	"PASS g/kernel-log-clean|PASS g/kunit/workqueue.wq_a|FAIL g/kunit/workqueue.wq_b|PASS g/kunit-kernel/list-kunit-test.list_x|PASS g/kunit/workqueue_affinity.affn_a|LOST g/kunit/workqueue_affinity # suite never finished" \
	"$(rows run "$d/ku" g --kunit)"
check "--require: a suite of ours that never ran fails" \
	"FAIL g/kunit/other (suite did not run)" \
	"$(rows run "$d/ku" g --kunit --ours workqueue,other --require | tr '|' '\n' | grep 'did not run')"

# The summary: counted from the file, FAIL and LOST listed, exit 1.
"$res" run "$d/lost" g > "$d/r.txt"; echo "PASS host/x" >> "$d/r.txt"
rc=0; out=$("$res" summary "$d/r.txt") || rc=$?
check "summary of a lost run: the counts, exit 1" \
	"1: 2 passed, 1 failed, 2 lost, 0 skipped" "$rc: $(tail -1 <<< "$out")"
check "summary lists what failed or was lost" 3 "$(grep -c '^  [FL]' <<< "$out")"
"$res" run "$d/ok" g | grep -v FAIL > "$d/g.txt"
rc=0; out=$("$res" summary "$d/g.txt" --label "x: ") || rc=$?
check "summary of a good run: exit 0, labelled" "0: x: 2 passed, 0 failed, 0 lost, 1 skipped" "$rc: $out"
echo "nonsense row" > "$d/n.txt"
rc=0; "$res" summary "$d/n.txt" >/dev/null 2>&1 || rc=$?
check "a line that is no row is refused" 1 "$rc"
rc=0; "$res" run "$d/ok" g --bogus >/dev/null 2>&1 || rc=$?
check "an unknown option is refused" 1 "$rc"
exit $bad
