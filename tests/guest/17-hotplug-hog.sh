#!/bin/bash
# CPU hotplug under a per-cpu hog: a 300 ms hog and 20 short items queued
# behind it on a CPU, the CPU taken offline while the hog runs and brought
# back. The pool is disassociated and rebound around its running and
# pending work: every item still runs exactly once, both hotplug calls
# succeed, the CPU is online again, and the per-cpu pools' nr_running come
# back to 0. With the detection on (and, where it exists, with it off, so
# the short items are still pending when the CPU goes), on two CPUs.
. "$(dirname "$0")/lib.sh"
[ -e /sys/devices/system/cpu/cpu1/online ] ||
	skip "no CPU hotplug here (/sys/devices/system/cpu/cpu1/online missing)"
stress_load

# Online CPUs other than 0, in order.
cpus=()
for d in /sys/devices/system/cpu/cpu[0-9]*; do
	c=${d##*/cpu}
	[ "$c" != 0 ] && [ "$(cat "$d/online" 2>/dev/null)" = 1 ] && cpus+=("$c")
done
# (no process substitution: the guest has no /dev/fd)
read -r -a cpus <<< "$(printf '%s\n' "${cpus[@]}" | sort -n | tr '\n' ' ')"
[ ${#cpus[@]} -gt 0 ] || fail "no online CPU other than 0"
# The last one and one in the middle (the same one with two CPUs).
pick=("${cpus[-1]}")
mid=${cpus[$(( (${#cpus[@]} - 1) / 2 ))]}
[ "$mid" != "${pick[0]}" ] && pick+=("$mid")

threshs=(current)
if [ -e "$THRESH" ]; then
	orig=$(cat "$THRESH")
	keep "$THRESH"
	threshs+=(0)
fi
note "CPUs: ${pick[*]}; thresholds: ${threshs[*]}${orig:+ (current ${orig}us)}"

for t in "${threshs[@]}"; do
	if [ "$t" != current ]; then echo "$t" > "$THRESH" || fail "cannot set threshold $t"; fi
	for cpu in "${pick[@]}"; do
		r=$(stress hotplug "$cpu" 300 20) || fail "hotplug $cpu 300 20 refused"
		note "threshold $t, CPU $cpu: $r"
		what="threshold $t, CPU $cpu"
		# the tally counts the hog too: 21 items
		[ "$(field items "$r")" = 20 ] || fail "$what: items is not 20: $r"
		[ "$(field queued "$r")" = 21 ] || fail "$what: the tally is not of 21 items: $r"
		[ "$(field ran "$r")" = 21 ] || fail "$what: not every item ran: $r"
		[ "$(field lost "$r")$(field dup "$r")" = 00 ] || fail "$what: items did not run exactly once: $r"
		[ "$(field offline_ret "$r")" = 0 ] || fail "$what: remove_cpu() failed: $r"
		[ "$(field overlap "$r")" = 1 ] || fail "$what: the CPU did not go offline under the running hog: $r"
		[ "$(field online_ret "$r")" = 0 ] || fail "$what: add_cpu() failed: $r"
		[ "$(cat "/sys/devices/system/cpu/cpu$cpu/online")" = 1 ] || fail "$what: CPU $cpu is not online again"
	done
done
if [ -e "$THRESH" ]; then echo "$orig" > "$THRESH" || fail "cannot restore threshold $orig"; fi
pools_settle 60 || fail "per-cpu pools' nr_running did not come back to 0 (see above)"
