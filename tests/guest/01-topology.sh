#!/bin/bash
# The topology the guest reports matches the preset's definition.
. "$(dirname "$0")/lib.sh"
sysc=/sys/devices/system
check() { # what got want
	note "$1: $2"
	[ "$2" = "$3" ] || fail "$1 is '$2', preset $WQ61_PRESET wants '$3'"
}
check "online CPUs" "$(nproc)" "$EXPECT_NR_CPUS"
check "cpu0 SMT siblings" "$(cat $sysc/cpu/cpu0/topology/thread_siblings_list)" "$EXPECT_SMT0"
llc=$(cat $sysc/cpu/cpu0/cache/index3/shared_cpu_list 2>/dev/null || echo none)
check "cpu0 L3 CPUs" "$llc" "$EXPECT_LLC0"
check "node0 CPUs" "$(cat $sysc/node/node0/cpulist)" "$EXPECT_NODE0"
check "online nodes" "$(cat $sysc/node/online)" "$EXPECT_NODES"
