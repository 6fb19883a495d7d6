#!/bin/bash
# In-guest half of tests/host/late-cpus.sh; the guest booted big with
# maxcpus=8, so 8 of its 16 CPUs were never online (8-15 on 6.1 and wq61).
# Bring them up in a mixed order (12 15 9 8 13 10 11 14 there), then:
#   1. the pods of every scope (the kernel's tables, wq_dump.py) equal the
#      sysfs topology: tests/guest/21-affinity-pods.sh, as on a full boot;
#   2. events_unbound (default scope: cache) has on every CPU a pool that
#      covers that CPU's L3 (wq_dump.py's map against sysfs);
#   3. wq61_affn set to strict cache: 200 items issued on the first CPU
#      brought up all start in its L3 as sysfs reports it (12-15 for 12).
# A CPU that comes up late must not join CPU 0's L3 pod (issue 21 section 2).
lib=$(dirname "$0")
. "$lib/../lib.sh"
need_feature "$AFFN_DFL" "workqueue.default_affinity_scope"
sysc=/sys/devices/system/cpu
# Which 8 come up at boot is the kernel's choice: 6.1 and wq61 take 0-7,
# mainline 6.12 the first thread of each core first (0,2,...,14). The
# others come up here in a mixed order; the first of them issues the
# strict-cache items of part 3.
boot_online=$(cat $sysc/online)
late=()
for c in $(cpus_of "$(cat $sysc/possible)"); do
	case ",$(cpus_of "$boot_online" | paste -sd,)," in *",$c,"*) ;; *) late+=("$c");; esac
done
[ ${#late[@]} = 8 ] || fail "booted with maxcpus=8, online: $boot_online"
order=""
for i in 4 7 1 0 5 2 3 6; do order="$order ${late[i]}"; done
order=${order# }
for c in $order; do
	echo 1 > $sysc/cpu$c/online || fail "cannot bring CPU $c up"
done
[ "$(cat $sysc/online)" = "$(cat $sysc/possible)" ] || fail "online after bringing the rest up: $(cat $sysc/online)"
note "booted with $boot_online online; the others brought up in the order $order"
issuer=${order%% *}

"$lib/../21-affinity-pods.sh" || fail "pods after CPUs $order came up (21-affinity-pods.sh above)"

"$lib/run-wq-dump.sh" /tmp/dump 2> /tmp/dump.err || {
	cat /tmp/dump.err; fail "wq_dump.py failed"; }
out=$(python3 "$lib/wq_dump_check.py" /tmp/dump events_unbound "$(cat "$AFFN_DFL")" 0) || {
	echo "$out"; fail "events_unbound's pools after CPUs $order came up"; }
note "events_unbound: $out"

affn_load
wq=$WQ_SYSFS/wq61_affn
set_attr $wq/affinity_strict 1
set_attr $wq/affinity_scope cache
l3=$(cat $sysc/cpu$issuer/cache/index3/shared_cpu_list)
M=200
l3_of() { cat $sysc/cpu$1/cache/index3/shared_cpu_list; }
affn_starts "strict cache" l3_of "$issuer" $M 1000
[ "$IN" -eq $M ] || fail "strict cache from CPU $issuer: $((M - IN)) of $M items started outside its L3 $l3"
note "strict cache from CPU $issuer: all $M items started in its L3 $l3"
