#!/bin/bash
# workqueue.cpu_intensive_thresh_us: bad writes are refused and change
# nothing; a non-root writer is refused; good writes take effect.
. "$(dirname "$0")/lib.sh"
need_feature "$THRESH" "workqueue.cpu_intensive_thresh_us"
orig=$(cat "$THRESH")
keep "$THRESH"
note "mode $(stat -c %a "$THRESH"), value $orig"
[ "$(stat -c %a "$THRESH")" = 644 ] || fail "mode is not 0644"
for bad in abc -1 18446744073709551616 '' ' ' 12abc 0x; do
	# echo, as an admin would: the empty case writes just a newline
	if echo "$bad" > "$THRESH" 2>/dev/null; then
		fail "write '$bad' accepted"
	fi
	[ "$(cat "$THRESH")" = "$orig" ] || fail "write '$bad' changed the value to $(cat "$THRESH")"
	note "refused: '$bad'"
done
if setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo 5000 > $THRESH" 2>/dev/null; then
	fail "non-root write accepted"
fi
[ "$(cat "$THRESH")" = "$orig" ] || fail "non-root write changed the value"
note "refused: non-root writer"
echo 20000 > "$THRESH" || fail "write 20000 refused"
[ "$(cat "$THRESH")" = 20000 ] || fail "write 20000 read back as $(cat "$THRESH")"
note "accepted: 20000"
