#!/bin/bash
# A work item queued from outside a workqueue that is being drained is
# refused (with a warning, once per boot), and must not be left PENDING:
# else it can never be queued again and cancel_work_sync() on it spins.
# wq61_stress's "drainreject": item A blocks the per-cpu workqueue
# wq61_drain, a kthread drains it, and once that kthread sleeps in the
# drain, item B is queued from the ctl writer. Then A is released and B
# queued again: it must be accepted and run once (issue 21 section 4).
#
# Expected: passes on patched; fails on baseline and on mainline 6.12
# (PENDING stays set: "pending=1 again=0 ran=0").
. "$(dirname "$0")/lib.sh"
stress_load
# __queue_work()'s WARN_ON_ONCE() is what the test triggers
expect_message 'cut here'
expect_message 'WARNING: .*(kernel/workqueue.c:[0-9]+ )?__queue_work'
r=$(stress drainreject) || fail "drainreject failed (see dmesg)"
note "drainreject: $r"
[ "$(field pending "$r")" = 0 ] || fail "B was left PENDING after __queue_work() refused it: $r"
[ "$(field again "$r")" = 1 ] || fail "queueing B again after the drain was refused: $r"
[ "$(field ran "$r")" = 1 ] || fail "B ran $(field ran "$r") times after the drain, want 1: $r"
note "the refused item was not left pending; queued again, it ran once"
