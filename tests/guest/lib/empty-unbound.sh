#!/bin/bash
# In-guest half of tests/host/empty-unbound-mask.sh; the guest booted
# small with "nohz_full=1-3 isolcpus=0,2-3": workqueue housekeeping (CPU 0)
# and scheduler-domain housekeeping (CPU 1) have no CPU in common, so the
# global unbound cpumask, their intersection, starts out empty.
#  1. the boot took both parameters (else the test proves nothing);
#  2. the global unbound cpumask is not empty: CPU 0 alone, the nohz_full=
#     housekeeping CPU, so unbound work stays off the tickless CPUs (wq61
#     patch 0022; mainline since 6.7 skips the restriction that would
#     empty the mask, with the same result);
#  3. on wq61 the kernel log says that isolcpus= could not be honoured;
#  4. an unbound and a per-cpu work item run (module wq61_smoke).
lib=$(dirname "$0")
. "$lib/../lib.sh"
nohz=$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)
isol=$(cat /sys/devices/system/cpu/isolated 2>/dev/null)
echo "nohz_full=${nohz:-none} isolated=${isol:-none}"
[ "$nohz" = "1-3" ] || fail "booted with nohz_full=1-3, the kernel reports '${nohz:-nothing}'"
[ "$isol" = "0,2-3" ] || fail "booted with isolcpus=0,2-3, the kernel reports '${isol:-nothing}'"
mask=$(cat "$WQ_SYSFS/cpumask")
echo "unbound_cpumask=$mask"
[ -n "$mask" ] && [ $((16#$mask)) != 0 ] || fail "the global unbound cpumask is empty ('$mask')"
[ $((16#$mask)) = 1 ] || fail "the global unbound cpumask is $mask, want CPU 0 alone (1), the nohz_full= housekeeping CPU"
if [ "$WQ61_FAMILY" = patched ]; then
	dmesg | grep "workqueue: nohz_full= and isolcpus= share no housekeeping CPU" ||
		fail "no kernel message on the empty housekeeping intersection"
fi
insmod "$(mod wq61_smoke)" cpu=3 || fail "wq61_smoke: an unbound or per-cpu work item did not run (see dmesg)"
dmesg | grep 'wq61_smoke:' | tail -2
note "empty housekeeping intersection: unbound cpumask $mask, work items run"
