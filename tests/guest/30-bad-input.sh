#!/bin/bash
# Every knob the series adds or changes, fed a fixed list of malformed
# inputs: each write is refused (EINVAL; ERANGE or EOVERFLOW for numbers
# too big; EACCES for a read-only file) and leaves the value as it was (an
# empty input is one write(2) of zero bytes, which may also return 0: the
# value must not change); a non-root writer is refused; 8 writers
# at once, valid and invalid values mixed, leave a valid value and a
# workqueue that still runs its items. One line per knob and input kind:
#   KNOB  KIND  RESULT  (value unchanged | VALUE CHANGED)
# Knobs: the sysfs files of the unbound WQ_SYSFS workqueue wq61_affn
# (affinity_scope, affinity_strict, localize, cpumask, max_active, nice,
# 6.1's numa), the global unbound cpumask (also: never empty) and the
# workqueue module parameters (default_affinity_scope,
# cpu_intensive_thresh_us, cpu_intensive_warning_thresh, disable_numa);
# those a flavour lacks are listed as absent, a failure on wq61.
#
# Expected: passes on patched. On baseline and mainline the knobs they have
# are swept and what they accept is reported, not failed (they are the
# kernels we compare with, not ours).
. "$(dirname "$0")/lib.sh"
affn_load
wq=$WQ_SYSFS/wq61_affn
P=/sys/module/workqueue/parameters
make_tmp
nfail=0 rows=0

bad() { # KNOB KIND RESULT CHANGED: a finding; fails on patched only
	echo "  $1 $2: $3${4:+, value changed: $4}"
	[ "$WQ61_FAMILY" = patched ] && nfail=$((nfail + 1))
	return 0
}

# present NAME FILE: whether the knob is there; one this kernel lacks is
# listed, and on wq61 (which must have them all) it is a finding
present() {
	[ -e "$2" ] && return 0
	bad "$1" file "absent in this kernel" ""
	return 1
}

# zero_write FILE: one write(2) of zero bytes (printf '' makes no write
# at all); ok if it returned 0, else the errno's name
zero_write() {
	python3 -c '
import errno, os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
try:
    n = os.write(fd, b"")
    print("ok" if n == 0 else "wrote %d" % n)
except OSError as e:
    print(errno.errorcode.get(e.errno, str(e.errno)))
' "$1" 2>&1
}

# sweep NAME FILE VALID [KIND...]: the malformed inputs, VALID a good value
# for the knob (to put junk after it); the KINDs are well-formed for this
# knob and skipped (nice -1; numa takes any number; a 4294967296 us
# threshold fits)
sweep() {
	local name=$1 f=$2 valid=$3 kind data r before after ok=0 n=0
	local -a valid_kinds=("${@:4}")
	local -a kinds=(empty space newline tab unknown junk_after space_junk
		negative huge overflow non_ascii long_4k)
	local -A input=(
		[empty]="" [space]=" " [newline]=$'\n' [tab]=$'\t' [unknown]="foo"
		[junk_after]="${valid}x" [space_junk]="$valid x" [negative]="-1"
		[huge]="99999999999999999999999" [overflow]="4294967296"
		[non_ascii]=$'\xc3\xa9'"$valid" [long_4k]="$(printf '%*s' 4095 '' | tr ' ' 7)"
	)
	present "$name" "$f" || return 0
	keep "$f"
	for kind in "${kinds[@]}"; do
		case " ${valid_kinds[*]} " in *" $kind "*) continue;; esac
		n=$((n + 1))
		data=${input[$kind]}
		before=$(cat "$f")
		if [ "$kind" = empty ]; then
			r=$(zero_write "$f")
		else
			r=$(try_write "$f" "$data")
		fi
		after=$(cat "$f")
		rows=$((rows + 1))
		# a number too big may say so; nothing written reaches no store
		case "$kind:$r" in
		huge:ERANGE|overflow:ERANGE|long_4k:ERANGE) r=EINVAL;;
		huge:EOVERFLOW|overflow:EOVERFLOW|long_4k:EOVERFLOW) r=EINVAL;;
		empty:ok) r=EINVAL;;
		esac
		if [ "$r" = EINVAL ] && [ "$before" = "$after" ]; then
			ok=$((ok + 1))
		else
			bad "$name" "$kind" "$r" "$([ "$before" != "$after" ] && echo "$before -> $after")"
			# put it back for the next input
			[ "$before" != "$after" ] && printf '%s' "${before%% (*}" > "$f" 2>/dev/null
		fi
	done
	# A name in two write(2)s: each is a store of its own (as for every
	# sysfs file), and neither half is a name. (A number split so is two
	# numbers, each valid: not malformed.)
	case $valid in
	*[!0-9a-f,]*)
		before=$(cat "$f")
		{ printf '%s' "${valid:0:2}"; printf '%s' "${valid:2}"; } > "$f" 2>/dev/null
		after=$(cat "$f")
		rows=$((rows + 1))
		[ "$before" = "$after" ] || bad "$name" partial "stored" "$before -> $after"
		;;
	esac
	# not root
	before=$(cat "$f")
	r=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		sh -c "printf '%s' '$valid' > '$f'" 2>&1)
	after=$(cat "$f")
	case $r in
	*"Permission denied"*) ;;
	*) bad "$name" non_root "accepted: '$r'" "";;
	esac
	[ "$after" = "$before" ] || bad "$name" non_root "" "$before -> $after"
	note "$name: $ok of $n malformed inputs refused, value kept; non-root refused"
}

