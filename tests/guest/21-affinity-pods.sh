#!/bin/bash
# Affinity scopes, the pods: for every scope (cpu smt cache numa system) the
# kernel's CPU -> pod and pod -> CPUs tables (wq_pod_types[], read with drgn
# by lib/wq_pods.py) equal the topology the guest's sysfs reports
# (thread_siblings_list, cache/index3/shared_cpu_list, node cpulist).
# Second witness: the "Affinity Scopes" section of the flavour's own
# tools/workqueue/wq_dump.py, where it has one (mainline does).
#
# Expected: passes on mainline; skipped on baseline (no affinity scopes);
# passes on patched too (issue 9).
. "$(dirname "$0")/lib.sh"
need_feature "$AFFN_DFL" "workqueue.default_affinity_scope"
pods=$(dirname "$0")/lib/wq_pods.py
make_tmp

python3 "$pods" sysfs > "$tmp/sysfs" || fail "cannot read the topology from sysfs"
dump=$WQ61_SRC/tools/workqueue/wq_dump.py
args=(kernel)
[ -f "$dump" ] && args+=(--run-wq-dump "$dump" "$tmp/wq_dump.txt")
drgn -q -k -s "$WQ61_VMLINUX" "$pods" "${args[@]}" > "$tmp/kernel" 2> "$tmp/drgn.err" || {
	cat "$tmp/drgn.err"; fail "drgn could not read wq_pod_types[]"; }
[ -s "$tmp/drgn.err" ] && sed 's/^/drgn: /' "$tmp/drgn.err"
grep ' pods ' "$tmp/kernel" | sed 's/^/kernel: /'
diff -u "$tmp/sysfs" "$tmp/kernel" > "$tmp/diff" || {
	cat "$tmp/diff"; fail "the kernel's pods differ from the sysfs topology (- sysfs, + kernel)"; }
note "wq_pod_types[] matches the sysfs topology for: $AFFN_SCOPES"

if [ -f "$dump" ]; then
	python3 "$pods" wq-dump "$tmp/wq_dump.txt" > "$tmp/wq_dump" || {
		sed -n '1,40p' "$tmp/wq_dump.txt"; fail "cannot parse wq_dump.py's Affinity Scopes"; }
	diff -u "$tmp/sysfs" "$tmp/wq_dump" > "$tmp/diff" || {
		cat "$tmp/diff"; fail "wq_dump.py's pods differ from the sysfs topology (- sysfs, + wq_dump)"; }
	note "wq_dump.py's Affinity Scopes agree"
else
	note "no $dump in this flavour: one witness only"
fi
