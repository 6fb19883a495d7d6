#!/bin/bash
# wq_monitor.py on bad input and in a broken environment: a clear one-line
# error and a non-zero exit, never a Python traceback. Cases: not root, no
# drgn module, no debug info, bad REGEX, negative or non-numeric interval;
# and it runs as a plain "python3 wq_monitor.py" (not only under drgn).
. "$(dirname "$0")/lib.sh"
need_feature "$THRESH" "workqueue.cpu_intensive_thresh_us"
wq61_only "mainline's wq_monitor.py does not check its arguments or environment"
mon=$WQ61_SRC/tools/workqueue/wq_monitor.py
[ -f "$mon" ] || fail "$mon missing"
bad=0
# expect WHAT WANT_RC REGEX CMD...: exit status WANT_RC, stderr matches REGEX,
# no traceback anywhere in the output.
expect() {
	local what=$1 want=$2 re=$3; shift 3
	local out rc=0
	out=$("$@" 2>&1 >/dev/null) || rc=$?
	if [ "$rc" != "$want" ] || ! echo "$out" | grep -Eq "$re" || echo "$out" | grep -q Traceback; then
		echo "not as expected: $what: rc $rc (want $want), stderr: $out"; bad=1
	else
		echo "ok: $what: rc $rc: $(echo "$out" | tail -1)"
	fi
}
# A copy anybody can read (the checkout may sit in root's 0700 home).
cp "$mon" /tmp/wq_monitor.py && chmod 0644 /tmp/wq_monitor.py
expect "not root" 1 "requires root" setpriv --reuid=65534 --regid=65534 --clear-groups python3 /tmp/wq_monitor.py -i 0
expect "no drgn module" 1 "drgn is not available" python3 -S "$mon" -i 0
expect "no debug info" 1 "debug info is missing" drgn -q -k --no-default-symbols "$mon" -i 0
expect "bad REGEX" 1 "invalid REGEX" python3 "$mon" -i 0 '('
expect "negative interval" 1 "must not be negative" python3 "$mon" -i -1
expect "non-numeric interval" 2 "invalid float value" python3 "$mon" -i abc
# As a plain python3 script with drgn's default vmlinux search (the guest
# puts vmlinux where a distro's debug package would, see guest-init.sh).
out=$(python3 "$mon" -i 0 '^events$') || { echo "plain python3 run failed: $out"; bad=1; }
echo "$out" | grep -Eq '^events +[0-9]+ ' || { echo "plain python3 run: no events row: $out"; bad=1; }
[ $bad = 0 ] || fail "wq_monitor.py error handling"
