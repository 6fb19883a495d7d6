# Helpers for the tests/host/*.sh that boot a guest; source it after
# setting top (the checkout).

# boot_guest NAME PRESET APPEND SCRIPT [VM ARGS...]: boot $WQ61_FLAVOUR on
# PRESET, APPEND added to the kernel command line, running
# tests/guest/lib/SCRIPT; the run dir is $WQ61_RESDIR/NAME. Sets dir and v
# (the runner's verdict; empty if it left none).
boot_guest() {
	local name=$1 preset=$2 append=$3 script=$4
	shift 4
	dir=$WQ61_RESDIR/$name
	"$top/scripts/guest/vm.py" -q -f "$WQ61_FLAVOUR" -p "$preset" -a "$append" -r "$dir" "$@" \
		-- "$top/tests/guest/lib/$script" >/dev/null 2>&1 || true
	v=$(cat "$dir/verdict" 2>/dev/null)
}

# guest_outcome PASSED SKIPPED: the host test's outcome from the guest's
# verdict $v: PASSED printed and 0 if it passed, SKIPPED (why the guest
# skipped: it exits 4 where the kernel lacks the feature) and 4, or FAIL
# and 1 for anything else, a guest that left no verdict too.
guest_outcome() {
	case $v in
	passed) echo "$1"; exit 0;;
	"failed 4") echo "SKIP: $2"; exit 4;;
	*) echo "FAIL: guest: ${v:-no verdict} ($dir/console.log)"; exit 1;;
	esac
}

# key KEY TEXT: the value of the line "KEY=value" in TEXT
key() { echo "$2" | sed -n "s/^$1=//p"; }
