#!/bin/bash
# Affinity scopes, the built-in default where every L3 is one CPU (issue 25
# section 2: VMs that show each vCPU as a socket). There the cache scope
# would keep unbound work on its issuing CPU; wq61's default widens to the
# narrowest scope that groups CPUs (numa; system if each node is one CPU),
# says so once in the kernel log, and default_affinity_scope and a
# workqueue's "default (X)" show it; events_unbound's pools are that
# scope's pods (lib/pwq_map.py). A default written explicitly is kept.
# Where an L3 holds several CPUs (big, small, llc16) the default is cache
# and nothing is logged. Where items start is reported, not judged (the
# wake-up placement decides that, not the scope alone).
#
# Expected: passes on patched; fails on mainline 6.12 on vm16 (its default
# stays cache: the dm-crypt regression); skipped on baseline (no scopes).
. "$(dirname "$0")/lib.sh"
need_feature "$AFFN_DFL" "workqueue.default_affinity_scope"
affn_load
wq=$WQ_SYSFS/wq61_affn
map=$(dirname "$0")/lib/pwq_map.py
sysc=/sys/devices/system
n=$(nproc)
line='every cache pod is a single CPU: default affinity scope is'

single=yes
for c in $(cpus_of "$(cat $sysc/cpu/online)"); do
	[ "$(cat $sysc/cpu/cpu$c/cache/index3/shared_cpu_list 2>/dev/null)" = "$c" ] || single=no
done
nodes=$(cpus_of "$(cat $sysc/node/online)" | wc -l)
dfl=$(cat "$AFFN_DFL")
logged=$(dmesg | grep -c "workqueue: $line" || true)
note "$n CPUs, $nodes node(s), every L3 a single CPU: $single; default_affinity_scope $dfl; widening logged $logged time(s)"

starts() { # LABEL: where 100 items from CPU 0 start
	affn start 0 100 1000 > /dev/null
	note "$1: starts per CPU $(field hist "$(affn start 0 100 1000)")"
}

if [ $single = no ]; then
	[ "$dfl" = cache ] || fail "default_affinity_scope is $dfl where L3s group CPUs, want cache"
	[ "$logged" -eq 0 ] || fail "the widening was logged where L3s group CPUs"
	exit 0
fi

want=numa
[ "$nodes" -lt "$n" ] || want=system
[ "$dfl" = "$want" ] || fail "default_affinity_scope is $dfl where every L3 is one CPU, want $want"
[ "$logged" -eq 1 ] || fail "the widening logged $logged times, want once"
dmesg | grep "workqueue: $line" | sed 's/^/kernel: /'
[ "$(cat $wq/affinity_scope)" = "default ($want)" ] ||
	fail "$wq/affinity_scope reads '$(cat $wq/affinity_scope)', want 'default ($want)'"
drgn -q -k -s "$WQ61_VMLINUX" "$map" events_unbound "$want" ||
	fail "events_unbound's pools are not the $want pods"
starts "default ($want)"

# A default chosen by hand is what it says, cache included.
keep "$AFFN_DFL" $wq/affinity_scope
set_attr "$AFFN_DFL" cache
[ "$(cat "$AFFN_DFL")" = cache ] || fail "default_affinity_scope reads '$(cat "$AFFN_DFL")' after writing cache"
[ "$(cat $wq/affinity_scope)" = "default (cache)" ] ||
	fail "$wq/affinity_scope reads '$(cat $wq/affinity_scope)' after default cache"
drgn -q -k -s "$WQ61_VMLINUX" "$map" events_unbound cache ||
	fail "events_unbound's pools are not the cache pods after writing cache"
starts "default (cache), chosen"
note "default $want where every L3 is one CPU; cache kept when chosen"
