#!/bin/bash
# make check-naive: for each line of tests/naive/cases (or the NAMEs given),
# build wq61 with that mainline bug put back (tests/naive/NAME.diff), run
# the test that should catch it and require that it fails. A test that
# passes on its naive kernel does not catch the bug: "NOT CAUGHT", exit 1.
#   scripts/check/check-naive.sh [NAME...]
. "$(dirname "$0")/../common.sh"
"$WQ61_TOP/scripts/build/deps.sh"
res=${WQ61_CHECK_DIR:-$WQ61_CACHE/check-naive}
mkdir -p "$res"
bad=0 n=0
while read -r name flavour test; do
	case $name in ''|'#'*) continue;; esac
	if [ $# -gt 0 ]; then
		case " $* " in *" $name "*) ;; *) continue;; esac
	fi
	n=$((n + 1))
	export WQ61_NAIVE_DIFF=$WQ61_TOP/tests/naive/$name.diff
	"$WQ61_TOP/scripts/build/build.sh" "$flavour"
	"$WQ61_TOP/scripts/build/build-modules.sh" "$flavour"
	dir=$res/$name
	rm -rf "$dir"; mkdir -p "$dir"
	log "$name: $test on $flavour"
	case $test in
	guest:*)
		# guest:GLOB@PRESET boots that topology instead of big.
		glob=${test#guest:} preset=big
		case $glob in *@*) preset=${glob##*@} glob=${glob%@*};; esac
		[ -f "$WQ61_TOP/tests/topology/$preset.conf" ] ||
			die "tests/naive/cases: $name: no preset $preset"
		# A kernel with the bug back may hang (workqueue lockups): the
		# guest gets 20 minutes, then it is lost, and its log decides.
		"$WQ61_TOP/scripts/guest/vm.py" -q -f "$flavour" -p "$preset" -r "$dir" -t 1200 -b 600 \
			-e WQ61_TEST_TIMEOUT=900 -- "$WQ61_TOP/tests/run-in-guest.sh" "$glob" || true
		v=$(cat "$dir/verdict" 2>/dev/null || echo "lost: no verdict")
		[ "$v" != interrupted ] || die "interrupted"
		# The rows by scripts/report/results.py's rules (on the sanitizer
		# flavours a splat by itself is no result: see below).
		o=(); if is_sanitizer "$flavour"; then o=(--splats-elsewhere); fi
		r=$("$WQ61_TOP/scripts/report/results.py" run "$dir" "$name" "${o[@]}")
		echo "$r" | sed 's/^/    /'
		grep '^# FAIL' "$dir/output" | sed 's/^/    /' || true
		caught=no
		# A failed test or a splat catches it. A lost guest catches it
		# only if its log has a splat (the runner does not scan the log
		# of a lost guest; this does). On the sanitizer flavours, lost or
		# not, no splat counts by itself, as 6.1 has
		# reports of its own (make check-sanitizers lists them): there a
		# failed test or a report that involves workqueue code catches it,
		# as sorted by the script that must find none on the patched
		# sanitizer flavours.
		if is_sanitizer "$flavour"; then
			src=0
			"$WQ61_TOP/scripts/report/sanitizer_reports.py" --object "$(out_of "$flavour")/kernel/workqueue.o" \
				--expected "$dir/expected-messages" "$dir/console.log" > "$dir/reports.txt" || src=$?
			sed 's/^/    /' "$dir/reports.txt"
			# 1: a report in workqueue code; 2: it could not sort them
			[ $src -eq 1 ] && caught=yes
			[ $src -le 1 ] || die "$name: sanitizer_reports.py failed ($src)"
			case $v in lost*) ;; *) v=sanitizer;; esac
		fi
		case $v in
		sanitizer) echo "$r" | grep -q '^FAIL' && caught=yes;;
		splat) caught=yes; sed 's/^/    /' "$dir/scan.txt" | head -20;;
		lost*)
			if is_sanitizer "$flavour"; then
				# 6.1's own sanitizer reports prove nothing: only
				# one in workqueue code (sorted above) catches it.
				[ "$caught" = yes ] || caught="no (guest $v, no report in workqueue code)"
			elif "$WQ61_TOP/scripts/report/scan_log.py" --expected "$dir/expected-messages" \
				"$dir/console.log" > "$dir/scan.txt"; then
				caught="no (guest $v, no splat)"
			else
				caught=yes; sed 's/^/    /' "$dir/scan.txt" | head -20
			fi;;
		*) echo "$r" | grep -q '^FAIL' && caught=yes;;
		esac
		;;
	kunit:*)
		# A KUnit case of the series: boot the naive kernel (the suites
		# run at boot; 00-boot keeps the guest short) and read its result.
		"$WQ61_TOP/scripts/guest/vm.py" -q -f "$flavour" -p big -r "$dir" -t 1200 -b 600 \
			-- "$WQ61_TOP/tests/run-in-guest.sh" '00-*' || true
		"$WQ61_TOP/scripts/report/results.py" kunit "$dir/dmesg" kunit > "$dir/kunit.txt" || true
		r=$(grep -F " kunit/${test#kunit:}" "$dir/kunit.txt" || true)
		echo "$r" | sed 's/^/    /'
		grep -A3 -F "# ${test#kunit:*.}: EXPECTATION FAILED" "$dir/dmesg" |
			head -12 | sed 's/^/    /' || true
		case $r in
		FAIL*|LOST*) caught=yes;;
		'') caught="no (${test#kunit:} did not run)";;
		*) caught=no;;
		esac
		;;
	host:*)
		WQ61_FLAVOUR=$flavour WQ61_RESDIR=$dir WQ61_TEST_TIMEOUT=3600 \
			"$WQ61_TOP/tests/run-tests.sh" host "${test#host:}.sh" > "$dir/host.tap"
		sed 's/^/    /' "$dir/host.tap"
		r=$("$WQ61_TOP/scripts/report/results.py" tap "$dir/host.tap" "$name")
		# Its verdict, not a crash of the script (exit 2, a timeout).
		caught=no; echo "$r" | grep -q '^FAIL .* # exit 1$' && caught=yes
		;;
	*) die "tests/naive/cases: bad test '$test'";;
	esac
	if [ "$caught" = yes ]; then
		echo "caught      $name ($test fails on $flavour)"
	else
		echo "NOT CAUGHT  $name ($test on $flavour: $caught)"; bad=1
	fi
done < "$WQ61_TOP/tests/naive/cases"
[ $n -gt 0 ] || die "no such case: $*"
[ $bad -eq 0 ]
