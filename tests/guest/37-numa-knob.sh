#!/bin/bash
# 6.1's per-workqueue "numa" file keeps its meaning: 1 (NUMA affinity on)
# is the state a workqueue starts in, 0 turns it off. On wq61, 0 selects
# the system scope and 1 undoes only that: a workqueue that follows the
# default scope, or has a scope of its own, keeps it when 1 is written
# (scripts write 1 "to make sure"). The file reads 0 only after 0 was
# written (or system chosen), also when the default scope is system, as
# 6.1 read 1 under disable_numa.
#
# Steps on wq61_affn (module wq61_affinity, WQ_SYSFS), each checks numa
# and, where the kernel has it, affinity_scope.
#
# Expected: passes on patched; on baseline the numa read-backs pass (the
# scope checks are wq61's); skipped on mainline (no numa file).
. "$(dirname "$0")/lib.sh"
affn_load
wq=$WQ_SYSFS/wq61_affn
[ -e $wq/numa ] || { wq61_only "numa file"; fail "no $wq/numa"; }
has_scope=0
if [ -e $wq/affinity_scope ]; then
	has_scope=1
elif [ "$WQ61_FAMILY" != baseline ]; then
	fail "no $wq/affinity_scope"
fi
orig_dfl=$(cat $AFFN_DFL 2>/dev/null)
keep $wq/numa $wq/affinity_scope $AFFN_DFL

step=0
# want NUMA SCOPE: numa must read NUMA, affinity_scope SCOPE (if it exists)
want() {
	local n s
	step=$((step + 1))
	n=$(cat $wq/numa)
	[ "$n" = "$1" ] || fail "step $step: numa reads $n, want $1"
	if [ $has_scope = 1 ]; then
		s=$(cat $wq/affinity_scope)
		# "default" reads "default (cache)": the scope it stands for
		case $s in "$2"|"$2 ("*")") ;; *) fail "step $step: affinity_scope is '$s', want '$2'";; esac
	fi
	note "step $step: numa=$n${s:+ affinity_scope=$s}"
}

want 1 default					# as created
set_attr $wq/numa 1; want 1 default		# 1 changes nothing
set_attr $wq/numa 0; want 0 system		# 0: NUMA affinity off
set_attr $wq/numa 0; want 0 system
set_attr $wq/numa 1; want 1 default		# 1: back to the default
if [ $has_scope = 1 ]; then
	set_attr $wq/affinity_scope cache; want 1 cache
	set_attr $wq/numa 1; want 1 cache	# a scope of its own stays
	set_attr $wq/numa 0; want 0 system
	set_attr $wq/numa 1; want 1 default
	# a system default is not "numa 0" for a workqueue that follows it
	set_attr $AFFN_DFL system; want 1 default
	set_attr $AFFN_DFL "$orig_dfl"
fi
note "numa file: $step steps as in 6.1"
