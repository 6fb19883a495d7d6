#!/bin/bash
# An empty global unbound cpumask at boot (mainline's B5, 4a6c5607d450 in
# 6.7; wq61 patch 0022): small booted with "nohz_full=1-3 isolcpus=0,2-3",
# whose workqueue and scheduler-domain housekeeping CPUs do not meet.
# The cpumask must keep to the nohz_full= housekeeping CPU (0) and work
# items must run (tests/guest/lib/empty-unbound.sh).
#
# Without the fallback: naive b5.
#
# Expected: passes on patched and mainline; FAILS on baseline: stock
# Debian 6.1.192 boots with an empty global unbound cpumask ("0", measured
# 2026-12-06), the bug mainline fixed in 6.7.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/lib/boot.sh"
boot_guest empty-unbound-mask small "nohz_full=1-3 isolcpus=0,2-3" empty-unbound.sh
sed 's/^/  guest: /' "$dir/output" 2>/dev/null | head -20
case $v in
passed) echo "empty housekeeping intersection: the unbound cpumask keeps to CPU 0, work runs";;
*) echo "FAIL: guest: ${v:-no verdict} ($dir/console.log)"; exit 1;;
esac
