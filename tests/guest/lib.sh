# Helpers for in-guest tests (source it). kselftest exit codes.
KSFT_FAIL=1 KSFT_SKIP=4
fail() { echo "FAIL: $*"; exit $KSFT_FAIL; }
skip() { echo "SKIP: $*"; exit $KSFT_SKIP; }
note() { echo "$*"; }
# Declare a kernel message the test triggers on purpose, so the runner's
# log scan does not count it as a splat (one extended regex per call).
expect_message() { echo "$1" >> "$WQ61_RESULTS/expected-messages"; }
mod() { echo "$WQ61_MODULES/$1.ko"; }
# WQ61_FLAVOUR is the kernel booted (config/flavours), WQ61_FAMILY what
# the tests expect of it: baseline, patched or mainline. The sanitizer
# kernels and the Debian packages are the patched source, the naive ones
# claim to be: their family is patched (scripts/guest/vm.py sets both).
[ -n "${WQ61_FAMILY:-}" ] || { echo "FAIL: no WQ61_FAMILY (run the tests through scripts/guest/vm.py)"; exit 1; }

# wq61_only WHAT: a test (or part) of something mainline does not have
# (or does differently on purpose): skipped on the mainline flavour.
wq61_only() {
	[ "$WQ61_FAMILY" = mainline ] && skip "wq61 only: $1"
	return 0
}

# on_exit CMD: run CMD (eval'ed) when the test exits, however it exits;
# the last registered runs first. One EXIT trap runs them all, so helpers
# and tests can each register their own restores.
on_exit_cmds=()
on_exit() {
	on_exit_cmds=("$1" "${on_exit_cmds[@]}")
	trap 'for c in "${on_exit_cmds[@]}"; do eval "$c"; done' EXIT
}
# keep FILE...: remember what each existing FILE (a knob) holds now, and
# write it back when the test exits, however it exits; restore_kept does
# it earlier too. Files are written back in the order they were first
# kept; "default (X)" (how affinity_scope shows the default) goes back as
# "default"; a value that will not go back is reported.
kept_files=() kept_vals=()
keep() {
	local f i
	for f; do
		[ -e "$f" ] || continue
		for i in "${!kept_files[@]}"; do [ "${kept_files[i]}" = "$f" ] && continue 2; done
		kept_files+=("$f"); kept_vals+=("$(cat "$f")")
	done
	[ -n "${kept_on_exit:-}" ] || { kept_on_exit=1; on_exit restore_kept; }
}
# kept FILE: the value keep remembered for FILE
kept() {
	local i
	for i in "${!kept_files[@]}"; do
		[ "${kept_files[i]}" = "$1" ] && { printf '%s\n' "${kept_vals[i]}"; return 0; }
	done
	fail "kept: $1 was not kept"
}
restore_kept() {
	local i v
	for i in "${!kept_files[@]}"; do
		v=${kept_vals[i]}
		case $v in "default ("*) v=default;; esac
		printf '%s\n' "$v" > "${kept_files[i]}" 2>/dev/null ||
			echo "cannot restore ${kept_files[i]} to '$v'"
	done
}
# make_tmp: a scratch directory in $tmp, removed when the test exits
make_tmp() {
	tmp=$(mktemp -d) || fail "mktemp"
	on_exit 'rm -rf "$tmp"'
}
# save_unbound_cpumask: keep the global unbound cpumask (sets g, the
# cpumask file, and cpumask_saved).
save_unbound_cpumask() {
	g=$WQ_SYSFS/cpumask
	[ -w "$g" ] || fail "no $g"
	cpumask_saved=$(cat "$g")
	keep "$g"
}

# Feature presence: on the baseline flavour a missing feature is a skip;
# on every wq61 flavour (patched, its sanitizer and naive builds) and on
# mainline it is a failure. A test of what only wq61 has calls wq61_only
# first, so mainline never gets here for it.
THRESH=/sys/module/workqueue/parameters/cpu_intensive_thresh_us
need_feature() { # path what
	[ -e "$1" ] && return 0
	[ "$WQ61_FAMILY" = baseline ] && skip "$2: not in the baseline kernel"
	fail "$2 missing ($1)"
}

# wq61_needs FILE...: a test that adapts to what a kernel has (the knobs
# it drives) still fails on wq61 if one of the series' files is missing.
wq61_needs() {
	local f
	[ "$WQ61_FAMILY" = patched ] || return 0
	for f; do [ -e "$f" ] || fail "missing on wq61: $f"; done
}

