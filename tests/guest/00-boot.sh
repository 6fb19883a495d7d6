#!/bin/bash
# The guest runs the kernel that was just built, of the expected flavour.
. "$(dirname "$0")/lib.sh"
want=$(cat "$WQ61_BUILD/include/config/kernel.release")
got=$(uname -r)
note "kernel $got ($WQ61_FLAVOUR), preset $WQ61_PRESET, $(uname -v)"
[ "$got" = "$want" ] || fail "running $got, built $want"
# The Debian packages (deb-full, deb-lean) are 6.1.N-wq61 and
# 6.1.N-wq61-lean (make deb).
case $WQ61_FLAVOUR in
deb-full) want_tail=-wq61;;
deb-lean) want_tail=-wq61-lean;;
*) want_tail=-wq61-$WQ61_FLAVOUR;;
esac
case "$got" in *"$want_tail") ;; *) fail "release $got is not a $WQ61_FLAVOUR build";; esac
