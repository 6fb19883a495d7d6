#!/usr/bin/env python3
"""Scan kernel logs for splats: BUG, WARNING, Oops, lockdep, KASAN/UBSAN,
soft lockups, hung tasks, RCU stalls, workqueue lockups, panics.

usage: scan_log.py [--expected FILE] LOG...

A line that matches a regex from FILE (one per line; tests append what they
deliberately trigger) is not a failure. Exit 0 when clean, 1 otherwise,
printing each unexpected splat with a little context.
"""
import re
import sys

SPLATS = [
    r'\bBUG:', r'\bWARNING:', r'\bOops\b', r'Kernel panic',
    r'general protection fault', r'Unable to handle kernel',
    r'possible circular locking', r'possible recursive locking',
    r'inconsistent lock state', r'INFO: possible', r'DEBUG_LOCKS_WARN_ON',
    r'INFO: trying to register non-static key',
    r'turning off the locking correctness validator',
    r'KASAN:', r'UBSAN:', r'KCSAN:', r'soft lockup', r'hard LOCKUP',
    r'INFO: task .* blocked for more than', r'detected stalls? on CPU',
    r'rcu_.*self-detected stall', r'workqueue lockup',
    r'ODEBUG:', r'scheduling while atomic', r'sleeping function called',
    r'\bcut here\b',
]
# Lines that contain a trigger word but are not splats.
BENIGN = [
    r'lockdep: ', r'Lock dependency validator', r'\.\.\. MAX_LOCKDEP',
    r'\.\.\. (CLASSHASH|CHAINHASH)', r'in-use\s*lock',
    r'please attach the output of /proc/lock_stat',
    r'per task-struct memory footprint', r'^\s*\.\.\.',
    r'ODEBUG: selftest passed',
]
SPLAT_RE = re.compile('|'.join(SPLATS))
BENIGN_RE = re.compile('|'.join(BENIGN))


def main(argv):
    expected = []
    logs = []
    it = iter(argv)
    for a in it:
        if a == '--expected':
            path = next(it)
            try:
                with open(path, errors='replace') as f:
                    expected = [re.compile(l.strip()) for l in f if l.strip()]
            except FileNotFoundError:
                pass
        else:
            logs.append(a)
    bad = 0
    for path in logs:
        try:
            with open(path, errors='replace') as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            continue
        last = -100
        for i, line in enumerate(lines):
            if not SPLAT_RE.search(line) or BENIGN_RE.search(line):
                continue
            if any(e.search(line) for e in expected):
                continue
            bad += 1
            near, last = i - last < 8, i
            if bad <= 5 and not near:  # one excerpt per splat, not per line
                print(f'--- unexpected splat in {path}:{i + 1}')
                for l in lines[max(0, i - 2):i + 12]:
                    print('    ' + l)
    if bad:
        print(f'log scan: {bad} unexpected splat line(s)')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