# wq61_hog module: load once, run a command, print its result line.
hog_load() {
	[ -d /sys/kernel/debug/wq61_hog ] || insmod "$(mod wq61_hog)" || fail "cannot load wq61_hog"
}
hog() { echo "$*" > /sys/kernel/debug/wq61_hog/ctl || fail "hog '$*' failed"; cat /sys/kernel/debug/wq61_hog/ctl; }
# wq61_stress module: load once; stress CMD...: run a command, print its
# result line (a refused command returns 1, the error is on stderr).
stress_load() {
	[ -d /sys/kernel/debug/wq61_stress ] || insmod "$(mod wq61_stress)" || fail "cannot load wq61_stress"
}
stress() { echo "$*" > /sys/kernel/debug/wq61_stress/ctl && cat /sys/kernel/debug/wq61_stress/ctl; }
# pools_settle [DEADLINE]: wait until every per-cpu worker pool's
# nr_running has been seen at 0 (tests/guest/lib/pool_nr_running.py).
pools_settle() {
	drgn -q -k -s "$WQ61_VMLINUX" "$(dirname "${BASH_SOURCE[0]}")/lib/pool_nr_running.py" "$@"
}
# field NAME "k=v k=v": print v of NAME
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# wq_monitor.py's JSON for exactly one workqueue, then KEY of it.
wq_monitor() { drgn -q -k -s "$WQ61_VMLINUX" "$WQ61_SRC/tools/workqueue/wq_monitor.py" "$@"; }
wq_stat() { # WQ KEY
	wq_monitor -j -i 0 "^$1\$" | python3 -c '
import ast, json, sys
# wq61 prints JSON Lines; mainline prints Python dict reprs.
def row(line):
    try:
        return json.loads(line)
    except ValueError:
        return ast.literal_eval(line)
rows = [row(l) for l in sys.stdin if l.strip()]
rows = [r for r in rows if r["name"] == sys.argv[1]]
if len(rows) != 1:
    sys.exit("wq_monitor: %d rows for %s" % (len(rows), sys.argv[1]))
print(rows[0][sys.argv[2]])' "$1" "$2"
}