# writer I FILE VALUES...: 40 writes, the values and a malformed one in turn
writer() {
	local i=$1 f=$2 j
	shift 2
	local -a vals=("$@" "bogus value")
	for ((j = 0; j < 40; j++)); do
		printf '%s' "${vals[(i + j) % ${#vals[@]}]}" > "$f" 2>/dev/null
	done
}

# race NAME FILE VALUES...: 8 writers at once; the value must end as one of
# VALUES (as the file reads them back)
race() {
	local name=$1 f=$2 i v after r
	local -A valid=()
	shift 2
	[ -e "$f" ] || return 0
	for v in "$@"; do
		printf '%s' "$v" > "$f" || fail "$name: cannot write valid value '$v'"
		valid[$(cat "$f")]=1
	done
	for i in 0 1 2 3 4 5 6 7; do
		writer $i "$f" "$@" &
	done
	wait
	after=$(cat "$f")
	[ -n "${valid[$after]:-}" ] || bad "$name" race "ended as '$after'" ""
	r=$(affn start 0 16 0)
	[ "$(field items "$r")" = 16 ] || bad "$name" race "wq61_affn ran '$r' afterwards" ""
	note "$name: 8 writers at once left '$after'; wq61_affn runs its items"
}

mask=$(cat "$wq/cpumask")
sweep affinity_scope "$wq/affinity_scope" cache
sweep affinity_strict "$wq/affinity_strict" 1
sweep localize "$wq/localize" 1
sweep cpumask "$wq/cpumask" "$mask"
sweep unbound_cpumask "$WQ_SYSFS/cpumask" "$(cat $WQ_SYSFS/cpumask)"
# No CPU at all: an empty unbound cpumask is what mainline's 4a6c5607d450
# had to forbid (kick_pool() woke a worker on CPU -1).
for f in "$wq/cpumask" "$WQ_SYSFS/cpumask"; do
	before=$(cat "$f")
	r=$(try_write "$f" 0)
	rows=$((rows + 1))
	[ "$r" = EINVAL ] && [ "$(cat "$f")" = "$before" ] || bad "${f#$WQ_SYSFS/}" zero_mask "$r" "$before -> $(cat "$f")"
done
note "cpumask, unbound_cpumask: an empty mask refused"
sweep max_active "$wq/max_active" 16
sweep nice "$wq/nice" 5 negative
sweep numa "$wq/numa" 1 negative
sweep default_affinity_scope "$P/default_affinity_scope" numa
sweep cpu_intensive_thresh_us "$P/cpu_intensive_thresh_us" 20000 overflow
sweep cpu_intensive_warning_thresh "$P/cpu_intensive_warning_thresh" 8
if present disable_numa "$P/disable_numa"; then
	r=$(try_write "$P/disable_numa" 1)
	[ "$r" = EACCES ] || [ "$r" != ok ] || bad disable_numa write "$r" ""
	note "disable_numa: read-only at runtime ($r)"
fi
# max_active out of range but well-formed: clamped, with a log line (6.1's
# documented behaviour, kept)
if [ -e "$wq/max_active" ]; then
	expect_message "workqueue: max_active .* requested for wq61_affn is out of range, clamping"
	r=$(try_write "$wq/max_active" 100000)
	note "max_active 100000: $r, now $(cat "$wq/max_active") (clamped, with a log line)"
fi

race affinity_scope "$wq/affinity_scope" cpu cache numa default
race affinity_strict "$wq/affinity_strict" 0 1
race localize "$wq/localize" 0 1
race cpumask "$wq/cpumask" "$mask" 1
race max_active "$wq/max_active" 1 2 16
race nice "$wq/nice" -5 0 5
race default_affinity_scope "$P/default_affinity_scope" cpu cache system

note "$rows malformed writes swept"
[ $nfail = 0 ] || fail "$nfail bad-input findings (see above)"
