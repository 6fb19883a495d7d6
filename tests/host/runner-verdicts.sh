#!/bin/bash
# The runner's verdicts, against a fake QEMU (tests/host/lib/fake-qemu.py)
# that boots, dies, hangs or stalls on demand: each outcome gives the one
# verdict it should, the matching exit status, and leaves no process behind.
# Nothing here depends on how fast the machine is: a lost guest is one that
# never comes up (or comes up only after the verdict was given).
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
export WQ61_QEMU=$top/tests/host/lib/fake-qemu.py
bad=0
# run NAME WANT-VERDICT WANT-RC FAKE-MODE [ENV...] -- [VM ARGS]
run() {
	local name=$1 want=$2 want_rc=$3 mode=$4; shift 4
	local envs=() rc=0 got pid
	while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
	env FAKE_QEMU="$mode" "${envs[@]}" "$top/scripts/guest/vm.py" -q -p small -r "$d/$name" "$@" -- true \
		>"$d/$name.log" 2>&1 || rc=$?
	got=$(cat "$d/$name/verdict" 2>/dev/null)
	pid=$(cat "$d/$name/fake-qemu.pid" 2>/dev/null)
	if [[ "$got" != $want ]] || [ "$rc" != "$want_rc" ]; then
		echo "FAIL $name: verdict '$got' exit $rc, want '$want' exit $want_rc"; sed 's/^/    /' "$d/$name.log"; bad=1
	elif [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		echo "FAIL $name: fake QEMU $pid outlived the runner"; kill -9 "$pid"; bad=1
	else
		echo "ok   $name: $got (exit $rc)"
	fi
}
run passed          passed        0   "ok 0"       --
run failed-3        "failed 3"    1   "ok 3"       --
# A command's own 124/125 is a failure, not "lost" or "splat".
run failed-124      "failed 124"  1   "ok 124"     --
run failed-125      "failed 125"  1   "ok 125"     --
run splat           splat         125 splat        --
run qemu-died       "lost: QEMU exited before*" 124 exit-early --
run mid-suite       "lost: QEMU exited before*" 124 mid-suite  --
run silent          "lost: boot watchdog: console silent for 2s*" 124 silent WQ61_BOOT_SILENCE=2 --
# The boot limit passes while the guest is still booting; it comes up and
# writes an exit status a little later: the verdict stays "lost".
run late-rc         "lost: boot watchdog: userspace not up after 2s" 124 slow-boot FAKE_UP=4 -- -b 2
[ -f "$d/late-rc/rc" ] && { echo "FAIL late-rc: the late exit status was kept as rc"; bad=1; }
run run-timeout     "lost: timed out after 3s" 124 hang -- -t 3
run stubborn        "lost: timed out after 2s" 124 stubborn -- -t 2
# Retries: each lost boot is a line in "boots", its console kept.
run retried         "lost: boot watchdog: console silent*" 124 silent WQ61_BOOT_SILENCE=1 WQ61_BOOT_TRIES=2 --
[ "$(grep -c lost "$d/retried/boots")" = 2 ] && [ -f "$d/retried/console.log.lost-1" ] ||
	{ echo "FAIL retried: boots file / kept console"; cat "$d/retried/boots"; bad=1; }
# The silent guest got an NMI, its backtrace reached the console, and the
# monitor's answers were saved.
grep -q 'NMI received' "$d/silent/console.log" && grep -q 'fake answer to info lapic 0' "$d/silent/stall-info.txt" ||
	{ echo "FAIL silent: no NMI backtrace or stall info"; bad=1; }

# Ctrl-C: "interrupted", exit 130, QEMU gone.
FAKE_QEMU=hang "$top/scripts/guest/vm.py" -q -p small -r "$d/int" -- true >"$d/int.log" 2>&1 & r=$!
for _ in $(seq 100); do grep -q 'wq61-guest: up' "$d/int/console.log" 2>/dev/null && break; sleep 0.1; done
kill -INT $r; rc=0; wait $r || rc=$?
pid=$(cat "$d/int/fake-qemu.pid")
if [ "$(cat "$d/int/verdict")" = interrupted ] && [ $rc = 130 ] && ! kill -0 "$pid" 2>/dev/null &&
   grep -q interrupted "$d/int.log" && ! grep -qi lost "$d/int.log"; then
	echo "ok   interrupted: exit 130"
else
	echo "FAIL interrupted: verdict '$(cat "$d/int/verdict")' exit $rc"; cat "$d/int.log"; bad=1
fi

# A runner killed with SIGKILL cannot stop QEMU itself: the kernel does.
FAKE_QEMU=hang "$top/scripts/guest/vm.py" -q -p small -r "$d/kill9" -- true >"$d/kill9.log" 2>&1 & r=$!
for _ in $(seq 100); do grep -q 'wq61-guest: up' "$d/kill9/console.log" 2>/dev/null && break; sleep 0.1; done
pid=$(cat "$d/kill9/fake-qemu.pid")
kill -9 $r; wait $r 2>/dev/null
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
	echo "FAIL kill -9: fake QEMU $pid outlived the runner"; kill -9 "$pid"; bad=1
else
	echo "ok   kill -9: QEMU went with the runner"
fi

# Every WQ61_* variable reaches the guest, quoted safely; -e too.
WQ61_ODD="a b 'c' \$(x) \"d\"" FAKE_QEMU="ok 0" "$top/scripts/guest/vm.py" -q -p small -r "$d/env" \
	-e 'EXTRA=x;y' -- true >/dev/null 2>&1
got=$(bash -c '. "$1"; printf "%s|%s|%s" "$WQ61_ODD" "$EXTRA" "$EXPECT_NR_CPUS"' _ "$d/env/env")
if [ "$got" = "a b 'c' \$(x) \"d\"|x;y|4" ]; then echo "ok   env forwarded"; else echo "FAIL env: '$got'"; bad=1; fi

# The command reaches the guest word for word: no caller quotes for vm.py.
FAKE_QEMU="ok 0" "$top/scripts/guest/vm.py" -q -p small -r "$d/words" -- printf '%s|' "a b" "c'd" '$(x)' '*' \
	>/dev/null 2>&1
got=$(bash "$d/words/cmd" 2>&1)
if [ "$got" = "a b|c'd|\$(x)|*|" ]; then echo "ok   command words kept"; else echo "FAIL command words: '$got'"; bad=1; fi

# The flavour comes from config/flavours: the guest gets it and its family;
# a flavour the table lacks is refused up front (exit 2, no QEMU).
FAKE_QEMU="ok 0" "$top/scripts/guest/vm.py" -q -p small -f naive-kcsan -r "$d/fam" -- true >/dev/null 2>&1
got=$(bash -c '. "$1"; echo "$WQ61_FLAVOUR $WQ61_FAMILY"' _ "$d/fam/env")
rc=0; FAKE_QEMU="ok 0" "$top/scripts/guest/vm.py" -q -p small -f nosuch -r "$d/nosuch" -- true >"$d/nosuch.log" 2>&1 || rc=$?
if [ "$got" = "naive-kcsan patched" ] && [ $rc = 2 ] && grep -q "unknown flavour 'nosuch'" "$d/nosuch.log" &&
   [ ! -e "$d/nosuch/fake-qemu.pid" ]; then
	echo "ok   flavour and family from config/flavours"
else
	echo "FAIL flavour: got '$got', unknown flavour exit $rc"; cat "$d/nosuch.log"; bad=1
fi

# A cache the guest cannot see (it mounts a tmpfs over /tmp): refused up
# front with exit 2, no QEMU started, no run dir written.
rc=0; WQ61_CACHE=/tmp/wq61-hidden FAKE_QEMU="ok 0" "$top/scripts/guest/vm.py" -q -p small -r "$d/hidden" \
	-- true >"$d/hidden.log" 2>&1 || rc=$?
if [ $rc = 2 ] && grep -q 'under /tmp, which the guest mounts a tmpfs over' "$d/hidden.log" &&
   [ ! -e "$d/hidden" ]; then
	echo "ok   hidden cache refused"
else
	echo "FAIL hidden cache: exit $rc, run dir $(ls -d "$d/hidden" 2>/dev/null)"; cat "$d/hidden.log"; bad=1
fi

# -k/-I (make check-deb): that kernel and initramfs, whatever the flavour;
# an initramfs that is not there is refused before QEMU starts.
touch "$d/vmlinuz" "$d/initrd.img"
FAKE_QEMU="ok 0" "$top/scripts/guest/vm.py" -q -p small -f deb-lean -r "$d/kimg" -k "$d/vmlinuz" -I "$d/initrd.img" \
	-- true >"$d/kimg.log" 2>&1 || true
got=$(grep -A1 -xE -- '-kernel|-initrd' "$d/kimg/fake-qemu.argv" 2>/dev/null | grep -v -- -- | tr '\n' ' ')
if [ "$got" = "-kernel $d/vmlinuz -initrd $d/initrd.img " ] && [ "$(cat "$d/kimg/verdict")" = passed ]; then
	echo "ok   -k/-I reach QEMU"
else
	echo "FAIL -k/-I: QEMU got '$got', verdict '$(cat "$d/kimg/verdict" 2>/dev/null)'"; cat "$d/kimg.log"; bad=1
fi
rc=0; FAKE_QEMU="ok 0" "$top/scripts/guest/vm.py" -q -p small -r "$d/noird" -k "$d/vmlinuz" -I "$d/none.img" \
	-- true >"$d/noird.log" 2>&1 || rc=$?
if [ $rc = 2 ] && grep -q "no initramfs at $d/none.img" "$d/noird.log" && [ ! -e "$d/noird/fake-qemu.pid" ]; then
	echo "ok   missing initramfs refused"
else
	echo "FAIL missing initramfs: exit $rc"; cat "$d/noird.log"; bad=1
fi

# A guest that died mid-suite: the tests that never ran are LOST.
got=$("$top/scripts/report/results.py" tap "$d/mid-suite/output" g | tr '\n' ' ')
want='PASS g/00-a PASS g/01-b LOST g/02-c # not run LOST g/03-d # not run LOST g/04-e # not run '
if [ "$got" = "$want" ]; then echo "ok   results: not-run tests counted"; else echo "FAIL results: '$got'"; bad=1; fi
exit $bad