# Affinity scopes (tests 20-26, 30-42) and the wq61_affinity module.
AFFN_DFL=/sys/module/workqueue/parameters/default_affinity_scope
WQ_SYSFS=/sys/devices/virtual/workqueue
AFFN_SCOPES="cpu smt cache numa system"
# cache_shard (issue 25, mainline from 7.1, not in 6.12): where the kernel
# has it, every test that goes through the scopes takes it too
SHARD_SIZE=/sys/module/workqueue/parameters/cache_shard_size
[ -e "$SHARD_SIZE" ] && AFFN_SCOPES="cpu smt cache_shard cache numa system"
affn_load() {
	[ -d /sys/kernel/debug/wq61_affinity ] || insmod "$(mod wq61_affinity)" ||
		fail "cannot load wq61_affinity"
}
affn() {
	echo "$*" > /sys/kernel/debug/wq61_affinity/ctl || fail "wq61_affinity '$*' failed"
	cat /sys/kernel/debug/wq61_affinity/ctl
}
# sysfs_pods FILE: the pods of every scope as the guest's sysfs topology
# gives them (lib/wq_pods.py, independent of the kernel's code) into FILE,
# which pod_of then reads; pod_of SCOPE CPU prints the cpulist of CPU's pod.
sysfs_pods() {
	PODS=$1
	python3 "$(dirname "${BASH_SOURCE[0]}")/lib/wq_pods.py" sysfs > "$PODS" ||
		fail "cannot read the topology from sysfs"
}
pod_of() { sed -n "s/^$1 cpu $2 //p" "$PODS"; }
# affn_starts LABEL POD_OF ISSUERS M SPIN: M items of SPIN us queued on
# wq61_affn from a kthread on each CPU of ISSUERS in turn, after one
# warm-up round that is not counted (so that the pools of attributes just
# set have their workers). Notes each issuer's starts per CPU. Sets TOTAL
# (items that reported a start CPU: fails unless all did), IN (those that
# started in the issuer's pod, whose cpulist "POD_OF CPU" prints; POD_OF
# is split into words), PCT (IN in % of TOTAL), and of the items that
# started outside, OUT_BUSY (by a worker that went on from its previous
# item without sleeping) and OUT_FREE (while a CPU of the pod was free:
# wq61_affinity's "pod" analysis, pods of CPUs 0-31 only).
affn_starts() {
	local label=$1 pod_of=$2 issuers=$3 m=$4 spin=$5 k r hist busy pod c i h b mask
	IN=0 TOTAL=0 OUT_BUSY=0 OUT_FREE=0
	affn start "${issuers%% *}" "$m" "$spin" > /dev/null
	for k in $issuers; do
		pod=$($pod_of "$k")
		mask=0
		for c in $(cpus_of "$pod"); do
			[ "$c" -lt 32 ] || { mask=0; break; }
			mask=$((mask | 1 << c))
		done
		affn pod $mask > /dev/null
		r=$(affn start "$k" "$m" "$spin")
		hist=$(field hist "$r")
		busy=$(field busy_hist "$r")
		[ -n "$hist" ] || fail "$label: no histogram from wq61_affinity: '$r'"
		note "  $label, issuer $k (pod $pod): starts per CPU $hist$([ $mask = 0 ] || echo " out_free=$(field out_free "$r")")"
		IFS=, read -ra h <<< "$hist"
		IFS=, read -ra b <<< "$busy"
		for i in "${!h[@]}"; do TOTAL=$((TOTAL + h[i])) OUT_BUSY=$((OUT_BUSY + ${b[i]:-0})); done
		for c in $(cpus_of "$pod"); do IN=$((IN + h[c])) OUT_BUSY=$((OUT_BUSY - ${b[c]:-0})); done
		OUT_FREE=$((OUT_FREE + $(field out_free "$r" | grep . || echo 0)))
	done
	affn pod 0 > /dev/null
	k=$((m * $(echo $issuers | wc -w)))
	[ "$TOTAL" -eq "$k" ] || fail "$label: $TOTAL items reported a start CPU, want $k"
	PCT=$((100 * IN / TOTAL))
}
# try_write FILE DATA: one write of DATA (as is: add the newline yourself);
# prints ok, EINVAL, EACCES, ERANGE, EOVERFLOW or the shell's message.
try_write() {
	local err
	err=$( { printf '%s' "$2" > "$1"; } 2>&1 )
	case $err in
	"") echo ok;;
	*"Invalid argument"*) echo EINVAL;;
	*"Permission denied"*) echo EACCES;;
	*"Numerical result out of range"*) echo ERANGE;;
	*"Value too large"*) echo EOVERFLOW;;
	*) echo "error: $err";;
	esac
}
# set_attr FILE VALUE: write, or fail the test.
set_attr() { echo "$2" > "$1" || fail "cannot write '$2' to $1"; }
# cpus_of CPULIST: one CPU number a line ("0-3,8" -> 0 1 2 3 8).
cpus_of() {
	local part
	for part in ${1//,/ }; do
		case $part in *-*) seq "${part%-*}" "${part#*-}";; *) echo "$part";; esac
	done
}

# online_all: bring every CPU back online (after a hotplug test); a CPU
# that refuses is reported, not fatal (callers check what they need)
online_all() {
	local f
	for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
		[ "$(cat "$f")" = 1 ] || echo 1 > "$f" || echo "cannot online ${f%/online}"
	done
}

# cpumask_halves: for tests that switch the global unbound cpumask between
# two disjoint halves of the CPUs while wq61_torture works. Loads
# wq61_torture, brings every CPU online, sets ctl (its control file), g
# (the global cpumask file), lo and hi (the halves, as numbers), and
# restores the cpumask on exit (save_unbound_cpumask).
cpumask_halves() {
	local ncpu
	[ -d /sys/kernel/debug/wq61_torture ] || insmod "$(mod wq61_torture)" ||
		fail "cannot load wq61_torture"
	ctl=/sys/kernel/debug/wq61_torture/ctl
	online_all
	ncpu=$(nproc --all)
	[ "$ncpu" -ge 2 ] && [ "$ncpu" -le 62 ] || skip "needs 2..62 CPUs ($ncpu)"
	save_unbound_cpumask
	lo=$(( (1 << (ncpu / 2)) - 1 ))
	hi=$(( ((1 << ncpu) - 1) & ~lo ))
}
