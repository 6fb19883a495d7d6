#!/bin/bash
# tools/workqueue/wq_dump.py: besides its "Affinity Scopes" (test 21), the
# pools and the workqueue -> pool map it prints must be what the kernel
# does: a per-cpu workqueue uses CPU c's pool on CPU c; an ordered one uses
# one pool everywhere; an unbound one uses, on CPU c, a pool whose pod is
# c's pod in the workqueue's scope (from sysfs), marked strict (pool) and S
# (workqueue) exactly when affinity_strict is 1. Switched live through
# cpu/cache/numa/system, strict and not; a runtime change of the default
# scope moves events_unbound and not a workqueue with its own scope; a bad
# argument is a usage error.
#
# Expected: passes on mainline (its own wq_dump.py, same sections); skipped
# on baseline (no wq_dump.py); passes on patched (issue 9).
# Each wq_dump.py run loads vmlinux's debug info into drgn, 10-40 s under
# TCG, and there are nine:
# wq61-timeout: 900
. "$(dirname "$0")/lib.sh"
need_feature "$AFFN_DFL" "workqueue.default_affinity_scope"
dump=$WQ61_SRC/tools/workqueue/wq_dump.py
[ -f "$dump" ] || fail "no $dump"
check=$(dirname "$0")/lib/wq_dump_check.py
affn_load
wq=$WQ_SYSFS/wq61_affn
make_tmp
keep "$AFFN_DFL" "$wq/affinity_scope" "$wq/affinity_strict"

run_dump() {
	"$(dirname "$0")/lib/run-wq-dump.sh" "$tmp/out" 2> "$tmp/err" || {
		cat "$tmp/err"; fail "wq_dump.py failed"; }
	[ -s "$tmp/err" ] && sed 's/^/drgn: /' "$tmp/err"
	return 0
}

run_dump
for s in "Affinity Scopes" "Worker Pools" "Workqueue CPU -> pool"; do
	grep -qx "$s" "$tmp/out" || fail "no \"$s\" section"
done
python3 "$check" "$tmp/out" events percpu || fail "events"
python3 "$check" "$tmp/out" events_highpri percpu || fail "events_highpri"
ordered=$(awk '$2 == "ordered" { print $1; exit }' "$tmp/out")
[ -n "$ordered" ] || fail "no ordered workqueue listed"
python3 "$check" "$tmp/out" "$ordered" ordered || fail "$ordered"
dfl=$(cat "$AFFN_DFL")
python3 "$check" "$tmp/out" events_unbound "$dfl" 0 || fail "events_unbound"

# With wq61_affn in the cpu scope, the default scope is switched to numa
# at run time: events_unbound, which follows the default, must move to the
# numa pods (and back to the boot default's for the other scopes), while
# wq61_affn, with a scope of its own, must stay where it is.
for strict in 1 0; do
	echo $strict > "$wq/affinity_strict" || fail "affinity_strict=$strict"
	for scope in cpu cache numa system; do
		echo $scope > "$wq/affinity_scope" || fail "affinity_scope=$scope"
		d=$dfl; [ $scope = cpu ] && d=numa
		echo $d > "$AFFN_DFL" || fail "default_affinity_scope=$d"
		run_dump
		python3 "$check" "$tmp/out" wq61_affn $scope $strict ||
			fail "wq61_affn after affinity_scope=$scope affinity_strict=$strict (default $d)"
		python3 "$check" "$tmp/out" events_unbound $d 0 ||
			fail "events_unbound after default_affinity_scope=$d"
	done
done

# A usage error: exit 2, a message, no tables.
drgn -q -k -s "$WQ61_VMLINUX" "$dump" --no-such-option > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "wq_dump.py --no-such-option: exit $rc, want 2"
[ -s "$tmp/out" ] && fail "wq_dump.py --no-such-option printed tables"
grep -q "no-such-option" "$tmp/err" || fail "wq_dump.py --no-such-option: no message"
note "wq_dump.py: the map agrees with sysfs and the attributes; a bad option is refused"
