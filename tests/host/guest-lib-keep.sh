#!/bin/bash
# tests/guest/lib.sh's keep / kept / restore_kept / make_tmp / on_exit on
# the host, with plain files standing in for knobs: whatever way a test
# exits, each kept file gets its value back, "default (X)" goes back as
# "default", the order is the one promised, and $tmp goes last.
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
bad=0
check() {
	if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1"; echo "  want: $2"; echo "  got:  $3"; bad=1; fi
}
# guest EXIT-HOW: a made-up test that keeps two knobs, changes them and
# exits as EXIT-HOW says; it logs each write, so the order shows.
guest() {
	printf 'default (cache)\n' > "$d/scope"; printf '7\n' > "$d/thresh"; rm -f "$d/order" "$d/tmpname"
	WQ61_FLAVOUR=patched WQ61_FAMILY=patched bash -c '
		. "$1/tests/guest/lib.sh"
		make_tmp; echo "$tmp" > "$2/tmpname"
		on_exit "echo tmp-still-there=\$([ -d \"\$tmp\" ] && echo yes) >> $2/order"
		keep "$2/scope" "$2/thresh" "$2/missing"
		keep "$2/scope"
		on_exit "echo storm-stopped >> $2/order"
		echo "kept: $(kept "$2/thresh")" >> "$2/order"
		echo numa > "$2/scope"; echo 1000 > "$2/thresh"
		case $3 in
		fail) fail "on purpose";;
		skip) skip "on purpose";;
		early) restore_kept; echo "early: $(cat "$2/scope") $(cat "$2/thresh")" >> "$2/order"; echo 5 > "$2/thresh";;
		unknown) kept "$2/other";;
		esac
		exit 0' _ "$top" "$d" "$1" > "$d/out" 2>&1
	echo $?
}
for how in pass fail skip; do
	rc=$(guest $how)
	want=0; [ $how = fail ] && want=1; [ $how = skip ] && want=4
	check "$how: exit status kept" "$want" "$rc"
	check "$how: knobs back" "default|7" "$(cat "$d/scope")|$(cat "$d/thresh")"
	check "$how: last registered first, \$tmp removed last" \
		"kept: 7|storm-stopped|tmp-still-there=yes" "$(paste -sd'|' "$d/order")"
	[ ! -e "$(cat "$d/tmpname")" ] || { echo "FAIL $how: \$tmp left behind"; bad=1; }
done
rc=$(guest early)
check "restore_kept early, and again at exit" "0|early: default 7|default|7" \
	"$rc|$(grep early "$d/order" | cut -d' ' -f1-)|$(cat "$d/scope")|$(cat "$d/thresh")"
rc=$(guest unknown)
check "kept on a file never kept fails the test" "1" "$rc"
grep -q 'was not kept' "$d/out" || { echo "FAIL kept: no message"; bad=1; }
out=$(env -u WQ61_FAMILY bash -c '. "$1/tests/guest/lib.sh"; echo reached' _ "$top" 2>&1); rc=$?
check "lib.sh without WQ61_FAMILY (not booted by vm.py): refused" "1 no" \
	"$rc $(grep -q reached <<< "$out" && echo yes || echo no)"
exit $bad
