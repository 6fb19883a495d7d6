#!/bin/bash
# Pods of CPUs that were not online at boot (issue 21 section 2): big
# booted with maxcpus=8, the 8 other CPUs brought up afterwards (8-15 on
# 6.1 and wq61; mainline boots 0,2,...,14 first), must have the
# pods, pools and strict-cache locality of a boot with all 16 CPUs
# (tests/guest/lib/late-cpus.sh says what is checked).
#
# Expected: passes on patched; fails on mainline (every late CPU joins
# CPU 0's cache pod: cpus_share_cache() compares sched domains those CPUs
# did not have at boot); skipped on baseline (no affinity scopes).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/lib/boot.sh"
boot_guest late-cpus big maxcpus=8 late-cpus.sh
sed 's/^/  guest: /' "$dir/output" 2>/dev/null | grep -v '^  guest: [a-z]* cpu ' | head -60
guest_outcome "late CPUs: pods, pools and strict cache locality as on a full boot" "no affinity scopes in $WQ61_FLAVOUR"
