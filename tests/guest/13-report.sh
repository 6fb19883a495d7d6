#!/bin/bash
# CONFIG_WQ_CPU_INTENSIVE_REPORT with mainline's cadence (6.9+): a work
# function is named from its Nth catch on, N being
# workqueue.cpu_intensive_warning_thresh (default 4), then at N+1, N+3,
# N+7...; 0 silences it and a new value applies to the count so far.
# Messages are in mainline's exact format. Bad values are refused.
. "$(dirname "$0")/lib.sh"
need_feature "$THRESH" "workqueue.cpu_intensive_thresh_us"
WARN=/sys/module/workqueue/parameters/cpu_intensive_warning_thresh
need_feature "$WARN" "workqueue.cpu_intensive_warning_thresh"
hog_load
cpu=$(( $(nproc) - 2 ))
thresh=$(cat "$THRESH")
# Spin well past the threshold so that every run is one catch.
spin=$(( thresh * 4 / 1000 + 20 ))
re="workqueue: report_fn \[wq61_hog\] hogged CPU for >${thresh}us [0-9]+ times, consider switching to WQ_UNBOUND"
# The counts reported so far, in order, on one line.
reported() { dmesg | grep -oE "$re" | awk '{print $(NF-5)}' | tr '\n' ' ' | sed 's/ $//'; }
catch() { hog report $cpu $spin >/dev/null; }
# want_reports "4 5 7": exactly these reports so far. printk_deferred()
# stores the record at once (only the console is deferred), so there is
# nothing to wait for.
want_reports() {
	[ "$(reported)" = "$1" ] || fail "after $n catches: reported at '$(reported)', want '$1'"
	note "after $n catches: reported at '$1'"
}

grep -q cpu_intensive_warning_thresh /proc/cmdline && fail "the test needs the default from boot"
[ "$(cat "$WARN")" = 4 ] || fail "default is $(cat "$WARN"), want 4"
[ "$(stat -c %a "$WARN")" = 644 ] || fail "mode $(stat -c %a "$WARN"), want 644"

# Bad values: refused, the value stays.
for bad in -1 abc '' 4x 4294967296 99999999999999999999 ' '; do
	if printf '%s\n' "$bad" > "$WARN" 2>/dev/null; then
		fail "'$bad' accepted"
	fi
	[ "$(cat "$WARN")" = 4 ] || fail "'$bad' changed the value to $(cat "$WARN")"
done
note "bad values refused, value unchanged"
[ -z "$(reported)" ] || fail "report_fn reported before the test ran: $(reported)"

n=0
for want in "" "" "" "4" "4 5" "4 5" "4 5 7"; do
	catch; n=$((n + 1))
	want_reports "$want"
done
line=$(dmesg | grep -E "$re" | tail -1 | sed 's/^\[[^]]*\] //')
exact="workqueue: report_fn [wq61_hog] hogged CPU for >${thresh}us 7 times, consider switching to WQ_UNBOUND"
[ "$line" = "$exact" ] || fail "format: got '$line', want '$exact'"

# 0: no reports, though the 11th catch would be one at 4.
echo 0 > "$WARN" || fail "cannot write 0"
for i in 1 2 3 4; do catch; n=$((n + 1)); done
want_reports "4 5 7"

# A new value counts from the catches so far: 12 makes the 12th the first.
echo 12 > "$WARN" || fail "cannot write 12"
catch; n=$((n + 1))
want_reports "4 5 7 12"
catch; n=$((n + 1))
want_reports "4 5 7 12 13"
catch; n=$((n + 1))
want_reports "4 5 7 12 13"
echo 4 > "$WARN"
