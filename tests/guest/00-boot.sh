#!/bin/bash
# The guest runs the kernel that was just built, of the expected flavour.
. "$(dirname "$0")/lib.sh"
want=$(cat "$WQ61_BUILD/include/config/kernel.release")
got=$(uname -r)
note "kernel $got ($WQ61_KERNEL_FLAVOUR), preset $WQ61_PRESET, $(uname -v)"
[ "$got" = "$want" ] || fail "running $got, built $want"
case "$got" in *-wq61-"$WQ61_KERNEL_FLAVOUR") ;; *) fail "release $got is not a $WQ61_KERNEL_FLAVOUR build";; esac
