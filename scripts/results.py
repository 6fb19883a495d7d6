#!/usr/bin/env python3
"""Parse test results: TAP from tests/run-in-guest.sh and KTAP (KUnit) from
a kernel log.

  results.py tap FILE PREFIX     print "PASS|FAIL|SKIP PREFIX/name" per test
  results.py kunit DMESG PREFIX  the same for every KUnit test case

Leaf test cases are counted, not suites. A KUnit suite that starts but
never reports a result (crash mid-suite) is reported as a failure. TAP
tests that the plan ("1..N", and the names tests/run-in-guest.sh lists on
its "# wq61-tests:" line) promised but that never reported (the guest died
or was lost) are failures too: "# not run".
"""
import re
import sys

TS = re.compile(r'^\[\s*\d+\.\d+\]\s?')
RESULT = re.compile(r'^(\s*)(not ok|ok) (\d+)(?: -)? ?([^#]*?)\s*(#.*)?$')
SUBTEST = re.compile(r'^(\s*)# Subtest: (.*)$')


def verdict(ok, directive):
    d = (directive or '').upper()
    if 'SKIP' in d:
        return 'SKIP'
    return 'PASS' if ok == 'ok' else 'FAIL'


PLAN = re.compile(r'^1\.\.(\d+)')
NAMES = re.compile(r'^# wq61-tests:(.*)$')


def tap(path, prefix):
    out, seen, plan, names = [], set(), 0, []
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = PLAN.match(line)
            if m:
                plan = int(m.group(1))
            m = NAMES.match(line)
            if m:
                names = m.group(1).split()
            m = RESULT.match(line)
            if m and not m.group(1):
                seen.add(int(m.group(3)))
                out.append((verdict(m.group(2), m.group(5)), f'{prefix}/{m.group(4)}',
                            m.group(5) or ''))
    for n in range(1, plan + 1):
        if n not in seen:
            name = names[n - 1] if n <= len(names) else f'test-{n}'
            out.append(('FAIL', f'{prefix}/{name}', '# not run'))
    return out


def kunit(path, prefix):
    out = []
    stack = []  # (indent, name) of open subtests
    with open(path, errors='replace') as f:
        for raw in f:
            line = TS.sub('', raw.rstrip('\n'))
            m = SUBTEST.match(line)
            if m:
                stack.append((len(m.group(1)), m.group(2).strip()))
                continue
            m = RESULT.match(line)
            if not m:
                continue
            indent = len(m.group(1))
            if stack and stack[-1][0] == indent + 4:
                stack.pop()  # a suite's (or parameterised test's) own line
                continue
            if not stack:
                continue  # not inside KTAP output
            path_names = [n for _, n in stack]
            out.append((verdict(m.group(2), m.group(5)),
                        f'{prefix}/' + '.'.join(path_names + [m.group(4)]),
                        m.group(5) or ''))
    for _, name in stack:
        out.append(('FAIL', f'{prefix}/{name}', '# suite never finished'))
    return out


def main():
    kind, path, prefix = sys.argv[1:4]
    try:
        rows = tap(path, prefix) if kind == 'tap' else kunit(path, prefix)
    except FileNotFoundError:
        rows = []
    for v, name, why in rows:
        print(f'{v} {name} {why}'.rstrip())


if __name__ == '__main__':
    main()
