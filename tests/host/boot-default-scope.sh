#!/bin/bash
# workqueue.default_affinity_scope= on the kernel command line: the big
# preset booted once per scope (cpu smt cache numa system). The parameter
# reads back what was given, and events_unbound, which exists long before
# the topology is known, ends up with every CPU on a pool of that scope's
# pod (wq_dump.py's map checked against sysfs). A name that is no scope
# ("bogus") is refused by the kernel's parameter parser, which says so,
# and the default stays "cache".
#
# 6.1's workqueue.disable_numa=1 (wq61 only; three more boots): makes
# system the default scope, but not over a default_affinity_scope= on the
# same command line, before or after it; and it leaves max_active per
# NUMA node: wq61_affn_ma (max_active 2) set to the numa scope runs 4 of
# its 64 sleeping items at once on the two nodes of big, not 2.
#
# Expected: passes on patched and mainline (disable_numa skipped there);
# skipped on baseline.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/lib/boot.sh"

# guest NAME APPEND [VM ARGS]: boot big with APPEND, print the key=value lines
guest() {
	local name=$1 append=$2
	shift 2
	boot_guest "boot-scope-$name" big "$append" boot-scope.sh "$@"
	[ "$v" = passed ] || { echo "FAIL: guest $name: ${v:-no verdict} ($dir/console.log)"; exit 1; }
	grep -E '^(dfl|refused|pools|peak)=' "$dir/output"
}

for s in cpu smt cache numa system; do
	out=$(guest "$s" "workqueue.default_affinity_scope=$s" -e WQ61_BOOTSCOPE_POOLS=1)
	echo "$out" | sed "s/^/  $s: /"
	if [ "$(key dfl "$out")" = missing ]; then
		[ "$WQ61_FLAVOUR" = baseline ] && { echo "SKIP: no default_affinity_scope in baseline"; exit 4; }
		echo "FAIL: no default_affinity_scope"; exit 1
	fi
	[ "$(key dfl "$out")" = "$s" ] || { echo "FAIL: booted with $s, the parameter reads $(key dfl "$out")"; exit 1; }
	[ "$(key refused "$out")" = 0 ] || { echo "FAIL: $s was refused at boot"; exit 1; }
	case $(key pools "$out") in
	ok*) ;;
	*) echo "FAIL: booted with $s: events_unbound's pools: $(key pools "$out")"; exit 1;;
	esac
done

out=$(guest bogus "workqueue.default_affinity_scope=bogus")
echo "$out" | sed "s/^/  bogus: /"
[ "$(key dfl "$out")" = cache ] || { echo "FAIL: booted with bogus, the default became $(key dfl "$out")"; exit 1; }
[ "$(key refused "$out")" -ge 1 ] || { echo "FAIL: bogus was not reported as invalid at boot"; exit 1; }
echo "default_affinity_scope= at boot: all five scopes taken and applied to events_unbound; bogus refused"

if [ "$WQ61_FLAVOUR" = mainline ]; then
	echo "disable_numa: not in mainline, not tried"
	exit 0
fi
out=$(guest disable_numa "workqueue.disable_numa=1" -e WQ61_BOOTSCOPE_MAXACT=numa)
echo "$out" | sed "s/^/  disable_numa: /"
[ "$(key dfl "$out")" = system ] || { echo "FAIL: with disable_numa=1 the default scope is $(key dfl "$out"), want system"; exit 1; }
[ "$(key peak "$out")" = 4 ] || { echo "FAIL: with disable_numa=1, $(key peak "$out") items of a max_active 2 workqueue in the numa scope ran at once, want 4 (2 per node)"; exit 1; }
for a in "workqueue.disable_numa=1 workqueue.default_affinity_scope=smt" \
	 "workqueue.default_affinity_scope=smt workqueue.disable_numa=1"; do
	out=$(guest "disable_numa-smt" "$a")
	echo "$out" | sed "s/^/  $a: /"
	[ "$(key dfl "$out")" = smt ] || { echo "FAIL: booted with '$a', the default scope is $(key dfl "$out"), want smt"; exit 1; }
done
echo "disable_numa=1: default system, an explicit default_affinity_scope kept in either order, max_active still per node"
