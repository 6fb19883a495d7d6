#!/bin/bash
# The built-in default scope follows the pods as CPUs come up (issue 25
# section 2, patch 0053): big booted with maxcpus=1 has single-CPU cache
# pods at boot, so the default is numa; once the other 15 CPUs are up the
# L3s group CPUs and it is cache again, events_unbound on the cache pods
# (tests/guest/lib/late-cpus-default.sh says what is checked).
#
# Expected: passes on patched; fails on mainline 6.12 (its default stays
# cache); skipped on baseline (no affinity scopes).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/lib/boot.sh"
boot_guest late-cpus-default big maxcpus=1 late-cpus-default.sh
sed 's/^/  guest: /' "$dir/output" 2>/dev/null | head -30
guest_outcome "late CPUs: the default scope widened at boot and back to cache" "no affinity scopes in $WQ61_FLAVOUR"
